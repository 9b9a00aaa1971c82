// The prover on the paper's figures, the allocator's output and the corpus bugs (docs/prover.md).
#include <doctest/doctest.h>

#include "allocator/allocate.h"
#include "prover/prove_support.h"

using namespace syncbisim;
using prover::Answer;

namespace {

void check_all_proved(const prover::ProveResult& r, const std::string& what) {
  CHECK_MESSAGE(!r.consumers.empty(), what);
  for (const auto& c : r.consumers)
    CHECK_MESSAGE(c.answer == Answer::Proved, what, ": ", c.instr, " ", prover::to_string(c.answer), " ", c.reason);
  CHECK_MESSAGE(r.verdict == Answer::Proved, what);
}

}  // namespace

TEST_CASE("prover: paper Figures 7 and 8 are proved") {
  const auto spec = test::load_corpus("corpus/figures/fig7_fig8.json", model::ProgramKind::Spec);
  for (const auto* impl : {"corpus/figures/fig7_per_instruction.impl.json", "corpus/figures/fig8_per_loop.impl.json",
                           "corpus/good/fig7_per_instruction.impl.sb", "corpus/good/fig8_per_loop.impl.sb"}) {
    const auto i = test::load_corpus(impl, model::ProgramKind::Impl);
    check_all_proved(test::prove_pair(spec, i.program), impl);
  }
}

TEST_CASE("prover: the allocator's per-instruction and per-loop output on every figure and kernel is proved") {
  std::vector<std::filesystem::path> specs;
  for (const auto* dir : {"corpus/figures", "corpus/kernels"})
    for (const auto& p : test::files_in(dir, ".json"))
      if (p.filename().string().find(".impl.") == std::string::npos) specs.push_back(p);
  REQUIRE(specs.size() >= 15);
  for (const auto& p : specs) {
    const auto rel = std::filesystem::relative(p, test::source_dir()).string();
    const auto spec = test::load_corpus(rel, model::ProgramKind::Spec);
    for (auto strategy : {allocator::Strategy::PerInstruction, allocator::Strategy::PerLoop}) {
      auto alloc = allocator::allocate(spec.program, spec.index, allocator::Options{strategy, false});
      REQUIRE(alloc.ok());
      check_all_proved(test::prove_pair(spec, alloc->impl), rel + " " + allocator::to_string(strategy));
    }
  }
}

TEST_CASE("prover: the known bugs are refuted or unknown, never proved") {
  // file -> consumers refuted (every other consumer with a wait or dependency is proved),
  // or "unknown" for the whole file (barriers).
  const std::map<std::string, std::set<std::string>> refuted = {
      {"add_many_loop_nk_as_n", {"add"}},
      {"add_many_loop_one_wait", {"add"}},
      {"fig1_offset_too_large", {"I2"}},
      {"fig1_offset_too_small", {"I2"}},
      {"fig5_monotone_in_mask", {"C"}},
      {"fig5_trip_reg_in_expr", {"C"}},
      {"fig5_trip_reg_never_reset", {"C"}},
      {"fig6_backward_expr_minus_k", {"C"}},
      {"fig6_forward_missing_signal", {"C"}},
      {"fig6_forward_trip_reg_in_expr", {"C"}},
      {"fig7_missing_signal", {"I2"}},
      {"fig8_nk_off_by_one", {"I2"}},
      {"flash_attention_backward_wrong_loop", {"load_k"}},
      {"tiled_matmul_kunrolled_mask_not_reset", {"matmul0", "copy_psum"}},
      {"tiled_matmul_kunrolled_offset_too_large", {"matmul0"}},
      {"tiled_matmul_kunrolled_offset_too_small", {"copy_psum"}},
  };
  const std::set<std::string> with_barriers = {"mixed_fallback_reset_all"};
  const auto files = test::files_in("corpus/bugs", ".sb");
  REQUIRE(files.size() == refuted.size() + with_barriers.size());
  for (const auto& f : files) {
    const auto name = f.stem().string();
    const auto text = test::read_text(f);
    const auto spec_rel = text.substr(text.find("# spec: ") + 8, text.find('\n') - 8);
    const auto spec = test::load_corpus(spec_rel, model::ProgramKind::Spec);
    const auto impl =
        test::load_corpus(std::filesystem::relative(f, test::source_dir()).string(), model::ProgramKind::Impl);
    const auto r = test::prove_pair(spec, impl.program);
    INFO(name);
    CHECK(r.verdict != Answer::Proved);
    if (with_barriers.count(name)) {
      CHECK(r.verdict == Answer::Unknown);
      for (const auto& c : r.consumers) CHECK(c.reason.find("barrier") != std::string::npos);
      continue;
    }
    REQUIRE(refuted.count(name));
    CHECK(r.verdict == Answer::Refuted);
    for (const auto& c : r.consumers) {
      const bool want = refuted.at(name).count(c.instr) > 0;
      CHECK_MESSAGE(c.answer == (want ? Answer::Refuted : Answer::Proved), c.instr, ": ", c.reason);
      if (c.answer == Answer::Refuted) CHECK(!c.replay.trace.empty());
    }
  }
}

TEST_CASE("prover: outside the fragment is unknown with the reason") {
  SUBCASE("a distance on two loops") {
    const auto spec = test::load_inline(R"(syncbisim spec/1
engines E0 E1
loop A trip 2 {
  loop B trip 2 {
    E0: P
    E1: C
  }
}
dep P -> C distance A=1, B=1
)");
    const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A {
  loop B {
    E0: P {s += 1}
    E1: [r := r + 1] [w := isgt(r, 3) * (r - 3)] {s >= w} C
  }
}
)");
    const auto r = test::prove_pair(spec, impl.program);
    REQUIRE(r.consumers.size() == 1);
    CHECK(r.consumers[0].answer == Answer::Unknown);
    CHECK(r.consumers[0].reason.find("multi-level") != std::string::npos);
  }
  SUBCASE("a register outside the recognized patterns") {
    const auto spec = test::load_inline(R"(syncbisim spec/1
engines E0 E1
loop A trip 1..3 {
  E0: P
  E1: C
}
dep P -> C
)");
    const auto impl = test::load_inline(R"(syncbisim impl/1
engines E0 E1
semaphores s
loop A {
  E0: P {s += 1}
  E1: [r := r * 2] {s >= r} C
}
)");
    const auto r = test::prove_pair(spec, impl.program);
    REQUIRE(r.consumers.size() == 1);
    CHECK(r.consumers[0].answer == Answer::Unknown);
    CHECK(r.consumers[0].reason.find("register r") != std::string::npos);
  }
}
