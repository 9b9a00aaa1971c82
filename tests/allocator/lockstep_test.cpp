// Every strategy's output against the spec in random lock-step runs (semantics::Lockstep):
// the barrier-free strategies must be exact wherever their decisions say so (every allocatable
// program, and beyond paper §5.2 the extended closed forms), the barrier baseline may
// over-synchronize, and nothing may ever under-synchronize.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "analysis/correspondence.h"
#include "analysis/dependency_analysis.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "semantics/lockstep.h"
#include "support/programs.h"
#include "support/test_files.h"

using namespace syncbisim;
using allocator::Strategy;

namespace {

struct Outcome {
  bool under = false, over = false, deadlock = false, finished = false;
  std::string what;
};

// A random walk over the visible steps that, unlike semantics::run_lockstep, goes on after an
// over-synchronization (both sides only issue where both may), so later under-synchronization
// still shows.
Outcome walk(const semantics::Lockstep& both, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto s = both.initial();
  Outcome o;
  std::vector<semantics::Step> steps;
  for (int n = 0; n < 20000; ++n) {
    for (const auto& m : both.mismatches(s)) {
      if (m.undecided) continue;  // the spec's walk past a barrier was cut: no verdict
      const auto& name = both.spec().program().instrs[m.instr].name;
      if (m.impl_can) {
        o.under = true;
        o.what = "under-synchronization at " + name;
        return o;
      }
      o.over = true;
      if (o.what.empty()) o.what = "over-synchronization at " + name;
    }
    steps.clear();
    both.visible(s, steps);
    if (steps.empty()) {
      o.finished = both.finished(s);
      o.deadlock = !o.finished;
      return o;
    }
    both.apply(s, steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(rng)]);
  }
  return o;
}

struct Case {
  std::string name;
  formats::LoadedProgram spec;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto& p : test::files_in("corpus/figures", ".json")) {
    if (p.string().find(".impl.") != std::string::npos) continue;
    auto r = formats::load_program_file(p.string());
    REQUIRE(r.ok());
    out.push_back({p.filename().string(), std::move(*r)});
  }
  // The decode's hard cases, conds, the fallback next to allocatable dependencies (each file says).
  const auto files = test::files_in("tests/inputs/allocator/lockstep", ".sb");
  REQUIRE(files.size() >= 3);
  for (const auto& p : files) {
    const auto rel = std::filesystem::relative(p, test::source_dir()).string();
    out.push_back({p.stem().string(), test::load_source(rel)});
  }
  return out;
}

// Divergent control (paper §7.5): engines may count iterations differently, so no closed form
// is exact and the spec itself may deadlock; only safety is checked there.
bool divergent(const formats::LoadedProgram& spec) {
  for (const auto& l : spec.index.loops)
    if (l.trip && l.trip->divergent) return true;
  return false;
}

bool all_allocatable(const formats::LoadedProgram& spec) {
  for (const auto& d : analysis::analyze_dependencies(spec.program, spec.index).deps)
    if (!d.allocatable()) return false;
  return true;
}

}  // namespace

TEST_CASE("every strategy: valid, corresponding impls, exact where the paper says so, never unsafe") {
  for (const auto& c : cases()) {
    const bool allocatable = all_allocatable(c.spec) && !divergent(c.spec);
    for (auto strategy : allocator::all_strategies())
      for (bool prune : {false, true}) {
        const std::string label = c.name + " / " + allocator::to_string(strategy) + (prune ? " / pruned" : "");
        INFO(label);
        auto a = allocator::allocate(c.spec.program, c.spec.index, {strategy, prune});
        REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().to_string()));
        INFO(formats::write_text(a->impl));
        for (const auto& d : a->decisions) INFO(d.to_string());
        // the impl reads back from its own text and corresponds to the spec
        auto back = formats::load_program_text(formats::write_text(a->impl), "impl");
        REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().to_string()));
        CHECK(analysis::check_correspondence(c.spec.program, c.spec.index, back->program, back->index).ok());
        const auto spec_code = semantics::compile(c.spec.program, c.spec.index);
        const auto impl_code = semantics::compile(back->program, back->index, &c.spec.index);
        const semantics::SpecSystem ss(spec_code);
        const semantics::ImplSystem is(impl_code);
        const semantics::Lockstep both(ss, is);
        // Beyond paper §5.2 the extended closed forms are exact too, wherever a decision says so.
        bool exact = !divergent(c.spec) && strategy != Strategy::Barrier;
        for (const auto& d : a->decisions) exact = exact && d.exact;
        CHECK((!allocatable || divergent(c.spec) || strategy == Strategy::Barrier || exact));
        for (std::uint64_t seed = 1; seed <= 30; ++seed) {
          const auto o = walk(both, seed);
          const std::string seen = "seed " + std::to_string(seed) + ": " + o.what + (o.deadlock ? " deadlock" : "") +
                                   (o.finished ? " finished" : "");
          INFO(seen);
          CHECK_FALSE(o.under);
          if (exact) {
            CHECK_FALSE(o.over);
            CHECK(o.finished);
          }
        }
      }
  }
}
