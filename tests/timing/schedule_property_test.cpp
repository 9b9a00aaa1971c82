// The timing model's schedule is an execution of the impl: replayed in time order through the
// lock-step semantics (semantics/lockstep.h), every issue and retirement it made is a step the
// impl may take there, for random allocatable programs allocated by every strategy. A simulator
// that issued before a wait held, or retired out of order, fails this.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "allocator/allocate.h"
#include "generators/spec_gen.h"
#include "semantics/lockstep.h"
#include "support/constant_trips.h"
#include "support/rapidcheck_doctest.h"
#include "timing/simulate.h"

using namespace syncbisim;

namespace {

struct Event {
  std::uint64_t time;
  int order;  // retirements before issues at one time: a wait a retirement satisfies holds at once
  std::size_t seq;
  semantics::Step step;
};

// Replays the simulation; returns "" or what went wrong.
std::string replay(const model::Program& spec, const model::ProgramIndex& six, const model::Program& impl,
                   const model::ProgramIndex& iix, const timing::Simulation& sim) {
  const auto sc = semantics::compile(spec, six);
  const auto ic = semantics::compile(impl, iix, &six);
  const semantics::SpecSystem ss(sc);
  const semantics::ImplSystem is(ic);
  const semantics::Lockstep both(ss, is);
  std::vector<Event> ev;
  for (std::size_t i = 0; i < sim.instances.size(); ++i) {
    const auto& in = sim.instances[i];
    ev.push_back({in.issue, 1, i, {semantics::StepKind::Issue, in.engine, in.instr, 0}});
    ev.push_back({in.retire, 0, i, {semantics::StepKind::Retire, in.engine, in.instr, 0}});
  }
  std::sort(ev.begin(), ev.end(), [](const Event& a, const Event& b) {
    return std::tie(a.time, a.order, a.seq) < std::tie(b.time, b.order, b.seq);
  });
  auto s = both.initial();
  std::vector<semantics::Step> steps;
  for (const auto& e : ev) {
    steps.clear();
    both.visible(s, steps);
    const auto it = std::find_if(steps.begin(), steps.end(), [&](const semantics::Step& st) {
      return st.kind == e.step.kind && st.engine == e.step.engine && st.arg == e.step.arg;
    });
    if (it == steps.end())
      return std::string(e.order ? "issue" : "retire") + " of " + sc.instrs[e.step.arg].name + " on " +
             sc.engines[e.step.engine] + " at " + std::to_string(e.time) + " is not a step of the impl there";
    both.apply(s, *it);
  }
  if (!both.finished(s)) return "the replay does not finish the program";
  return "";
}

}  // namespace

TEST_CASE("timing: the simulated schedule is an execution of the impl (property)") {
  test::rc_check(
      "simulated schedules replay in the lock-step semantics",
      [] {
        generators::SpecGenOptions opt{
            .max_engines = 3, .max_depth = 2, .deps = {.allocatable_only = true, .acyclic = true}, .divergent = false};
        auto spec = *generators::gen_spec(opt);
        test::make_constant(spec.body, 3);
        auto six = model::ProgramIndex::build(spec);
        RC_ASSERT(six.ok());
        for (auto strategy : allocator::all_strategies()) {
          auto a = allocator::allocate(spec, *six, {strategy, false, strategy != allocator::Strategy::Barrier});
          RC_ASSERT(a.ok());
          auto iix = model::ProgramIndex::build(a->impl);
          RC_ASSERT(iix.ok());
          auto sim = timing::simulate_pair(spec, *six, a->impl, *iix, timing::default_cost_table(), {}, {true});
          RC_ASSERT(sim.ok());
          RC_ASSERT(!sim->deadlock);
          const auto why = replay(spec, *six, a->impl, *iix, *sim);
          RC_LOG() << why << "\n";
          RC_ASSERT(why.empty());
        }
      },
      100);
}
