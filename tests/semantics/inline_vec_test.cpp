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
          switch (op) {
            case 0:
              v.push_back(x);
              model.push_back(x);
              break;
            case 1:
              v.resize(x);
              model.resize(x);
              break;
            case 2:
              v.assign(x, x + 1);
              model.assign(x, x + 1);
              break;
            case 3:
              if (!model.empty()) {
                v.pop_back();
                model.pop_back();
              }
              break;
            case 4: {  // erase a range
              const auto a = std::min<std::size_t>(x, model.size());
              const auto b = std::min<std::size_t>(a + x % 3, model.size());
              v.erase(v.begin() + a, v.begin() + b);
              model.erase(model.begin() + static_cast<std::ptrdiff_t>(a),
                          model.begin() + static_cast<std::ptrdiff_t>(b));
              break;
            }
            case 5:
              v.resize(x, x + 7);
              model.resize(x, x + 7);
              break;
            case 6:
              other = v;
              other_model = model;
              break;
            case 7:
              v = other;
              model = other_model;
              break;
            case 8:
              std::swap(v, other);
              std::swap(model, other_model);
              break;
            case 9:
              v = std::move(other);
              model = std::move(other_model);
              other = Vec{};
              other_model.clear();
              break;
            case 10: {
              const std::vector<std::uint32_t> src(x, x * 2);
              v.assign(src.begin(), src.end());
              model.assign(src.begin(), src.end());
              break;
            }
            default:
              if (!model.empty()) {
                v.push_back(v.back());  // an element of the vector itself
                model.push_back(model.back());
              }
          }
          RC_ASSERT(same(v, model));
          RC_ASSERT(same(other, other_model));
          RC_ASSERT((v == other) == (model == other_model));
        }
      },
      500);
}
