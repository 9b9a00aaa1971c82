// allocate's threads (Options::jobs: each engine's register liveness, the expert's statements
// judged at once) change nothing in the allocation.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "allocator/allocate.h"
#include "formats/text_format.h"
#include "support/programs.h"

using namespace syncbisim;

TEST_CASE("allocate: the same allocation on one thread and on several") {
  const auto spec = test::load_text(test::nest_chain_spec(40));  // 40 producer pairs: judged per statement
  for (const auto strategy : {allocator::Strategy::PerLoop, allocator::Strategy::Expert}) {
    allocator::Options o;
    o.strategy = strategy;
    o.reuse = allocator::Reuse::Always;
    // A judge that is safe to call at once and decides differently from statement to statement.
    o.judge = [](const model::Program& s, const model::ProgramIndex&, const model::Program& impl)
        -> std::optional<std::uint64_t> {
      return std::hash<std::string>{}(formats::write_text(s) + formats::write_text(impl)) % 3;
    };
    o.jobs = 1;
    const auto one = allocator::allocate(spec.program, spec.index, o);
    REQUIRE(one.ok());
    o.jobs = 3;
    const auto three = allocator::allocate(spec.program, spec.index, o);
    REQUIRE(three.ok());
    CHECK(formats::write_text(one->impl) == formats::write_text(three->impl));
    CHECK(one->notes == three->notes);
    CHECK(one->decisions.size() == three->decisions.size());
    if (strategy == allocator::Strategy::Expert) {
      bool per_statement = false;
      for (const auto& n : one->notes) per_statement = per_statement || n.find("a top-level statement at a time") != std::string::npos;
      CHECK(per_statement);
    }
  }
}
