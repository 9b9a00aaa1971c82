// InlineVec against std::vector: random sequences of every operation the semantics uses, with an
// inline capacity of 3 so that sequences cross between the inline buffer and the heap often.
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "semantics/inline_vec.h"
#include "semantics/small_vec.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using semantics::InlineVec;

namespace {

using Vec = InlineVec<std::uint32_t, 3>;

bool same(const Vec& v, const std::vector<std::uint32_t>& model) {
  return v.size() == model.size() && std::equal(v.begin(), v.end(), model.begin()) &&
         (v.empty() || (v.front() == model.front() && v.back() == model.back()));
}

}  // namespace

TEST_CASE("InlineVec keeps the elements it is given, inline and on the heap") {
  Vec v;
  CHECK(v.empty());
  for (std::uint32_t i = 0; i < 10; ++i) v.push_back(i);
  CHECK(v.size() == 10);
  CHECK(v.capacity() >= 10);
  CHECK(v[9] == 9);
  Vec copy = v;
  v.erase(v.begin(), v.begin() + 8);
  CHECK(v.size() == 2);
  CHECK(v[0] == 8);
  CHECK(copy.size() == 10);  // the copy owns its own block
  CHECK(copy[0] == 0);
  Vec moved = std::move(copy);
  CHECK(moved.size() == 10);
  CHECK(moved[5] == 5);
  Vec small{7, 8};
  moved = small;  // a heap vector takes a short one
  CHECK(moved == small);
  CHECK(!(moved == v));
}

TEST_CASE("SmallVec is InlineVec for plain values and Boost's small_vector otherwise") {
  CHECK(std::is_same_v<semantics::SmallVec<std::uint32_t, 4>, InlineVec<std::uint32_t, 4>>);
  CHECK(
      !std::is_same_v<semantics::SmallVec<InlineVec<std::uint32_t, 2>, 4>, InlineVec<InlineVec<std::uint32_t, 2>, 4>>);
}

TEST_CASE("InlineVec behaves as std::vector under random operations") {
  test::rc_check(
      "InlineVec == std::vector",
      [] {
        Vec v, other;
        std::vector<std::uint32_t> model, other_model;
        const auto ops = *rc::gen::container<std::vector<std::pair<int, std::uint32_t>>>(
            rc::gen::pair(rc::gen::inRange(0, 12), rc::gen::inRange<std::uint32_t>(0, 9)));
        for (const auto& [op, x] : ops) {
          // Each operation on the vector and its copy `other`, the same on the two models.
          auto on_both = [&](auto f) {
            f(v, other);
            f(model, other_model);
          };
          const bool empty = model.empty();
          switch (op) {
            case 0: on_both([&](auto& c, auto&) { c.push_back(x); }); break;
            case 1: on_both([&](auto& c, auto&) { c.resize(x); }); break;
            case 2: on_both([&](auto& c, auto&) { c.assign(x, x + 1); }); break;
            case 3:
              if (!empty) on_both([](auto& c, auto&) { c.pop_back(); });
              break;
            case 4: {  // erase a range
              const auto first = static_cast<std::ptrdiff_t>(std::min<std::size_t>(x, model.size()));
              const auto last = static_cast<std::ptrdiff_t>(
                  std::min<std::size_t>(static_cast<std::size_t>(first) + x % 3, model.size()));
              on_both([&](auto& c, auto&) { c.erase(c.begin() + first, c.begin() + last); });
              break;
            }
            case 5: on_both([&](auto& c, auto&) { c.resize(x, x + 7); }); break;
            case 6: on_both([](auto& c, auto& o) { o = c; }); break;
            case 7: on_both([](auto& c, auto& o) { c = o; }); break;
            case 8: on_both([](auto& c, auto& o) { std::swap(c, o); }); break;
            case 9:
              on_both([](auto& c, auto& o) {
                c = std::move(o);
                o = std::decay_t<decltype(o)>{};
              });
              break;
            case 10: {
              const std::vector<std::uint32_t> src(x, x * 2);
              on_both([&](auto& c, auto&) { c.assign(src.begin(), src.end()); });
              break;
            }
            default:
              if (!empty) on_both([](auto& c, auto&) { c.push_back(c.back()); });  // an element of the vector itself
          }
          RC_ASSERT(same(v, model));
          RC_ASSERT(same(other, other_model));
          RC_ASSERT((v == other) == (model == other_model));
        }
      },
      500);
}
