// The timing model on the paper's figures, with makespans computed by hand under a simple cost
// table (docs/timing.md): every instruction holds its pipeline 1 cycle and retires 2 cycles after
// its issue; a handshake and the reset cost 1 cycle each, so a barrier releases 3 cycles after the
// last engine has drained.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "allocator/allocate.h"
#include "formats/load.h"
#include "support/test_files.h"
#include "timing/range_makespans.h"
#include "timing/simulate.h"
#include "timing/svg.h"
#include "timing/timeline.h"

using namespace syncbisim;

namespace {

timing::CostTable unit_costs(std::uint32_t alu_op = 0, std::uint32_t branch = 0) {
  timing::CostTable t;
  t.clock_ghz = 1.0;
  t.engine_classes = {{"*", "generic"}};
  t.ops["*"]["*"] = timing::OpCost{1, 0, 0, 1, 0};
  t.sequencer = timing::SequencerCost{0, alu_op, branch};
  t.barrier = timing::BarrierCost{1, 1};
  return t;
}

formats::LoadedProgram load(const std::string& rel) {
  auto r = formats::load_program_file((test::source_dir() / rel).string());
  REQUIRE_MESSAGE(r.ok(), r.error().to_string());
  return std::move(*r);
}

formats::LoadedProgram parse(const std::string& text) {
  auto r = formats::load_program_text(text, "test");
  REQUIRE_MESSAGE(r.ok(), r.error().to_string());
  return std::move(*r);
}

timing::Simulation run(const formats::LoadedProgram& spec, const formats::LoadedProgram& impl,
                       const timing::CostTable& t, const std::map<std::string, std::uint32_t>& trips = {},
                       bool record = false) {
  auto s = timing::simulate_pair(spec.program, spec.index, impl.program, impl.index, t, trips, {record});
  REQUIRE_MESSAGE(s.ok(), s.error().to_string());
  // every engine's time adds up to the makespan
  for (const auto& e : s->engines) CHECK(e.busy + e.stalled + e.barrier + e.idle == s->makespan);
  return std::move(*s);
}

formats::LoadedProgram allocated(const formats::LoadedProgram& spec, allocator::Strategy st) {
  auto a = allocator::allocate(spec.program, spec.index, {st, false});
  REQUIRE(a.ok());
  auto ix = model::ProgramIndex::build(a->impl);
  REQUIRE(ix.ok());
  return {std::move(a->impl), std::move(*ix)};
}

// A paper figure (corpus/figures) with an impl of tests/inputs/timing under unit costs: the makespan,
// and where given the barriers and E1's stalled and busy cycles.
struct Want {
  std::uint64_t makespan = 0;
  std::optional<std::uint64_t> barriers, e1_stalled, e1_busy;
};
void check_figure(const std::string& figure, const std::string& impl, const Want& w) {
  const auto s = run(load("corpus/figures/" + figure), load("tests/inputs/timing/" + impl), unit_costs());
  CHECK(s.makespan == w.makespan);
  if (w.barriers) CHECK(s.barriers == *w.barriers);
  if (w.e1_stalled) CHECK(s.engines[1].stalled == *w.e1_stalled);
  if (w.e1_busy) CHECK(s.engines[1].busy == *w.e1_busy);
}

}  // namespace

TEST_CASE("timing: Figure 1, barrier-free: 6 cycles, the third I2 waiting for the first I3") {
  const auto spec = load("corpus/figures/fig1_motivating.json");
  const auto s = run(spec, allocated(spec, allocator::Strategy::PerLoop), unit_costs(), {}, true);
  // E1: I1 at 0, I3 at 1, 2, 3 (the first retires at 3). E2: I2 at 0 and 1 owe nothing (offset 2),
  // the third waits for I3#1: issue 3, retire 5; I4 at 4, retires at 6.
  CHECK(s.makespan == 6);
  CHECK_FALSE(s.deadlock);
  REQUIRE(s.stalls.size() == 1);
  CHECK(s.stalls[0].total == 1);  // ready at 2, issued at 3
  // the stall's cause is the first I3
  const timing::Instance* third = nullptr;
  for (const auto& in : s.instances)
    if (in.instr == *spec.index.instr("I2") && in.iters.size() == 1 && in.iters[0].second == 3) third = &in;
  REQUIRE(third != nullptr);
  CHECK(third->issue == 3);
  REQUIRE(third->cause >= 0);
  const auto& cause = s.instances[static_cast<std::size_t>(third->cause)];
  CHECK(cause.instr == *spec.index.instr("I3"));
  CHECK(cause.iters[0].second == 1);
  CHECK(cause.retire == 3);
}

TEST_CASE("timing: Figure 1, barriers: 22 cycles, four barriers") {
  const auto spec = load("corpus/figures/fig1_motivating.json");
  const auto s = run(spec, allocated(spec, allocator::Strategy::Barrier), unit_costs(), {}, true);
  // Before the loop: I0, I1 at 0, drained at 2, release 5. Each iteration: I2, I3 at R, drained
  // at R + 2, release R + 5: 10, 15, 20. Then I4, I5 at 20, retired at 22.
  CHECK(s.makespan == 22);
  CHECK(s.barriers == 4);
  REQUIRE(s.barrier_events.size() == 4);
  CHECK(s.barrier_events[0].release == 5);
  CHECK(s.barrier_events[3].release == 20);
  // E0 waits at barriers through the whole loop: from its pipeline's end at 1 to 5, then 5
  // cycles in each iteration
  CHECK(s.engines[0].barrier == 19);
}

TEST_CASE("timing: Figure 3, straight-line code: I2 waits s0 >= 2") {
  // I0 at 0, I1 at 1 (retires at 3: s0 = 2); I2 at 3, I3 at 4 (retires at 6).
  check_figure("fig3_straight_line.json", "fig3.impl.sb", {.makespan = 6, .e1_stalled = 3, .e1_busy = 2});
}

TEST_CASE("timing: Figure 4, a barrier at every iteration boundary: 29 cycles") {
  // Release 5 after I0. An iteration released at R: I1 at R, I2 at R + 1 (s0 = 2 at R + 3, the
  // reset having cleared it), I3 at R + 3, retired at R + 5, release R + 8: 13, 21, 29; E1 stalls
  // 3 cycles per iteration.
  check_figure("fig4_same_iteration.json", "fig4_barriers.impl.sb", {.makespan = 29, .barriers = 4, .e1_stalled = 9});
}

TEST_CASE("timing: Figures 7 and 8, with register operations and branches costing a cycle each") {
  const auto spec = load("corpus/figures/fig7_fig8.json");
  const auto t = unit_costs(1, 1);
  // E1 per iteration: branch, two counters, the wait value (Figure 7: 2 operators, Figure 8: 3),
  // then I2 as soon as its semaphore allows; E0's I1 of iteration i retires at 7, 11, 15.
  // Figure 7: I2 at 7, 12, 17, the last retires at 19.
  CHECK(run(spec, load("corpus/figures/fig7_per_instruction.impl.json"), t).makespan == 19);
  // Figure 8: the decode costs one more operator: I2 at 7, 13, 19, retired at 21.
  CHECK(run(spec, load("corpus/figures/fig8_per_loop.impl.json"), t).makespan == 21);
}

TEST_CASE("timing: a deadlocked impl is reported with who waits for what") {
  const auto spec = load("corpus/figures/fig7_fig8.json");
  const auto s = run(spec, load("corpus/bugs/fig7_missing_signal.sb"), unit_costs());
  CHECK(s.deadlock);
  CHECK(s.deadlock_detail.find("E1 waits before I2") != std::string::npos);
  CHECK(s.deadlock_detail.find("sI1 = 0 < 1") != std::string::npos);
}

TEST_CASE("timing: trips come from --trips, else sim_trip, else the rule") {
  const auto spec = load("tests/inputs/timing/trip_sources.spec.sb");
  const auto impl = load("tests/inputs/timing/trip_sources.impl.sb");
  // A: the range's largest, 4; B: its first trip, 2; C: sim_trip 7; D: then (any allows it).
  auto s = run(spec, impl, unit_costs());
  CHECK(s.instrs_issued == 4 + 2 + 7 + 1);
  s = run(spec, impl, unit_costs(), {{"A", 1}, {"C", 2}, {"D", 1}});
  CHECK(s.instrs_issued == 1 + 2 + 2 + 1);
  auto bad = timing::simulate_pair(spec.program, spec.index, impl.program, impl.index, unit_costs(), {{"Z", 1}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().rule == "bad-trips");
}

TEST_CASE("timing: transfers from different DMA queues share the DMA engines") {
  const auto spec = parse(R"(syncbisim spec/1
engines Q0 Q1
Q0: a@{"op":"dma_load","size":1000}
Q1: b@{"op":"dma_load","size":1000}
)");
  const auto impl = parse("syncbisim impl/1\nengines Q0 Q1\nQ0: a\nQ1: b\n");
  auto t = unit_costs();
  t.ops["dma*"]["*"] = timing::OpCost{0, 0.01, 0, 5, 0, true};  // 10 cycles held, retire 5 later
  auto s = run(spec, impl, t);
  CHECK(s.makespan == 25);  // b waits for a's 10 cycles: 10 + 10 + 5
  t.ops["dma*"]["*"].shared_dma = false;
  s = run(spec, impl, t);
  CHECK(s.makespan == 15);
}

TEST_CASE("timing: a run longer than max_steps stops there, says so and tells no deadlock") {
  const auto spec = load("tests/inputs/limits/no_instr_loop.spec.sb");
  const auto impl = load("tests/inputs/limits/no_instr_loop.impl.sb");
  timing::SimOptions o;
  o.max_steps = 10000;
  // Trips of 30 and 20: about 1,800 steps and events, within the limit.
  auto whole = timing::simulate_pair(spec.program, spec.index, impl.program, impl.index, unit_costs(),
                                     {{"A", 30}, {"B", 20}}, o);
  REQUIRE(whole.ok());
  CHECK(whole->limit.empty());
  CHECK_FALSE(whole->deadlock);
  CHECK(whole->instrs_issued == 30 + 30 * 20);
  // The range's largest trips (2^32-1 each): stopped at the limit.
  auto cut = timing::simulate_pair(spec.program, spec.index, impl.program, impl.index, unit_costs(), {}, o);
  REQUIRE(cut.ok());
  CHECK(cut->limit == "steps 10000 (the timing model at these trips; --trips sets smaller ones)");
  CHECK_FALSE(cut->deadlock);
  CHECK(cut->instrs_issued < 10000);
}

TEST_CASE("timing: a range left open is simulated at its smallest, median and largest values") {
  const auto spec = load("tests/inputs/timing/trip_sources.spec.sb");
  const auto impl = load("tests/inputs/timing/trip_sources.impl.sb");
  const auto table = unit_costs();
  // The run simulate makes by default: the range at its largest value.
  auto whole = timing::simulate_pair(spec.program, spec.index, impl.program, impl.index, table, {});
  REQUIRE(whole.ok());
  auto r = timing::range_makespans(spec.program, spec.index, impl.program, impl.index, table, {}, *whole);
  REQUIRE(r.ok());
  REQUIRE(r->size() == 3);
  // A 1..4 is the one range left open: B is a sequence, C has a sim_trip, D is a cond.
  CHECK((*r)[0].trips == std::map<std::string, std::uint32_t>{{"A", 1}});
  CHECK((*r)[1].trips == std::map<std::string, std::uint32_t>{{"A", 2}});
  CHECK((*r)[2].trips == std::map<std::string, std::uint32_t>{{"A", 4}});
  CHECK((*r)[2].makespan == whole->makespan);
  // The smallest and the median are runs of their own: more iterations of A take longer.
  auto at2 = timing::simulate_pair(spec.program, spec.index, impl.program, impl.index, table, {{"A", 2}});
  REQUIRE(at2.ok());
  CHECK((*r)[1].makespan == at2->makespan);
  CHECK((*r)[0].makespan < (*r)[1].makespan);
  CHECK((*r)[1].makespan < (*r)[2].makespan);
  // A count given for A leaves no range open.
  auto given = timing::range_makespans(spec.program, spec.index, impl.program, impl.index, table, {{"A", 2}}, *at2);
  REQUIRE(given.ok());
  CHECK(given->empty());
  // A largest run cut at the step limit: the median would be cut too, and is not run.
  auto cut = *whole;
  cut.limit = "steps 1";
  auto without = timing::range_makespans(spec.program, spec.index, impl.program, impl.index, table, {}, cut);
  REQUIRE(without.ok());
  REQUIRE(without->size() == 2);
  CHECK((*without)[0].at == "smallest");
  CHECK((*without)[1].at == "largest");
  CHECK((*without)[1].limit == "steps 1");
}

TEST_CASE("timing: hundreds of boxes in flight together get thin rows, never a negative height") {
  timing::Timeline t;
  t.title = "many";
  t.lanes = {"E0"};
  t.t0 = 0;
  t.t1 = 400;
  for (int i = 0; i < 300; ++i) t.boxes.push_back(timing::TimelineBox{0, double(i), 400, 0, "I", "", "I", false, false});
  const auto svg = timing::render_svg(t);
  CHECK(svg.find("height=\"-") == std::string::npos);
  CHECK(svg.find("<rect") != std::string::npos);
}
