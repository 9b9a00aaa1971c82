// The public API (include/syncbisim/syncbisim.h) as outside code sees it: this file includes
// nothing of the tool but that header, and links only the shared library.
#include <doctest/doctest.h>

#include <syncbisim/syncbisim.h>
#include <unistd.h>
#include <atomic>
#include <filesystem>
#include <string>

#include "../../examples/cmake_consumer/my_allocator.h"

namespace {

std::string source(const std::string& rel) { return std::string(SYNCBISIM_SOURCE_DIR) + "/" + rel; }

struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("sb-api-test-" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

syncbisim::FuzzOptions campaign() {
  syncbisim::FuzzOptions o;
  o.runs = 500;
  o.seed = 1;
  o.specs = syncbisim::SpecMix::Allocatable;
  o.shrink_max_seconds = 0;
  return o;
}

}  // namespace

TEST_CASE("programs load from a file, from text, and report errors with their place and rule") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"));
  CHECK(spec.kind() == syncbisim::ProgramKind::Spec);
  CHECK(spec.engines() == std::vector<std::string>{"E0", "E1"});
  CHECK(spec.dependencies() == 1);
  CHECK(syncbisim::Program::load(spec.to_text()) == spec);
  CHECK(syncbisim::Program::from_string(spec.to_json()) == spec);
  try {
    syncbisim::Program::from_string("engines E0\nE0: I0 I0\n", "dup.sb");
    FAIL("no error");
  } catch (const syncbisim::Error& e) {
    CHECK(e.rule() == "duplicate-instr");
    CHECK(e.file() == "dup.sb");
    CHECK(std::string(e.what()).find("dup.sb: ") == 0);
  }
  CHECK_THROWS_AS(syncbisim::Program::load("no/such/file.json"), syncbisim::Error);
}

TEST_CASE("allocate, check and prove a figure") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"));
  const auto a = syncbisim::allocate(spec, {syncbisim::Strategy::PerLoop});
  CHECK(a.impl.kind() == syncbisim::ProgramKind::Impl);
  REQUIRE(a.decisions.size() == 1);
  CHECK(a.decisions[0].scheme == "per-loop");
  const auto c = syncbisim::check(spec, a.impl);
  CHECK(c.verdict == syncbisim::Verdict::Bisimilar);
  CHECK(c.exhaustive);
  CHECK(c.exit_status() == 0);
  CHECK(c.text.rfind("bisimilar\n", 0) == 0);
  const auto p = syncbisim::prove(spec, a.impl);
  CHECK(p.verdict == syncbisim::Answer::Proved);
  CHECK(p.exit_status() == 0);
  CHECK(p.text.rfind("proved\n", 0) == 0);
  CHECK(syncbisim::parse_strategy("per-engine") == syncbisim::Strategy::PerEngine);
  CHECK_THROWS_AS(syncbisim::parse_strategy("fastest"), syncbisim::Error);
}

TEST_CASE("allocate with the expert strategy (judged by the timing model), check and prove a kernel") {
  CHECK(syncbisim::parse_strategy("expert") == syncbisim::Strategy::Expert);
  CHECK(syncbisim::to_string(syncbisim::Strategy::Expert) == "expert");
  const auto spec = syncbisim::Program::load(source("corpus/kernels/dropless_moe_384.json"));
  const auto a = syncbisim::allocate(spec, {syncbisim::Strategy::Expert});
  CHECK(syncbisim::check(spec, a.impl).verdict == syncbisim::Verdict::Bisimilar);
  CHECK(syncbisim::prove(spec, a.impl).verdict == syncbisim::Answer::Proved);
}

TEST_CASE("check's widths: a counter past the register width is an overflow (docs/semantics.md \"Widths\")") {
  const auto spec = syncbisim::Program::load(source("tests/inputs/overflow/counter_spec.sb"));
  const auto impl = syncbisim::Program::load(source("tests/inputs/overflow/counter_impl.sb"));
  CHECK(syncbisim::check(spec, impl).verdict == syncbisim::Verdict::Bisimilar);  // 32 bits
  syncbisim::CheckOptions narrow;
  narrow.register_bits = 8;
  const auto c = syncbisim::check(spec, impl, narrow);
  CHECK(c.verdict == syncbisim::Verdict::Overflow);
  CHECK(syncbisim::to_string(c.verdict) == "overflow");
  CHECK(c.exit_status() == 1);
  REQUIRE(c.violations.size() == 1);
  CHECK(c.violations[0].kind == "overflow");
  CHECK(c.violations[0].description.find("past the 8-bit register width") != std::string::npos);
  CHECK(c.violations[0].trace.back().step == "overflow");
  syncbisim::CheckOptions bad;
  bad.register_bits = 65;
  CHECK_THROWS_AS(syncbisim::check(spec, impl, bad), syncbisim::Error);
}

TEST_CASE("check's state store by name: the names check --state-store takes, and its message for a bad one") {
  for (const auto s : {syncbisim::StateStore::Flat, syncbisim::StateStore::Tree})
    CHECK(syncbisim::parse_state_store(syncbisim::to_string(s)) == s);
  CHECK(syncbisim::to_string(syncbisim::StateStore::Tree) == "tree");
  try {
    syncbisim::parse_state_store("packed");
    FAIL("a bad name parsed");
  } catch (const syncbisim::Error& e) {
    CHECK(e.rule() == "usage");
    // tests/cli/check_state_store_bad.case and the Python test expect the same words.
    CHECK(e.message() == "unknown state store 'packed' (flat, tree)");
  }
}

TEST_CASE("check's state store: the tree store's search is the flat store's (docs/checker.md \"State storage\")") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"));
  const auto impl = syncbisim::Program::load(source("corpus/bugs/fig8_nk_off_by_one.sb"));
  syncbisim::CheckOptions o;
  o.reduction = false;
  const auto flat = syncbisim::check(spec, impl, o);
  o.state_store = syncbisim::StateStore::Tree;
  const auto tree = syncbisim::check(spec, impl, o);
  CHECK(flat.verdict == syncbisim::Verdict::UnderSynchronized);
  CHECK(tree.verdict == flat.verdict);
  CHECK(tree.states == flat.states);
  CHECK(tree.transitions == flat.transitions);
  REQUIRE(tree.violations.size() == flat.violations.size());
  for (std::size_t k = 0; k < flat.violations.size(); ++k) {
    CHECK(tree.violations[k].description == flat.violations[k].description);
    REQUIRE(tree.violations[k].trace.size() == flat.violations[k].trace.size());
    for (std::size_t i = 0; i < flat.violations[k].trace.size(); ++i) {
      CHECK(tree.violations[k].trace[i].step == flat.violations[k].trace[i].step);
      CHECK(tree.violations[k].trace[i].engine == flat.violations[k].trace[i].engine);
      CHECK(tree.violations[k].trace[i].instr == flat.violations[k].trace[i].instr);
    }
  }
}

TEST_CASE("prove's widths: the prover finds the counter past 8 bits, not past 32 (docs/prover.md \"Overflow\")") {
  const auto spec = syncbisim::Program::load(source("tests/inputs/overflow/counter_spec.sb"));
  const auto impl = syncbisim::Program::load(source("tests/inputs/overflow/counter_impl.sb"));
  const auto wide = syncbisim::prove(spec, impl);
  CHECK(wide.verdict == syncbisim::Answer::Proved);
  CHECK(wide.text.find("never pass 32-bit registers, signed 32-bit semaphores") != std::string::npos);
  syncbisim::ProveOptions narrow;
  narrow.register_bits = 8;
  const auto p = syncbisim::prove(spec, impl, narrow);
  CHECK(p.verdict == syncbisim::Answer::Refuted);
  CHECK(p.exit_status() == 1);
  CHECK(p.text.find("overflow: register r (E0): register r on E0 reaches 256, past the 8-bit register's 255") !=
        std::string::npos);
  CHECK(p.json.find("\"register_bits\": 8") != std::string::npos);
  CHECK(p.json.find("\"answer\": \"refuted\"") != std::string::npos);
  syncbisim::ProveOptions narrow_semaphores;
  narrow_semaphores.semaphore_bits = 4;
  const auto sem =
      syncbisim::prove(syncbisim::Program::load(source("tests/inputs/overflow/sem_spec.sb")),
                       syncbisim::Program::load(source("tests/inputs/overflow/sem_impl.sb")), narrow_semaphores);
  CHECK(sem.verdict == syncbisim::Answer::Refuted);
  CHECK(sem.text.find("past the signed 4-bit semaphore's 7") != std::string::npos);
  for (const auto& [r, s] : {std::pair{0U, 32U}, {65U, 32U}, {32U, 1U}, {32U, 65U}}) {
    syncbisim::ProveOptions bad;
    bad.register_bits = r;
    bad.semaphore_bits = s;
    CHECK_THROWS_AS(syncbisim::prove(spec, impl, bad), syncbisim::Error);
  }
}

TEST_CASE("prove's jobs: consumers on two threads give what one thread gives, refutations and all") {
  const auto spec = syncbisim::Program::load(source("corpus/kernels/flash_attention.json"));
  const auto impl = syncbisim::Program::load(source("corpus/bugs/flash_attention_backward_wrong_loop.sb"));
  syncbisim::ProveOptions one, two;
  two.jobs = 2;
  const auto a = syncbisim::prove(spec, impl, one), b = syncbisim::prove(spec, impl, two);
  CHECK(a.verdict == syncbisim::Answer::Refuted);
  CHECK(b.text == a.text);  // every answer, reason and witness, in consumer order
  REQUIRE(b.consumers.size() == a.consumers.size());
  CHECK(a.consumers.size() > 2);  // more consumers than threads
  for (std::size_t k = 0; k < a.consumers.size(); ++k) {
    CHECK(b.consumers[k].instr == a.consumers[k].instr);
    CHECK(b.consumers[k].answer == a.consumers[k].answer);
    CHECK(b.consumers[k].safe.witness.size() == a.consumers[k].safe.witness.size());
    CHECK(b.consumers[k].exact.witness.size() == a.consumers[k].exact.witness.size());
  }
}

TEST_CASE("an impl that unrolls a loop of the spec is checked and proved against the spec unrolled to match") {
  // docs/formats.md "Unrolled programs": the API takes such pairs as every command does.
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig1_motivating.json"));
  const auto good = syncbisim::Program::load(source("tests/inputs/unrolled/fig1_A_unrolled.impl.sb"));
  const auto broken = syncbisim::Program::load(source("tests/inputs/unrolled/fig1_A_unrolled_wrong_copy.impl.sb"));
  CHECK(syncbisim::check(spec, good).verdict == syncbisim::Verdict::Bisimilar);
  CHECK(syncbisim::prove(spec, good).verdict == syncbisim::Answer::Proved);
  const auto c = syncbisim::check(spec, broken);
  CHECK(c.verdict == syncbisim::Verdict::UnderSynchronized);
  CHECK(c.text.find("I2.A.3") != std::string::npos);  // the copy, named as in the impl
  const auto p = syncbisim::prove(spec, broken);
  CHECK(p.verdict == syncbisim::Answer::Refuted);
  CHECK(p.text.find("I2.A.3") != std::string::npos);
}

TEST_CASE("a violation comes with both sides' numbers and a trace") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"));
  const auto impl = syncbisim::Program::load(source("corpus/bugs/fig8_nk_off_by_one.sb"));
  const auto c = syncbisim::check(spec, impl);
  CHECK(c.verdict == syncbisim::Verdict::UnderSynchronized);
  CHECK(c.exit_status() == 1);
  REQUIRE(!c.violations.empty());
  const auto& v = c.violations.front();
  CHECK(v.kind == "under-sync");
  CHECK(v.instr == "I2");
  CHECK(v.dependency == "I1 -> I2");
  REQUIRE(v.retired);
  REQUIRE(v.owed);
  CHECK(*v.retired < *v.owed);
  REQUIRE(v.value);
  REQUIRE(v.threshold);
  CHECK(*v.value >= *v.threshold);
  CHECK(!v.trace.empty());
  CHECK(c.json.find("\"verdict\": \"under-synchronized\"") != std::string::npos);
  // A trip cap that cuts a range can find the violation but never prove the pair bisimilar.
  syncbisim::CheckOptions capped;
  capped.max_trip = 1;
  const auto spec5 = syncbisim::Program::load(source("corpus/figures/fig6_nested_forward.json"));  // a 1..3 range
  const auto good5 = syncbisim::check(spec5, syncbisim::allocate(spec5).impl, capped);
  CHECK(good5.verdict == syncbisim::Verdict::Inconclusive);
  CHECK(good5.limit.find("max-trip 1") != std::string::npos);
  // The two programs the wrong way round is an input error, not a verdict.
  CHECK_THROWS_AS(syncbisim::check(impl, spec), syncbisim::Error);
}

TEST_CASE("a C++ allocator with a planted bug is found, shrunk, written, and re-checks from its files") {
  const TempDir tmp;
  auto o = campaign();
  o.max_failures = 1;
  o.jobs = 2;
  o.out = tmp.path.string();
  const syncbisim::Allocator buggy = [](const std::string& s) { return my_compiler::allocate(s, true); };
  const auto r = syncbisim::fuzz_allocator(buggy, o);
  REQUIRE(r.failures == 1);
  const auto& f = r.failed.front();
  CHECK(f.failure_class == "over-sync");
  CHECK(!f.after.empty());
  CHECK(f.spec.engines().size() <= 2);
  REQUIRE(f.impl);
  // From the files alone.
  const auto spec = syncbisim::Program::from_file(f.files + ".spec.json");
  const auto impl = syncbisim::Program::from_file(f.files + ".impl.json");
  CHECK(spec == f.spec);
  CHECK(syncbisim::check(spec, impl).verdict == syncbisim::Verdict::OverSynchronized);
  CHECK(f.repro == "syncbisim check " + f.files + ".spec.json " + f.files + ".impl.json");
  // Shrinking it again through the API keeps the failure.
  const auto s = syncbisim::shrink(spec, buggy);
  CHECK(s.failure_class == "over-sync");
  REQUIRE(s.impl);
  CHECK(syncbisim::check(s.spec, *s.impl).verdict == syncbisim::Verdict::OverSynchronized);
  // The allocator without its bug passes the same campaign (refusals aside).
  const auto good =
      syncbisim::fuzz_allocator([](const std::string& s) { return my_compiler::allocate(s, false); }, campaign());
  CHECK(good.failures == 0);
  CHECK(good.declined > 0);
  CHECK(good.passed + good.declined + good.inconclusive == good.runs);
}

TEST_CASE("refusals, exceptions and garbage from a callback are told apart") {
  auto o = campaign();
  o.runs = 20;
  const auto declined =
      syncbisim::fuzz_allocator([](const std::string&) -> std::string { throw syncbisim::Declined("not mine"); }, o);
  CHECK(declined.declined == declined.runs);
  CHECK(declined.failures == 0);
  REQUIRE(!declined.declines.empty());
  CHECK(declined.declines.front().why == "not mine");
  o.max_failures = 1;
  const auto threw =
      syncbisim::fuzz_allocator([](const std::string&) -> std::string { throw std::out_of_range("oops"); }, o);
  REQUIRE(threw.failures == 1);
  CHECK(threw.failed.front().failure_class == "allocator-error");
  CHECK(threw.failed.front().failure.find("oops") != std::string::npos);
  const auto garbage = syncbisim::fuzz_allocator([](const std::string&) { return std::string("{]"); }, o);
  REQUIRE(garbage.failures == 1);
  CHECK(garbage.failed.front().failure_class == "bad-output");
  CHECK(garbage.failed.front().allocator_output == "{]");
}

TEST_CASE("a command allocator and a strategy through the API") {
  auto o = campaign();
  o.runs = 30;
  const auto cmd = syncbisim::fuzz_allocator(
      syncbisim::Command{"/usr/bin/python3 " + source("examples/allocators/per_instruction.py"), 10}, o);
  CHECK(cmd.failures == 0);
  CHECK(cmd.runs == 30);
  const auto strategy = syncbisim::fuzz_allocator(syncbisim::Strategy::PerLoop, o);
  CHECK(strategy.failures == 0);
  CHECK(strategy.json.find("\"allocator\": \"per-loop\"") != std::string::npos);
}

TEST_CASE("a stop request ends a campaign with what it found") {
  auto o = campaign();
  o.runs = 1000000;
  std::atomic<int> calls{0};
  const auto token = o.stop;
  const auto r = syncbisim::fuzz_allocator(
      [&](const std::string& s) {
        if (++calls == 40) token.request();
        return my_compiler::allocate(s, true);
      },
      o);
  CHECK(r.interrupted);
  CHECK(r.runs < 1000);
  CHECK(r.exit_status() != 0);
}

TEST_CASE("generate gives the campaign's specs") {
  syncbisim::FuzzOptions o;
  o.seed = 9;
  o.runs = 5;
  const auto specs = syncbisim::generate(o);
  CHECK(specs.size() == 5);
  o.start = 2;
  o.runs = 1;
  CHECK(syncbisim::generate(o).front() == specs[2]);
}
