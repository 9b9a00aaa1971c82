// check --threads N (docs/checker.md "Threads"): the threaded search gives exactly what the
// single-threaded one gives (states, transitions, verdict, limits, and every violation at the same
// state with the same trace), on every corpus pair and on random programs, with reductions on and
// off, whole and cut by max-states; a memory limit ends the search inconclusive, naming it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/detail/exhaustive.h"
#include "checker/detail/threaded_search.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "random_pairs.h"
#include "support/check_summary.h"
#include "support/rapidcheck_doctest.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

checker::CheckResult run(const checker::ProgramPair& pair, bool reduce, std::uint64_t max_states, unsigned threads,
                         checker::StateStore store = checker::StateStore::Flat) {
  checker::CheckOptions o;
  o.reduction = reduce;
  o.max_states = max_states;
  o.threads = threads;
  o.state_store = store;
  return checker::check(pair, o);
}

struct NamedPair {
  std::string name;
  std::filesystem::path spec, impl;
};

// Every hand-written pair: corpus/bugs and corpus/good (the impl names its spec) and
// corpus/pairs.manifest.
std::vector<NamedPair> corpus_pairs() {
  const auto root = test::source_dir();
  std::vector<NamedPair> out;
  for (const auto* dir : {"corpus/bugs", "corpus/good"})
    for (const auto& p : test::files_in(dir, ".sb")) {
      std::istringstream in(test::read_text(p));
      std::string line;
      while (std::getline(in, line) && !line.empty() && line[0] == '#')
        if (line.rfind("# spec:", 0) == 0) {
          auto spec = line.substr(7);
          spec.erase(0, spec.find_first_not_of(" \t"));
          out.push_back({p.filename().string(), root / spec, p});
        }
    }
  std::ifstream manifest(root / "corpus/pairs.manifest");
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string spec, impl;
    words >> spec >> impl;
    out.push_back({impl, root / spec, root / impl});
  }
  return out;
}

// Every corpus pair, reduced and unreduced: f(name, pair, reduce).
template <class F>
void for_each_corpus_pair(F&& f) {
  const auto pairs = corpus_pairs();
  CHECK(pairs.size() >= 20);
  for (const auto& np : pairs) {
    auto spec = formats::load_program_file(np.spec.string(), model::ProgramKind::Spec);
    auto impl = formats::load_program_file(np.impl.string(), model::ProgramKind::Impl);
    REQUIRE_MESSAGE(spec.ok(), np.name);
    REQUIRE_MESSAGE(impl.ok(), np.name);
    for (const bool reduce : {true, false}) {
      auto pair = checker::ProgramPair::make(spec->program, impl->program, semantics::Options{reduce});
      REQUIRE_MESSAGE(pair.ok(), np.name);
      f(np.name, **pair, reduce);
    }
  }
}

// Every corpus pair, reduced and not, whole up to `whole` states and cut at 777 (in the middle of
// some level), gives on 2 and 3 threads with `store` what the flat store gives on one thread.
void expect_corpus_as_one_thread(std::uint64_t whole, checker::StateStore store) {
  for_each_corpus_pair([&](const std::string& name, const checker::ProgramPair& pair, bool reduce) {
    for (const std::uint64_t cap : {whole, std::uint64_t{777}}) {
      const auto one = test::summary(run(pair, reduce, cap, 1));
      for (const unsigned threads : {2U, 3U}) {
        INFO(name, reduce ? " reduced" : " unreduced", " max-states ", cap, " threads ", threads,
             store == checker::StateStore::Tree ? " tree" : "");
        CHECK(test::summary(run(pair, reduce, cap, threads, store)) == one);
      }
    }
  });
}

}  // namespace

TEST_CASE("threads: every corpus pair gives the single-threaded results on 2 and 3 threads") {
  // Whole up to 150,000 states: the kernel-sized unreduced searches are cut, which tests the cut.
  expect_corpus_as_one_thread(150000, checker::StateStore::Flat);
}

TEST_CASE("threads: random programs give the single-threaded results on 2 and 4 threads") {
  test::rc_check(
      "threads == one thread",
      [] {
        const bool reduce = *rc::gen::arbitrary<bool>();
        const auto pair = test::gen_small_pair(semantics::Options{reduce});
        // Searches of up to 20,000 states (most are whole), sometimes cut anywhere.
        const std::uint64_t cap = *rc::gen::element<std::uint64_t>(20000, 20000, 20000, 1, 2, 5, 17, 60, 400);
        const auto one = run(*pair, reduce, cap, 1);
        RC_CLASSIFY(!one.violations.empty(), "violations");
        RC_CLASSIFY(!one.exhaustive, "cut");
        for (const unsigned threads : {2U, 4U})
          RC_ASSERT(test::summary(run(*pair, reduce, cap, threads)) == test::summary(one));
      },
      150);
}

TEST_CASE("threads: the tree store on 2 and 3 threads gives the single-threaded results") {
  // Root pairs of shared halves in the visited set (statespace/shared_halves.h): the same
  // states, transitions, verdicts and traces as the flat store on one thread, whole and cut.
  expect_corpus_as_one_thread(60000, checker::StateStore::Tree);
}

TEST_CASE("threads: chunks of one state share even the smallest levels and give the single-threaded results") {
  // The CLI's chunks of 128 states leave most levels of small programs to one thread; with
  // chunks of one, every level of two states or more is split between the threads. Both stores:
  // flat tuples, and root pairs of shared halves (statespace/shared_halves.h).
  test::rc_check(
      "threads, chunks of 1, flat and tree stores == one thread",
      [] {
        const bool reduce = *rc::gen::arbitrary<bool>();
        const auto pair = test::gen_small_pair(semantics::Options{reduce});
        const std::uint64_t cap = *rc::gen::element<std::uint64_t>(20000, 20000, 1, 3, 9, 40, 300);
        checker::CheckOptions o;
        o.reduction = reduce;
        o.max_states = cap;
        const auto one = checker::detail::Exhaustive(pair->lockstep(), o).run();
        RC_CLASSIFY(!one.violations.empty(), "violations");
        RC_CLASSIFY(!one.exhaustive, "cut");
        for (const auto store : {checker::StateStore::Flat, checker::StateStore::Tree}) {
          o.state_store = store;
          for (const unsigned threads : {2U, 3U})
            RC_ASSERT(test::summary(checker::detail::ThreadedSearch(pair->lockstep(), o, threads, 1).run()) ==
                      test::summary(one));
        }
      },
      150);
}

TEST_CASE("threads: a memory limit ends the search inconclusive and names the limit") {
  // A kernel-sized pair whose unreduced state space takes far more than the limit.
  const auto pairs = corpus_pairs();
  const NamedPair* big = nullptr;
  for (const auto& np : pairs)
    if (np.name.find("flash_attention_per_loop") != std::string::npos) big = &np;
  REQUIRE(big != nullptr);
  auto s = formats::load_program_file(big->spec.string(), model::ProgramKind::Spec);
  auto i = formats::load_program_file(big->impl.string(), model::ProgramKind::Impl);
  REQUIRE(s.ok());
  REQUIRE(i.ok());
  auto pair = checker::ProgramPair::make(s->program, i->program, semantics::Options{false});
  REQUIRE(pair.ok());
  for (const unsigned threads : {1U, 2U}) {
    checker::CheckOptions o;
    o.reduction = false;
    o.threads = threads;
    o.max_memory = std::uint64_t{16} << 20;
    const auto r = checker::check(**pair, o);
    INFO("threads ", threads);
    CHECK(r.verdict == checker::Verdict::Inconclusive);
    CHECK(!r.exhaustive);
    CHECK(r.limit.find("max-memory 16M") != std::string::npos);
    CHECK(r.bytes > o.max_memory);
  }
}
