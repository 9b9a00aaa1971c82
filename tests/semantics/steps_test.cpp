// semantics::Steps (semantics/steps.h): a range trip's choices are one run, counted, indexed and
// iterated without being listed (issue 18: 2^32 choices must never be built one by one).
#include <doctest/doctest.h>

#include <vector>

#include "semantics/steps.h"

using namespace syncbisim::semantics;

TEST_CASE("steps: a range of 2^32 choices is one run, its size and its last step exact") {
  Steps s;
  s.push_back(Step{StepKind::Issue, 0, 7, 0});
  s.push_choices(1, 3, 0, UINT32_MAX);
  s.push_back(Step{StepKind::Retire, 1, 2, 0});
  CHECK(s.runs().size() == 3);
  CHECK(s.size() == (std::uint64_t{1} << 32) + 2);
  CHECK(s[0] == Step{StepKind::Issue, 0, 7, 0});
  CHECK(s[1] == Step{StepKind::Choose, 1, 0, 3});
  CHECK(s[std::uint64_t{1} << 32] == Step{StepKind::Choose, 1, UINT32_MAX, 3});
  CHECK(s[(std::uint64_t{1} << 32) + 1] == Step{StepKind::Retire, 1, 2, 0});
  CHECK(s.contains(Step{StepKind::Choose, 1, 123456789, 3}));
  CHECK_FALSE(s.contains(Step{StepKind::Choose, 1, 5, 4}));
  CHECK(s.index_of(&s.runs()[2].first) == (std::uint64_t{1} << 32) + 1);
}

TEST_CASE("steps: iteration gives every step in order, ranges expanded") {
  Steps s;
  s.push_choices(0, 1, 5, 7);
  s.push_back(Step{StepKind::Issue, 1, 2, 0});
  s.push_choices(1, 2, 9, 9);
  std::vector<Step> seen;
  for (const Step st : s) seen.push_back(st);
  const std::vector<Step> want{{StepKind::Choose, 0, 5, 1},
                               {StepKind::Choose, 0, 6, 1},
                               {StepKind::Choose, 0, 7, 1},
                               {StepKind::Issue, 1, 2, 0},
                               {StepKind::Choose, 1, 9, 2}};
  CHECK(seen == want);
  std::vector<Step> expanded;
  s.expand_into(expanded);
  CHECK(expanded == want);
  s.erase_if_from(1, [](const Step& st) { return st.kind != StepKind::Choose; });
  CHECK(s.size() == 4);
  CHECK(s[3] == Step{StepKind::Choose, 1, 9, 2});
}
