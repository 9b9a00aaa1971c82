#pragma once
// Size helpers shared by the generators. RapidCheck's own gen::container takes its length from
// the size parameter (0..100 by default), which would make programs far too large to explore;
// here a length is bounded by an explicit maximum that grows with the size, while the elements
// still see the full size. Built on gen::container so shrinking removes elements first.
#include <rapidcheck.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace syncbisim::generators {

// RapidCheck's default largest size (rc::detail::kNominalSize).
inline constexpr int kNominalSize = 100;

// `max` scaled by size / kNominalSize, rounded up, so a non-zero size allows at least one.
inline int scaled_bound(int max, int size) {
  if (max <= 0 || size <= 0) return 0;
  return std::min(max, (max * size + kNominalSize - 1) / kNominalSize);
}

// A vector of 0..scaled_bound(max_len, size) elements.
template <class T>
rc::Gen<std::vector<T>> bounded_vector(int max_len, rc::Gen<T> elem) {
  return rc::gen::withSize([=](int size) {
    return rc::gen::resize(scaled_bound(max_len, size),
                           rc::gen::container<std::vector<T>>(rc::gen::resize(size, elem)));
  });
}

// A vector of min_len..max(min_len, scaled bound) elements; shrinks down to min_len.
template <class T>
rc::Gen<std::vector<T>> bounded_vector(int min_len, int max_len, rc::Gen<T> elem) {
  return rc::gen::withSize([=](int size) {
    const int extra = scaled_bound(std::max(0, max_len - min_len), size);
    return rc::gen::map(
        rc::gen::pair(rc::gen::container<std::vector<T>>(static_cast<std::size_t>(min_len), elem),
                      rc::gen::resize(extra, rc::gen::container<std::vector<T>>(rc::gen::resize(size, elem)))),
        [](std::pair<std::vector<T>, std::vector<T>> parts) {
          auto out = std::move(parts.first);
          for (auto& x : parts.second) out.push_back(std::move(x));
          return out;
        });
  });
}

// One of several generators, picked by weight. Unlike rc::gen::weightedOneOf (whose choice
// never shrinks) the choice shrinks towards the first alternative, so list the simplest first.
// An alternative of weight 0 is left out (never drawn, never shrunk to).
template <class T>
rc::Gen<T> weighted_one_of(std::vector<std::pair<std::size_t, rc::Gen<T>>> alternatives) {
  std::vector<std::size_t> weights;
  std::vector<rc::Gen<T>> gens;
  for (auto& [w, g] : alternatives) {
    if (w == 0) continue;
    weights.push_back(w);
    gens.push_back(std::move(g));
  }
  const rc::Gen<std::size_t> index = [weights](const rc::Random& random, int) {
    std::size_t total = 0;
    for (auto w : weights) total += w;
    auto pick = static_cast<std::size_t>(rc::Random(random).next() % total);
    std::size_t i = 0;
    while (pick >= weights[i]) pick -= weights[i++];
    return rc::shrinkable::shrinkRecur(i, [](std::size_t x) { return rc::shrink::towards<std::size_t>(x, 0); });
  };
  return rc::gen::join(rc::gen::map(index, [gens](std::size_t i) { return gens[i]; }));
}

// std::optional from a generator, absent about one time in `absent_weight + present_weight`.
// Shrinks towards absent.
template <class T>
rc::Gen<std::optional<T>> optional_of(rc::Gen<T> g, std::size_t absent_weight = 1, std::size_t present_weight = 1) {
  return weighted_one_of<std::optional<T>>(
      {{absent_weight, rc::gen::just(std::optional<T>{})},
       {present_weight, rc::gen::map(std::move(g), [](T v) { return std::optional<T>(std::move(v)); })}});
}

}  // namespace syncbisim::generators
