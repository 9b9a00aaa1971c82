// The prover on the barrier and fallback allocations of generated specs (docs/prover.md "What
// `unknown` means"): how many properties stay unknown, why, and whether each unknown is a
// spurious candidate (the unreduced explorer, exhaustive at the spec's own trips, finds no
// violation of that kind at that consumer) or a real one the directed run could not rebuild. A
// survey, not a test: the figures go to docs/prover.md. Every run is a fixed function of the
// seed and its index, so two builds of the prover can be compared run by run.
// Usage: bench_prover_generated [RUNS] [SEED] [PROFILE...]; profiles: narrow (the property test's
// shapes: up to three engines), wide (up to five engines, longer bodies), cyclic (also cyclic
// dependencies and per-engine rules). Default: 300 1 narrow wide cyclic.
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "analysis/correspondence.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "fuzz/campaign.h"
#include "generators/describe.h"
#include "generators/spec_gen.h"
#include "model/walk.h"
#include "prover/prove.h"

using namespace syncbisim;

namespace {

generators::SpecGenOptions profile(const std::string& name, bool allocatable) {
  generators::SpecGenOptions o{.min_engines = 2,
                               .max_engines = 3,
                               .max_depth = 3,
                               .max_trip = 3,
                               .deps = {.allocatable_only = allocatable, .acyclic = true},
                               .divergent = false,
                               .extras = false};
  if (name == "wide") {
    o.max_engines = 5;
    o.max_top_stmts = 5;
    o.max_body_stmts = 3;
    o.max_deps = 10;
  } else if (name == "cyclic") {
    o.deps.acyclic = false;
    o.divergent = true;
  }
  return o;
}

// The part of an unknown's reason that names its kind (a directed run's end, a z3 answer...).
std::string kind_of(const std::string& reason) {
  const std::string run = "counterexample not reproduced: the directed run at trips of at most ";
  if (reason.rfind(run, 0) == 0) {
    const auto colon = reason.find(": ", run.size());
    auto rest = colon == std::string::npos ? reason : reason.substr(colon + 2);
    if (const auto paren = rest.find(" ("); paren != std::string::npos) rest = rest.substr(0, paren);
    if (const auto semi = rest.find(';'); semi != std::string::npos) rest = rest.substr(0, semi);
    return "directed run: " + rest;
  }
  return reason.substr(0, std::min<std::size_t>(reason.size(), 70));
}

struct Tally {
  int specs = 0, pairs = 0, consumers = 0, properties = 0, unknown = 0, spurious = 0, real = 0, undecided = 0;
  std::map<std::string, int> kinds;
  std::vector<std::string> examples;
};

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::stoi(argv[1]) : 300;
  const std::uint64_t seed = argc > 2 ? std::stoull(argv[2]) : 1;
  std::vector<std::string> profiles;
  for (int i = 3; i < argc; ++i) profiles.push_back(argv[i]);
  if (profiles.empty()) profiles = {"narrow", "wide", "cyclic"};
  const auto start = std::chrono::steady_clock::now();
  for (const auto& name : profiles) {
    Tally t;
    for (int run = 0; run < runs; ++run) {
      const auto s = fuzz::run_seed(seed, static_cast<std::uint64_t>(run));
      const bool allocatable = (s >> 63) != 0;
      const int size = 50 + static_cast<int>((s >> 32) % 51);
      const auto spec = generators::gen_spec(profile(name, allocatable))(rc::Random(s), size).value();
      auto six = model::ProgramIndex::build(spec);
      if (!six) continue;
      ++t.specs;
      // The barrier baseline, and the fallback's barriers (auto on a spec with a dependency the
      // barrier-free strategies cannot allocate).
      for (auto strategy : {allocator::Strategy::Barrier, allocator::Strategy::Auto}) {
        auto alloc = allocator::allocate(spec, *six, allocator::Options{strategy, false});
        if (!alloc) continue;
        if (strategy == allocator::Strategy::Auto) {
          bool barrier = false;
          model::for_each_stream(alloc->impl.body, [&](const model::Stream& str) {
            for (const auto& it : str.items) barrier = barrier || std::holds_alternative<model::Barrier>(it);
          });
          if (!barrier) continue;
        }
        auto iix = model::ProgramIndex::build(alloc->impl);
        if (!iix || !analysis::check_correspondence(spec, *six, alloc->impl, *iix).ok()) continue;
        ++t.pairs;
        const auto r = prover::prove(spec, *six, alloc->impl, *iix);
        std::optional<checker::CheckResult> full;
        std::set<std::pair<std::string, bool>> seen;  // (instr, under) the explorer shows
        for (const auto& c : r.consumers) {
          ++t.consumers;
          for (const auto* p : {&c.safe, &c.exact}) {
            ++t.properties;
            if (p->answer != prover::Answer::Unknown) continue;
            ++t.unknown;
            ++t.kinds[kind_of(p->reason)];
            if (!full) {
              auto pair =
                  checker::ProgramPair::make(spec, alloc->impl, checker::PairOptions{semantics::Options{false}, 0});
              checker::CheckOptions o;
              o.max_states = 300000;
              o.reduction = false;
              full = checker::check((*pair)->lockstep(), o);
              const auto& sp = (*pair)->spec_code();
              for (const auto& v : full->violations)
                if (v.instr) seen.insert({sp.instrs[*v.instr].name, v.kind == checker::ViolationKind::UnderSync});
            }
            const bool under = p == &c.safe;
            if (!full->exhaustive) ++t.undecided;
            else if (seen.count({c.instr, under})) ++t.real;
            else ++t.spurious;
            if (t.examples.size() < 3)
              t.examples.push_back("run " + std::to_string(run) + " " + allocator::to_string(strategy) + " " + c.instr +
                                   (under ? " safe: " : " exact: ") + p->reason + "\n" + generators::describe(spec));
          }
        }
      }
    }
    std::printf("profile %s, seed %llu, %d runs: %d specs, %d pairs with barriers, %d consumers, %d properties\n",
                name.c_str(), static_cast<unsigned long long>(seed), runs, t.specs, t.pairs, t.consumers, t.properties);
    std::printf(
        "  unknown %d: spurious (the unreduced explorer finds no such violation) %d, real %d, explorer cut %d\n",
        t.unknown, t.spurious, t.real, t.undecided);
    for (const auto& [k, n] : t.kinds) std::printf("  %5d  %s\n", n, k.c_str());
    for (const auto& e : t.examples) std::printf("  example: %s\n", e.c_str());
  }
  std::printf("%.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
