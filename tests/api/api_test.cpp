// The public API (include/syncbisim/syncbisim.h) as outside code sees it: this file includes
// nothing of the tool but that header, and links only the shared library.
#include <doctest/doctest.h>

#include <syncbisim/syncbisim.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

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

// ---- the calls of the remaining commands (issue 42 item 5): allocate's options, stats,
// stats --compare, simulate, table2, replay, deps. tests/python/test_api_parity.py compares each
// with the command's output; these pin figures of the corpus.

namespace {
std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("the mixed strategy by name, and allocate's budget, reductions and unrolling") {
  CHECK(syncbisim::parse_strategy("mixed") == syncbisim::Strategy::Mixed);
  CHECK(syncbisim::to_string(syncbisim::Strategy::Mixed) == "mixed");
  try {
    syncbisim::parse_strategy("fastest");
    FAIL("no error");
  } catch (const syncbisim::Error& e) {
    CHECK(e.rule() == "usage");
    CHECK(e.message().find("mixed") != std::string::npos);  // the command's list of names
  }
  const auto fa = syncbisim::Program::load(source("corpus/kernels/flash_attention.json"));
  const auto mixed = syncbisim::allocate(fa, {syncbisim::Strategy::Mixed});
  CHECK(syncbisim::check(fa, mixed.impl).verdict == syncbisim::Verdict::Bisimilar);
  CHECK(mixed.exact);

  syncbisim::AllocateOptions tight;
  tight.max_semaphores = 2;
  const auto t = syncbisim::allocate(fa, tight);
  CHECK_FALSE(t.exact);
  CHECK(std::any_of(t.decisions.begin(), t.decisions.end(), [](const auto& d) { return !d.exact; }));
  CHECK(syncbisim::stats(t.impl).figures.semaphores <= 2);

  // paper §6.2's reductions: tiled_matmul per-loop has 8 ALU operations per issue at most with
  // them, 11 without (stats --compare's two sides).
  const auto tm = syncbisim::Program::load(source("corpus/kernels/tiled_matmul.json"));
  syncbisim::AllocateOptions plain{syncbisim::Strategy::PerLoop};
  CHECK(syncbisim::stats(syncbisim::allocate(tm, plain).impl).figures.alu_max == 8);
  plain.licm = plain.cse = false;
  CHECK(syncbisim::stats(syncbisim::allocate(tm, plain).impl).figures.alu_max == 11);

  const auto fig1 = syncbisim::Program::load(source("corpus/figures/fig1_motivating.json"));
  syncbisim::AllocateOptions unroll{syncbisim::Strategy::PerLoop};
  unroll.unroll = {"A"};
  const auto u = syncbisim::allocate(fig1, unroll);
  REQUIRE(u.unrolled_spec.has_value());
  const auto names = u.unrolled_spec->instructions();
  CHECK(std::find(names.begin(), names.end(), "I2.A.3") != names.end());
  CHECK(syncbisim::check(*u.unrolled_spec, u.impl).verdict == syncbisim::Verdict::Bisimilar);
  CHECK_FALSE(syncbisim::allocate(fig1).unrolled_spec.has_value());
  unroll.max_unroll = 2;
  try {
    syncbisim::allocate(fig1, unroll);
    FAIL("no error");
  } catch (const syncbisim::Error& e) {
    CHECK(e.rule() == "unroll-too-large");
  }
}

TEST_CASE("stats: an impl's figures against a budget, as stats prints them") {
  const auto impl = syncbisim::Program::load(source("corpus/figures/fig8_per_loop.impl.json"));
  syncbisim::StatsOptions o;
  o.max_semaphores = 2;
  o.max_registers = 3;
  const auto s = syncbisim::stats(impl, o);
  CHECK(s.figures.semaphores == 2);
  CHECK(s.figures.registers_max == 3);
  CHECK(s.figures.code_bytes == 172);
  CHECK(s.figures.regops_executed == std::optional<std::uint64_t>(7));
  CHECK(s.within_budget);  // at the limit is within it (tests/cli/stats_budget_at_limit.case)
  CHECK(s.text.find("budget: 2 of 2 semaphores, 3 of 3 registers per engine\n") != std::string::npos);
  CHECK(nlohmann::json::parse(s.json)["syncbisim"] == "stats/1");
  o.max_semaphores = 1;
  CHECK_FALSE(syncbisim::stats(impl, o).within_budget);
  o.trips = "A=";
  CHECK_THROWS_AS(syncbisim::stats(impl, o), syncbisim::Error);
  CHECK_THROWS_AS(syncbisim::stats(syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"))),
                  syncbisim::Error);
}

TEST_CASE("compare_strategies: every strategy's row, with the makespan simulate gives its impl") {
  const auto spec = syncbisim::Program::load(source("corpus/kernels/tiled_matmul.json"));
  const auto c = syncbisim::compare_strategies(spec);
  REQUIRE(c.rows.size() == 7);
  CHECK(c.rows[0].strategy == syncbisim::Strategy::Barrier);
  CHECK(c.rows[0].figures.code_bytes == 664);
  CHECK(c.rows[5].strategy == syncbisim::Strategy::Mixed);
  CHECK(c.rows[2].figures.alu_max == 8);
  CHECK(c.rows[2].alu_max_before == 11);
  for (const auto& r : c.rows) {
    INFO(syncbisim::to_string(r.strategy));
    REQUIRE(r.cycles.has_value());
    const auto impl = syncbisim::allocate(spec, {r.strategy}).impl;
    CHECK(*r.cycles == syncbisim::simulate(spec, impl).makespan);
  }
  CHECK(c.text.find(" cycles |") != std::string::npos);
  const auto j = nlohmann::json::parse(c.json);
  CHECK(j["syncbisim"] == "stats-compare/1");
  CHECK(j["rows"][0]["cycles"] == *c.rows[0].cycles);
  syncbisim::StatsOptions one;
  one.jobs = 1;
  CHECK(syncbisim::compare_strategies(spec, one).text == c.text);  // the same table on any number of threads

  syncbisim::StatsOptions tight;
  tight.max_semaphores = 2;
  const auto fa =
      syncbisim::compare_strategies(syncbisim::Program::load(source("corpus/kernels/flash_attention.json")), tight);
  CHECK_FALSE(fa.rows[0].over_budget.empty());  // the barrier baseline needs one semaphore per engine
  CHECK_FALSE(fa.rows[0].cycles.has_value());
}

TEST_CASE("simulate: the timing model's figures, a cost table as a file or as JSON, the picture") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig1_motivating.json"));
  const auto impl = syncbisim::Program::load(source("corpus/good/fig1_per_loop.impl.sb"));
  syncbisim::SimulateOptions o;
  o.costs_file = source("tests/timing/unit_costs.json");
  const auto r = syncbisim::simulate(spec, impl, o);
  CHECK(r.makespan == 6);  // tests/cli/simulate_json.case
  CHECK_FALSE(r.deadlock);
  CHECK(r.exit_status() == 0);
  REQUIRE(r.engines.size() == 3);
  CHECK(r.engines[2].engine == "E2");
  CHECK(r.engines[2].stalled == 1);
  REQUIRE_FALSE(r.stalls.empty());
  CHECK(r.stalls[0].semaphore == "s_A_E1");
  CHECK(r.without_op.size() == 6);
  CHECK(r.text.rfind("makespan: 6 cycles", 0) == 0);
  CHECK(nlohmann::json::parse(r.json)["makespan"] == 6);
  syncbisim::SimulateOptions as_json;
  as_json.costs_json = read(source("tests/timing/unit_costs.json"));
  CHECK(syncbisim::simulate(spec, impl, as_json).json == r.json);
  as_json.svg = true;
  CHECK(syncbisim::simulate(spec, impl, as_json).svg.find("<svg") != std::string::npos);
  as_json.costs_file = o.costs_file;  // both: which one?
  CHECK_THROWS_AS(syncbisim::simulate(spec, impl, as_json), syncbisim::Error);
  syncbisim::SimulateOptions trips;
  trips.trips = "A=5";
  CHECK(syncbisim::simulate(spec, impl, trips).trips == std::vector<std::string>{"A=5 (given)"});
  const auto dead = syncbisim::simulate(syncbisim::Program::load(source("corpus/figures/fig7_fig8.json")),
                                        syncbisim::Program::load(source("corpus/bugs/fig7_missing_signal.sb")));
  CHECK(dead.deadlock);
  CHECK(dead.exit_status() == 1);
}

TEST_CASE("table2: a kernel's row and its K-unrolled row, beside the paper's") {
  syncbisim::Table2Options o;
  o.unroll = {"k"};
  const auto t = syncbisim::table2({syncbisim::Program::load(source("corpus/kernels/tiled_matmul.json"))}, o);
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0].kernel == "tiled_matmul");
  CHECK(t.rows[1].kernel == "tiled_matmul+k");
  REQUIRE(t.rows[0].ours.size() == 5);
  CHECK(t.rows[0].ours[0].variant == "barrier");
  CHECK(t.rows[0].ours[0].lat == 1.0);
  CHECK(t.rows[0].ours[0].makespan == 2135413);
  REQUIRE(t.rows[0].paper.size() == 4);
  CHECK(t.rows[0].paper[0].code == "4.7 KB");
  CHECK(t.text.find("tiled_matmul+k (k unrolled): L=2") != std::string::npos);
  CHECK(nlohmann::json::parse(t.json)["rows"].size() == 2);
  CHECK_THROWS_AS(syncbisim::table2({}), syncbisim::Error);  // no spec and no corpus
}

TEST_CASE("replay: a trace check wrote, from its text or its file, and one that does not fit") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig5_offset_two.json"));
  const auto bug = syncbisim::Program::load(source("corpus/bugs/fig5_trip_reg_in_expr.sb"));
  const auto path = source("tests/inputs/traces/fig5_trip_reg_in_expr.check.json");
  const auto r = syncbisim::replay(spec, bug, path);
  CHECK(r.fits);
  CHECK(r.exit_status() == 1);
  CHECK(r.reproduced == std::optional<bool>(true));
  REQUIRE(r.steps.size() > 2);
  CHECK(r.steps[1].step == "retire E0 P");
  CHECK(r.steps[1].changes == std::vector<std::string>{"R(P) 0 -> 1", "s_B_E0 0 -> 1"});
  CHECK(r.text.find("reproduced: the violation the trace records") != std::string::npos);
  CHECK(syncbisim::replay(spec, bug, read(path)).json == r.json);
  const auto fig7 = syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"));
  const auto misfit =
      syncbisim::replay(fig7, syncbisim::Program::load(source("corpus/figures/fig8_per_loop.impl.json")), path);
  CHECK_FALSE(misfit.fits);
  CHECK(misfit.exit_status() == 2);
  // A violation check() found replays to itself.
  const auto bug8 = syncbisim::Program::load(source("corpus/bugs/fig8_nk_off_by_one.sb"));
  const auto again = syncbisim::replay(fig7, bug8, syncbisim::check(fig7, bug8).json);
  CHECK(again.violations == std::vector<std::string>{"under-sync"});
  CHECK_THROWS_AS(syncbisim::replay(fig7, bug8, "{ not json"), syncbisim::Error);
}

TEST_CASE("deps and deps --compare: the texts the command prints, the price of an over-synchronization") {
  const auto d = syncbisim::derive_dependencies(syncbisim::Program::load(source("corpus/footprints/double_buffer.sb")));
  CHECK(d.exit_status() == 0);
  CHECK(d.text.find("dep load -> mm  # RAW on t[0, 0, 0]") != std::string::npos);
  CHECK(d.json == d.spec.to_json());
  CHECK(d.report.find("4 dependencies derived, 3 more implied by them") != std::string::npos);
  const auto race =
      syncbisim::compare_dependencies(syncbisim::Program::load(source("corpus/footprints/missing_evac_store.sb")));
  CHECK(race.exit_status() == 1);
  CHECK(race.race_pairs > 0);
  CHECK(race.text.rfind("race: ", 0) == 0);
  CHECK(nlohmann::json::parse(race.json)["verdict"] == "race");
  const auto over =
      syncbisim::compare_dependencies(syncbisim::Program::load(source("tests/inputs/footprints/over_synchronized.sb")));
  CHECK(over.exit_status() == 0);
  REQUIRE_FALSE(over.over_synchronized.empty());
  CHECK(over.over_synchronized[0].find("price on the timing model") != std::string::npos);
}

// ---- the last gaps of "every command has its call" (issue 42 item 5): check --coverage,
// check --all-trips, run, show --dot. Each is compared with what the built tool prints for the same
// corpus input (SYNCBISIM_EXE, from the environment or the CMake test's definition; without it only
// the known figures are checked), and pinned to known figures.

namespace {

struct ToolOutput {
  int status = -1;
  std::string out;  // stdout; stderr is dropped
};

// The built tool, run from the source tree; nothing when the test does not know where it is.
std::optional<ToolOutput> tool(const std::string& args) {
  std::string exe;
  if (const char* e = std::getenv("SYNCBISIM_EXE"); e && *e) exe = e;
#ifdef SYNCBISIM_EXE
  if (exe.empty()) exe = SYNCBISIM_EXE;
#endif
  if (exe.empty()) return std::nullopt;
  const std::string command =
      "cd '" + std::string(SYNCBISIM_SOURCE_DIR) + "' && '" + exe + "' " + args + " 2>/dev/null";
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) return std::nullopt;
  ToolOutput r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// The seconds a report prints ("0.134 s") differ from run to run.
std::string untimed_text(const std::string& text) {
  static const std::regex seconds("[0-9]+\\.[0-9]+ s\\b");
  return std::regex_replace(text, seconds, "T s");
}

// The same for a JSON document: every "seconds" member, at any depth.
nlohmann::json untimed_json(nlohmann::json j) {
  if (j.is_object()) j.erase("seconds");
  if (j.is_structured())
    for (auto& value : j) value = untimed_json(value);
  return j;
}

}  // namespace

TEST_CASE("Program::to_dot is show --dot") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig1_motivating.json"));
  const auto dot = spec.to_dot();
  CHECK(dot.rfind("digraph program {\n", 0) == 0);
  CHECK(dot.find("\"instr_I3\" -> \"instr_I2\" [style=dashed, label=\"A=2\"];") != std::string::npos);
  if (const auto t = tool("show corpus/figures/fig1_motivating.json --dot")) {
    CHECK(t->status == 0);
    CHECK(dot == t->out);
  }
  const auto impl = syncbisim::Program::load(source("corpus/good/fig1_per_loop.impl.sb"));
  if (const auto t = tool("show corpus/good/fig1_per_loop.impl.sb --dot")) CHECK(impl.to_dot() == t->out);
}

TEST_CASE("check with coverage: what each dependency and wait did, as check --coverage prints it") {
  const auto spec = syncbisim::Program::load(source("corpus/figures/fig1_motivating.json"));
  const auto good = syncbisim::Program::load(source("corpus/good/fig1_per_loop.impl.sb"));
  CHECK_FALSE(syncbisim::check(spec, good).coverage.has_value());
  syncbisim::CheckOptions o;
  o.coverage = true;
  const auto c = syncbisim::check(spec, good, o);
  CHECK(c.verdict == syncbisim::Verdict::Bisimilar);
  REQUIRE(c.coverage.has_value());
  CHECK(c.coverage->states == 89);
  REQUIRE(c.coverage->dependencies.size() == 1);
  const auto& d = c.coverage->dependencies[0];
  CHECK(d.producer == "I3");
  CHECK(d.consumer == "I2");
  CHECK(d.distance == "A: 2");
  CHECK((d.reached == 35 && d.owed == 27 && d.held == 18));
  CHECK(d.finding == "held");
  REQUIRE(c.coverage->waits.size() == 1);
  const auto& w = c.coverage->waits[0];
  CHECK((w.engine == "E2" && w.instr == "I2" && w.semaphore == "s_A_E1" && w.threshold == "w"));
  CHECK((w.reached == 35 && w.blocked == 18));
  CHECK(c.coverage_text.rfind("coverage over 89 explored states\n", 0) == 0);
  // The text is the report, then the coverage after a blank line; the JSON has it as "coverage".
  REQUIRE(c.text.size() > c.coverage_text.size());
  CHECK(c.text.substr(c.text.size() - c.coverage_text.size() - 1) == "\n" + c.coverage_text);
  CHECK(nlohmann::json::parse(c.json)["coverage"] == nlohmann::json::parse(c.coverage_json));
  // A wait that never blocks: fig1_offset_too_large's threshold is too low to hold anything back.
  const auto bug = syncbisim::Program::load(source("corpus/bugs/fig1_offset_too_large.sb"));
  const auto b = syncbisim::check(spec, bug, o);
  CHECK(b.verdict == syncbisim::Verdict::UnderSynchronized);
  REQUIRE(b.coverage.has_value());
  REQUIRE(b.coverage->waits.size() == 1);
  CHECK(b.coverage->waits[0].blocked == 0);
  CHECK(b.coverage_text.find("never blocked (redundant at these trips?)") != std::string::npos);
  struct Case {
    std::string impl;
    syncbisim::CheckResult result;
  };
  for (const auto& k :
       {Case{"corpus/good/fig1_per_loop.impl.sb", c}, Case{"corpus/bugs/fig1_offset_too_large.sb", b}}) {
    INFO(k.impl);
    if (const auto t = tool("check corpus/figures/fig1_motivating.json " + k.impl + " --coverage")) {
      CHECK(t->status == k.result.exit_status());
      CHECK(untimed_text(k.result.text) == untimed_text(t->out));
      CHECK(t->out.substr(t->out.size() - std::min(t->out.size(), k.result.coverage_text.size())) ==
            k.result.coverage_text);  // byte for byte
    }
    if (const auto t = tool("check corpus/figures/fig1_motivating.json " + k.impl + " --coverage --json")) {
      const auto j = nlohmann::json::parse(t->out);
      CHECK(j["coverage"] == nlohmann::json::parse(k.result.coverage_json));
      CHECK(untimed_json(j) == untimed_json(nlohmann::json::parse(k.result.json)));
    }
  }
}

TEST_CASE("check_all_trips: one verdict for every trip count, as check --all-trips prints it") {
  const auto fig1 = syncbisim::Program::load(source("corpus/figures/fig1_motivating.json"));
  const auto good =
      syncbisim::check_all_trips(fig1, syncbisim::Program::load(source("corpus/good/fig1_per_loop.impl.sb")));
  CHECK(good.verdict == syncbisim::Verdict::Bisimilar);
  CHECK(good.all_trip_counts);
  CHECK(good.verdict_line == "bisimilar for all trip counts");
  CHECK(good.exit_status() == 0);
  CHECK(good.trip_cap == 3);
  CHECK(good.prover.verdict == syncbisim::Answer::Proved);
  CHECK(good.explorer.states == 89);
  CHECK(good.text.rfind("bisimilar for all trip counts\nprover: 1 of 1 consumers proved safe and exact", 0) == 0);
  CHECK(good.text.find("explorer: 89 states, complete at trips capped at 3 (no range was cut)") != std::string::npos);
  CHECK(nlohmann::json::parse(good.json)["syncbisim"] == "check-all-trips/1");
  CHECK(nlohmann::json::parse(good.explorer.json)["trip_cap"] == 3);

  // A bug only past iteration 20,000: the explorer at 3 trips sees nothing, the prover finds it.
  const auto deep_spec = syncbisim::Program::load(source("tests/inputs/prover/deep.spec.sb"));
  const auto deep_impl = syncbisim::Program::load(source("tests/inputs/prover/deep_wrong_from_20000.impl.sb"));
  const auto deep = syncbisim::check_all_trips(deep_spec, deep_impl);
  CHECK(deep.verdict == syncbisim::Verdict::UnderSynchronized);
  CHECK_FALSE(deep.all_trip_counts);
  CHECK(deep.found_by == "prover");
  CHECK(deep.exit_status() == 1);
  CHECK(deep.explorer.verdict == syncbisim::Verdict::Bisimilar);
  CHECK(deep.text.find("\nfound by the prover:\nC (E1): safe refuted: under-sync at iteration A = 20000") !=
        std::string::npos);

  // A bug the explorer finds at the capped trips.
  const auto fig7 = syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"));
  const auto bug8 = syncbisim::Program::load(source("corpus/bugs/fig8_nk_off_by_one.sb"));
  const auto found = syncbisim::check_all_trips(fig7, bug8);
  CHECK(found.verdict == syncbisim::Verdict::UnderSynchronized);
  CHECK(found.found_by == "explorer");
  REQUIRE_FALSE(found.explorer.violations.empty());
  CHECK(found.explorer.violations[0].dependency == "I1 -> I2");
  CHECK(found.text.find("\nfound by the explorer:\n") != std::string::npos);

  // The widths: a counter past 8 bits.
  syncbisim::AllTripsOptions narrow;
  narrow.register_bits = 8;
  const auto counter_spec = syncbisim::Program::load(source("tests/inputs/overflow/counter_spec.sb"));
  const auto counter_impl = syncbisim::Program::load(source("tests/inputs/overflow/counter_impl.sb"));
  const auto over = syncbisim::check_all_trips(counter_spec, counter_impl, narrow);
  CHECK_FALSE(over.all_trip_counts);
  CHECK(over.exit_status() != 0);
  syncbisim::AllTripsOptions bad;
  bad.register_bits = 65;
  CHECK_THROWS_AS(syncbisim::check_all_trips(counter_spec, counter_impl, bad), syncbisim::Error);
  CHECK_THROWS_AS(syncbisim::check_all_trips(bug8, fig7), syncbisim::Error);  // the wrong way round

  // The command on the same pairs, its prover on one thread as the call's (jobs = 1).
  struct Case {
    std::string args;
    syncbisim::AllTripsResult result;
  };
  for (const auto& k :
       {Case{"corpus/figures/fig1_motivating.json corpus/good/fig1_per_loop.impl.sb", good},
        Case{"tests/inputs/prover/deep.spec.sb tests/inputs/prover/deep_wrong_from_20000.impl.sb", deep},
        Case{"corpus/figures/fig7_fig8.json corpus/bugs/fig8_nk_off_by_one.sb", found},
        Case{"tests/inputs/overflow/counter_spec.sb tests/inputs/overflow/counter_impl.sb "
             "--register-bits 8",
             over}}) {
    INFO(k.args);
    if (const auto t = tool("check " + k.args + " --all-trips --threads 1")) {
      CHECK(t->status == k.result.exit_status());
      CHECK(untimed_text(k.result.text) == untimed_text(t->out));
    }
    if (const auto t = tool("check " + k.args + " --all-trips --threads 1 --json"))
      CHECK(untimed_json(nlohmann::json::parse(k.result.json)) == untimed_json(nlohmann::json::parse(t->out)));
  }
}

TEST_CASE("run: one seeded execution, the spec alone or both in lock step, as run prints it") {
  const auto fig5 = syncbisim::Program::load(source("corpus/figures/fig5_offset_two.json"));
  syncbisim::RunOptions seven;
  seven.seed = 7;
  const auto alone = syncbisim::run(fig5, seven);
  CHECK(alone.outcome == syncbisim::RunOutcome::Finished);
  CHECK(syncbisim::to_string(alone.outcome) == "finished");
  CHECK(alone.exit_status() == 0);
  CHECK(alone.text.rfind("finished\nstep    E0      E1\n", 0) == 0);
  REQUIRE_FALSE(alone.events.empty());
  CHECK(alone.events[0].step == "loop-entry");
  CHECK(alone.events[0].instr == "A");
  CHECK(alone.events[0].detail == "A #1");
  CHECK(syncbisim::run(fig5, seven).json == alone.json);  // the same seed, the same run
  seven.visible_only = true;
  const auto visible = syncbisim::run(fig5, seven);
  CHECK(std::all_of(visible.events.begin(), visible.events.end(), [](const syncbisim::TraceStep& e) {
    return e.step == "issue" || e.step == "retire" || e.step == "choose";
  }));

  const auto fig7 = syncbisim::Program::load(source("corpus/figures/fig7_fig8.json"));
  const auto bug8 = syncbisim::Program::load(source("corpus/bugs/fig8_nk_off_by_one.sb"));
  syncbisim::RunOptions three;
  three.seed = 3;
  const auto m = syncbisim::run(fig7, bug8, three);
  CHECK(m.outcome == syncbisim::RunOutcome::Mismatch);
  CHECK(m.exit_status() == 1);
  REQUIRE(m.mismatch.has_value());
  CHECK(m.mismatch->kind == "under-sync");
  CHECK(m.mismatch->instr == "I2");
  CHECK(m.mismatch->dependency == "I1 -> I2");
  CHECK(m.mismatch->fix.find("the wait needs s0 >= 2 at least") != std::string::npos);
  CHECK(m.text.find(m.mismatch->description) != std::string::npos);
  const auto regop =
      std::find_if(m.events.begin(), m.events.end(), [](const syncbisim::TraceStep& e) { return e.step == "regop"; });
  REQUIRE(regop != m.events.end());
  CHECK(regop->instr == "rh_A := 0");
  CHECK(regop->detail == "rh_A=0");
  // --from: a trace's steps first; one that does not fit is an error of its rule.
  syncbisim::RunOptions from = three;
  from.from = source("tests/inputs/traces/fig5_trip_reg_in_expr.check.json");
  try {
    syncbisim::run(fig7, bug8, from);
    FAIL("a misfit ran");
  } catch (const syncbisim::Error& e) {
    CHECK(e.rule() == "trace-misfit");
  }
  CHECK_THROWS_AS(syncbisim::run(fig7, from), syncbisim::Error);  // from needs an impl
  const auto fig5_bug = syncbisim::Program::load(source("corpus/bugs/fig5_trip_reg_in_expr.sb"));
  syncbisim::RunOptions after;
  after.from = from.from;
  CHECK(syncbisim::run(fig5, fig5_bug, after).outcome == syncbisim::RunOutcome::Mismatch);
  syncbisim::RunOptions limited;
  limited.max_steps = 2;
  const auto cut =
      syncbisim::run(fig7, syncbisim::Program::load(source("corpus/figures/fig8_per_loop.impl.json")), limited);
  CHECK(cut.outcome == syncbisim::RunOutcome::StepLimit);
  CHECK(cut.exit_status() == 3);

  struct Case {
    std::string args;
    syncbisim::RunResult result;
  };
  for (const auto& k : {Case{"corpus/figures/fig5_offset_two.json --seed 7", alone},
                        Case{"corpus/figures/fig5_offset_two.json --seed 7 --visible-only", visible},
                        Case{"corpus/figures/fig7_fig8.json corpus/bugs/fig8_nk_off_by_one.sb --seed 3", m},
                        Case{"corpus/figures/fig7_fig8.json corpus/figures/fig8_per_loop.impl.json --max-steps 2", cut},
                        Case{"corpus/figures/fig5_offset_two.json corpus/bugs/fig5_trip_reg_in_expr.sb --from "
                             "tests/inputs/traces/fig5_trip_reg_in_expr.check.json",
                             syncbisim::run(fig5, fig5_bug, after)}}) {
    INFO(k.args);
    if (const auto t = tool("run " + k.args)) {
      CHECK(t->status == k.result.exit_status());
      CHECK(k.result.text == t->out);  // byte for byte: a seeded run has no clock in it
    }
    if (const auto t = tool("run " + k.args + " --json")) CHECK(k.result.json == t->out);
  }
}
