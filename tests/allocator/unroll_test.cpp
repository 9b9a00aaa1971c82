// Unrolling a constant-trip loop (analysis/unroll.h): the renamed copies, the dependencies
// rewritten exactly, the refusals; and, as a property, the unrolled spec owes exactly what the
// original owes: run side by side under random schedules, every engine's next instruction is the
// same instance and may issue on one side exactly when it may on the other.
#include <doctest/doctest.h>

#include <deque>
#include <random>
#include <string>

#include "allocator/allocate.h"
#include "analysis/unroll.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "generators/spec_gen.h"
#include "semantics/spec_system.h"
#include "support/constant_trips.h"
#include "support/programs.h"
#include "support/rapidcheck_doctest.h"
#include "support/test_files.h"

using namespace syncbisim;
using semantics::StepKind;

namespace {

// A spec of tests/inputs/allocator/unroll: its text, and loaded.
std::string unroll_text(const std::string& name) {
  return test::read_text(test::source_dir() / "tests/inputs/allocator/unroll" / name);
}
formats::LoadedProgram unroll_input(const std::string& name) { return test::load_text(unroll_text(name), name); }

// Corpus specs and a loop of each to unroll: whether the allocation of the unrolled spec (trips as
// the file has them) is checked bisimilar to it, whether the spec with trips made constant 3 runs
// side by side with its unrolled copy.
struct Cut {
  const char* file;
  const char* loop;
  bool allocated, side_by_side;
};
const Cut kCuts[] = {
    {"corpus/figures/fig1_motivating.json", "A", true, true},
    {"corpus/figures/fig7_fig8.json", "A", true, false},
    {"corpus/figures/fig6_nested_forward.json", "A", false, true},
    {"corpus/figures/fig6_nested_backward.json", "A", false, true},
    {"corpus/figures/fig6_nested_backward.json", "B", false, true},
    {"corpus/kernels/tiled_matmul.json", "k", true, true},
    {"corpus/kernels/tiled_matmul.json", "n", false, true},
    {"corpus/kernels/rmsnorm.json", "col", true, false},
    {"corpus/kernels/add_many_loop.json", "iter", true, false},
    {"corpus/kernels/flash_attention.json", "group", false, true},
    {"corpus/kernels/flash_attention.json", "section", false, true},
};

model::Program unrolled(const formats::LoadedProgram& p, std::vector<std::string> loops) {
  auto u = analysis::unroll(p.program, p.index, loops);
  REQUIRE_MESSAGE(u.ok(), u.error().to_string());
  return std::move(*u);
}

std::string deps_text(const model::Program& p) {
  std::string out;
  for (const auto& d : p.deps) {
    out += d.producer + "->" + d.consumer;
    for (const auto& [l, k] : d.distance) out += " " + l + "=" + std::to_string(k);
    out += "; ";
  }
  return out;
}

// Runs the original and the unrolled spec side by side along one random schedule of the
// original. Returns "" or the first difference.
std::string side_by_side(const model::Program& orig, const model::Program& unr, const std::string& loop,
                         std::uint64_t seed) {
  auto oix = model::ProgramIndex::build(orig);
  auto uix = model::ProgramIndex::build(unr);
  if (!oix || !uix) return "does not index";
  const auto oc = semantics::compile(orig, *oix);
  const auto uc = semantics::compile(unr, *uix);
  const semantics::SpecSystem os(oc), us(uc);
  const auto lid = *oix->loop(loop);
  auto o = os.initial();
  auto u = us.initial();
  std::vector<std::deque<std::string>> inflight(oc.engine_count());  // unrolled names, issue order
  std::mt19937_64 rng(seed);
  std::vector<semantics::Step> steps;
  auto settle = [&](const semantics::SpecSystem& sys, semantics::SpecState& s) {
    for (bool moved = true; moved;) {
      moved = false;
      for (semantics::EngineId e = 0; e < sys.program().engine_count(); ++e) {
        steps = semantics::expanded(sys, s, e);
        for (const auto& st : steps)
          if (!semantics::is_visible(st.kind)) {
            sys.apply(s, st);
            moved = true;
            break;
          }
      }
    }
  };
  // the unrolled name of the original's instance engine e stands before
  auto mapped = [&](semantics::EngineId e, semantics::InstrId id) {
    const auto& name = oc.instrs[id].name;
    if (!oix->encloses(lid, oc.instrs[id].parent)) return name;
    return analysis::unrolled_name(name, loop, o.control.engines[e].frames[lid].iter);
  };
  for (int n = 0; n < 5000; ++n) {
    settle(os, o);
    settle(us, u);
    for (semantics::EngineId e = 0; e < oc.engine_count(); ++e) {
      const auto& oop = os.control().next_op(o.control, e);
      const auto& uop = us.control().next_op(u.control, e);
      if ((oop.kind == semantics::OpKind::Instr) != (uop.kind == semantics::OpKind::Instr))
        return "engine " + oc.engines[e] + ": one side stands before an instruction, the other not";
      if (oop.kind != semantics::OpKind::Instr) continue;
      const auto want = mapped(e, oop.a);
      if (uc.instrs[uop.a].name != want)
        return "engine " + oc.engines[e] + ": " + want + " against " + uc.instrs[uop.a].name;
      if (os.can_issue(o, e) != us.can_issue(u, e))
        return "engine " + oc.engines[e] + " before " + want + ": the original " +
               (os.can_issue(o, e) ? "may" : "may not") + " issue, the unrolled spec " +
               (us.can_issue(u, e) ? "may" : "may not");
    }
    steps = semantics::expanded(os, o);
    if (steps.empty()) return os.all_finished(o) == us.all_finished(u) ? "" : "one side finished, the other not";
    const auto st = steps[rng() % steps.size()];
    semantics::Step ust = st;
    if (st.kind == StepKind::Issue) {
      const auto name = mapped(st.engine, st.arg);
      ust.arg = *uix->instr(name);
      inflight[st.engine].push_back(name);
    } else if (st.kind == StepKind::Retire) {
      ust.arg = *uix->instr(inflight[st.engine].front());
      inflight[st.engine].pop_front();
    } else {
      return "unexpected step " + semantics::describe(oc, st);
    }
    const auto uen = semantics::expanded(us, u, st.engine);
    if (std::find(uen.begin(), uen.end(), ust) == uen.end())
      return "the unrolled spec cannot take " + semantics::describe(uc, ust);
    os.apply(o, st);
    us.apply(u, ust);
  }
  return "";
}

}  // namespace

TEST_CASE("unroll: Figure 1: three copies, and I2 of the third waits for I3 of the first") {
  const auto p = test::load_source("corpus/figures/fig1_motivating.json");
  const auto u = unrolled(p, {"A"});
  // One region, the copies in program order (docs/footprints.md "Program order").
  CHECK(formats::write_text(u) == R"(syncbisim spec/1
engines E0 E1 E2
E0: I0
E1: I1
E2: I2.A.1
E1: I3.A.1
E2: I2.A.2
E1: I3.A.2
E2: I2.A.3
E1: I3.A.3
E2: I4
E0: I5
dep I3.A.1 -> I2.A.3
)");
}

TEST_CASE("unroll: a producer in the loop and its consumer after it: one dependency per copy") {
  const auto p = unroll_input("after_loop.sb");
  // B first (innermost), then A: P's copies are P.B.j.A.k
  const auto u = unrolled(p, {"A", "B"});
  CHECK(deps_text(u) ==
        "P.B.1.A.1->C; P.B.1.A.2->C; P.B.2.A.1->C; P.B.2.A.2->C; P.B.1.A.1->Q.A.1; P.B.1.A.2->Q.A.2; "
        "P.B.2.A.1->Q.A.1; P.B.2.A.2->Q.A.2; Q.A.1->P.B.1.A.2; Q.A.1->P.B.2.A.2; ");
}

TEST_CASE("unroll: loops inside a copy keep their own distances, renamed") {
  const auto p = unroll_input("inner_distance.sb");
  const auto u = unrolled(p, {"A"});
  CHECK(deps_text(u) == "P.A.1->C.A.1 B.A.1=1; P.A.2->C.A.2 B.A.2=1; ");
}

TEST_CASE("unroll: what cannot be unrolled exactly is refused, with a reason") {
  auto refused = [](const std::string& text, const std::string& loop, const std::string& rule) {
    const auto p = test::load_text(text);
    auto u = analysis::unroll(p.program, p.index, {loop});
    REQUIRE_FALSE(u.ok());
    CHECK(u.error().rule == rule);
    return u.error().message;
  };
  refused("syncbisim spec/1\nengines E0\nloop A trip 1..3 {\n  E0: I\n}\n", "A", "unroll-not-constant");
  refused("syncbisim spec/1\nengines E0\nloop A trip 2 {\n  E0: I\n}\n", "Z", "unroll-unknown-loop");
  refused("syncbisim spec/1\nengines E0\nloop A trip 2 {\n  E0: I\n}\nE0: I.A.1\n", "A", "unroll-name-clash");
  // the producer's inner loop may run 0 times: the copy holding the last owed instance is unknown
  const auto why = refused(unroll_text("zero_trip_producer.sb"), "A", "unroll-inexact");
  CHECK(why.find("may run 0 times") != std::string::npos);
  // a distance at the loop and below it
  refused(unroll_text("two_levels.sb"), "A", "unroll-inexact");
}

TEST_CASE("unroll: the allocation of an unrolled kernel is bisimilar to the unrolled spec") {
  for (const auto& cut : kCuts) {
    if (!cut.allocated) continue;
    INFO(cut.file, " ", cut.loop);
    const auto u = unrolled(test::load_source(cut.file), {cut.loop});
    auto uix = model::ProgramIndex::build(u);
    REQUIRE(uix.ok());
    for (auto st : {allocator::Strategy::PerLoop, allocator::Strategy::PerEngine}) {
      auto a = allocator::allocate(u, *uix, {st, false, true});
      REQUIRE(a.ok());
      auto pair = checker::ProgramPair::make(u, a->impl);
      REQUIRE(pair.ok());
      CHECK(checker::check((*pair)->lockstep(), {}).verdict == checker::Verdict::Bisimilar);
    }
  }
}

TEST_CASE("unroll: the unrolled spec owes exactly what the original owes (property)") {
  std::size_t refused = 0, runs = 0;
  test::rc_check(
      "unrolled specs run side by side with their originals",
      [&] {
        generators::SpecGenOptions opt{.max_engines = 3, .max_depth = 3, .divergent = false};
        // cyclic specs too: they deadlock alike on both sides, and they are where nested
        // backward producers at offset 0 come from
        opt.deps.acyclic = *rc::gen::arbitrary<bool>();
        auto spec = *generators::gen_spec(opt);
        test::make_constant(spec.body, 3);
        auto ix = model::ProgramIndex::build(spec);
        RC_ASSERT(ix.ok());
        std::vector<std::string> loops;
        for (const auto& l : ix->loops)
          if (l.kind == model::LoopKind::Loop) loops.push_back(l.name);
        RC_PRE(!loops.empty());
        const auto loop = *rc::gen::elementOf(loops);
        ++runs;
        auto u = analysis::unroll(spec, *ix, {loop});
        if (!u) {
          RC_ASSERT(u.error().rule == std::string("unroll-inexact"));
          ++refused;
          return;
        }
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
          const auto why = side_by_side(spec, *u, loop, seed);
          RC_LOG() << "loop " << loop << ", seed " << seed << ": " << why << "\n" << formats::write_text(spec);
          RC_ASSERT(why.empty());
        }
      },
      300);
  // refusals are the rare shapes, not the rule
  CHECK(refused * 4 < runs);
}

TEST_CASE("unroll: a nested backward producer at offset 0 owes the previous copy") {
  const auto p = unroll_input("nested_backward.sb");
  // C of iteration k owes every P before iteration k: the copy k - 1's; the first copy owes the
  // last copy's of earlier iterations of A's parent (none here: A runs once)
  const auto u = unrolled(p, {"A"});
  CHECK(deps_text(u) == "P.A.3->C.A.1; P.A.1->C.A.2; P.A.2->C.A.3; ");
  for (std::uint64_t seed = 1; seed <= 20; ++seed) CHECK(side_by_side(p.program, u, "A", seed) == "");
}

TEST_CASE("unroll: the paper's figures run side by side with their unrolled copies") {
  for (const auto& cut : kCuts) {
    if (!cut.side_by_side) continue;
    INFO(cut.file, " ", cut.loop);
    auto prog = test::load_source(cut.file).program;
    test::make_constant(prog.body, 3);
    auto ix = model::ProgramIndex::build(prog);
    REQUIRE(ix.ok());
    auto u = analysis::unroll(prog, *ix, {cut.loop});
    REQUIRE_MESSAGE(u.ok(), u.error().to_string());
    for (std::uint64_t seed = 1; seed <= 10; ++seed) CHECK(side_by_side(prog, *u, cut.loop, seed) == "");
  }
}
