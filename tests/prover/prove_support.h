#pragma once
// Loading corpus pairs for the prover tests and running both the prover and the explorer on them.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "analysis/correspondence.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "prover/prove.h"
#include "semantics/compiled_program.h"
#include "support/test_files.h"

namespace syncbisim::test {

inline formats::LoadedProgram load_corpus(const std::string& rel, model::ProgramKind kind) {
  auto r = formats::load_program_file((source_dir() / rel).string(), kind);
  REQUIRE_MESSAGE(r.ok(), rel, ": ", (r.ok() ? "" : r.error().to_string()));
  return std::move(*r);
}

inline formats::LoadedProgram load_inline(const std::string& text) {
  auto p = formats::read_text(text);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().to_string()));
  model::normalize(*p);
  auto ix = model::ProgramIndex::build(*p);
  REQUIRE_MESSAGE(ix.ok(), (ix.ok() ? "" : ix.error().to_string()));
  return {std::move(*p), std::move(*ix)};
}

inline prover::ProveResult prove_pair(const formats::LoadedProgram& spec, const model::Program& impl,
                                      const prover::ProveOptions& o = {}) {
  auto iix = model::ProgramIndex::build(impl);
  REQUIRE(iix.ok());
  REQUIRE(analysis::check_correspondence(spec.program, spec.index, impl, *iix).ok());
  return prover::prove(spec.program, spec.index, impl, *iix, o);
}

// One loop A of trips 1..max_trip, P on E0 and C on E1, with P -> C at offset 1 on A (paper §5.2,
// Figure 5's shape): the prover tests' deep pair.
inline formats::LoadedProgram offset_one_spec(std::uint32_t max_trip) {
  return load_inline("syncbisim spec/1\nengines E0 E1\nloop A trip 1.." + std::to_string(max_trip) +
                     " {\n  E0: P\n  E1: C\n}\ndep P -> C distance A=1\n");
}

// Its per-loop allocation (paper §5.4), C waiting for `mask * (r - 1)` signals of P: `isgt(rh, 1)` is
// the correct mask; a factor such as `isgt(1000, rh)` makes the wait wrong from that iteration on.
inline formats::LoadedProgram offset_one_impl(const std::string& mask) {
  return load_inline(
      "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE1: [rh := 0]\nloop A {\n  E0: P {s += 1}\n"
      "  E1: [r := r + 1] [rh := rh + 1] [w := " +
      mask + " * (r - 1)] {s >= w} C\n}\n");
}

// The pair's one consumer is refuted safe (an under-synchronization) and proved exact: its witness.
inline const prover::Witness& only_under_sync(const prover::ProveResult& r) {
  REQUIRE(r.consumers.size() == 1);
  const auto& c = r.consumers[0];
  CHECK(c.safe.answer == prover::Answer::Refuted);
  CHECK(c.exact.answer == prover::Answer::Proved);
  REQUIRE(c.safe.witness);
  return *c.safe.witness;
}

// A consumer's two answers and their reasons, for a failing check's message.
inline std::string describe(const prover::ConsumerResult& c) {
  return c.instr + ": safe " + prover::to_string(c.safe.answer) + " " + c.safe.reason + "; exact " +
         prover::to_string(c.exact.answer) + " " + c.exact.reason;
}

// consumer name -> answer
inline std::map<std::string, prover::Answer> answers(const prover::ProveResult& r) {
  std::map<std::string, prover::Answer> out;
  for (const auto& c : r.consumers) out[c.instr] = c.answer;
  return out;
}

inline const prover::ConsumerResult* consumer(const prover::ProveResult& r, const std::string& instr) {
  for (const auto& c : r.consumers)
    if (c.instr == instr) return &c;
  return nullptr;
}

struct Explored {
  std::set<std::string> under, over;   // instructions with an under- / over-sync mismatch
  std::set<std::string> over_engines;  // engines with an over-sync mismatch
  std::set<std::string> violated;      // ... or a deadlock standing before them
  checker::CheckResult result;
};

// The exhaustive explorer on the pair; `max_trip` > 0 caps range trips (semantics as check
// --max-trip). Unreduced (every interleaving, commits as steps) when `full`: the ground truth
// the prover's refutations are held to.
inline Explored explore(const formats::LoadedProgram& spec, const model::Program& impl, std::uint32_t max_trip = 0,
                        bool full = false, std::uint64_t max_states = 3000000) {
  auto pair = checker::ProgramPair::make(spec.program, impl, checker::PairOptions{semantics::Options{!full}, max_trip});
  REQUIRE(pair.ok());
  const auto& scode = (*pair)->spec_code();
  checker::CheckOptions o;
  o.max_states = max_states;
  o.reduction = !full;
  Explored out;
  out.result = checker::check((*pair)->lockstep(), o);
  for (const auto& v : out.result.violations) {
    if (!v.instr) continue;
    const auto& name = scode.instrs[*v.instr].name;
    out.violated.insert(name);
    if (v.kind == checker::ViolationKind::UnderSync) out.under.insert(name);
    if (v.kind == checker::ViolationKind::OverSync) {
      out.over.insert(name);
      out.over_engines.insert(scode.engines[v.engine]);
    }
  }
  return out;
}

// Does the witness end where the two sides disagree on issuing `instr` on `engine`? Every step
// must be one the lock step offers. Held at a barrier: the impl stands at one, and the spec,
// taking the engine's loop control (some choice of trips), comes to the instruction and may
// issue it there.
inline bool witness_holds(const prover::ProveResult& r, const std::string& instr, const std::string& engine,
                          const prover::Witness& w) {
  const auto& both = r.pair->lockstep();
  const auto& sp = r.pair->spec_code();
  auto s = both.initial();
  std::vector<semantics::Step> enabled;
  for (const auto& st : w.trace) {
    enabled.clear();
    both.visible(s, enabled);
    if (std::find(enabled.begin(), enabled.end(), st) == enabled.end()) return false;
    both.apply(s, st);
  }
  const bool under = w.kind == "under-sync";
  for (const auto& m : both.mismatches(s))
    if (sp.instrs[m.instr].name == instr && sp.engines[m.engine] == engine && (m.impl_can && !m.spec_can) == under)
      return true;
  if (under || !w.mismatch.impl_blocked_at_barrier) return false;
  const auto e = w.mismatch.engine;
  if (both.impl().control().next_op(s.impl.control, e).kind != semantics::OpKind::Barrier) return false;
  std::vector<semantics::SpecState> todo{s.spec};
  std::vector<semantics::Step> steps;
  for (int budget = 0; !todo.empty() && budget < 100000; ++budget) {
    auto cur = std::move(todo.back());
    todo.pop_back();
    const auto& op = both.spec().control().next_op(cur.control, e);
    if (op.kind == semantics::OpKind::Instr) {
      if (sp.instrs[op.a].name == instr && both.spec().can_issue(cur, e)) return true;
      continue;
    }
    steps.clear();
    both.spec().control().loop_steps(cur.control, e, steps);
    for (const auto& st : steps) {
      auto next = cur;
      both.spec().apply(next, st);
      todo.push_back(std::move(next));
    }
  }
  return false;
}

// An impl file's `# spec:` header.
inline std::string spec_of(const std::filesystem::path& impl_file) {
  const auto text = read_text(impl_file);
  const auto at = text.find("# spec: ");
  REQUIRE_MESSAGE(at != std::string::npos, impl_file.string(), ": no `# spec:` line");
  const auto end = text.find('\n', at);
  return text.substr(at + 8, end - at - 8);
}

// The `# prove: CONSUMER PROPERTY ANSWER [KIND]` lines of an impl file (docs/corpus.md): what
// the prover must say; every consumer not listed is proved safe and exact.
struct ProveExpectation {
  std::string consumer, property, answer, kind;
};
inline std::vector<ProveExpectation> prove_expectations(const std::filesystem::path& impl_file) {
  std::vector<ProveExpectation> out;
  std::istringstream in(read_text(impl_file));
  std::string line;
  while (std::getline(in, line) && !line.empty() && line[0] == '#') {
    if (line.rfind("# prove: ", 0) != 0) continue;
    std::istringstream words(line.substr(9));
    ProveExpectation e;
    words >> e.consumer >> e.property >> e.answer >> e.kind;
    out.push_back(e);
  }
  return out;
}

// What check_prove_lines found: the prover's result, and how many properties it refuted.
struct ProveLines {
  prover::ProveResult result;
  int refuted = 0;
};

// The answers of an impl file's `# prove:` lines on the pair with its `# spec:` (every consumer not
// listed: proved safe and exact); each refutation a witness of its kind that replays
// (witness_holds). With `explore_trip` > 0 the unreduced explorer at trips of at most that also
// finds what the prover proves.
inline ProveLines check_prove_lines(const std::filesystem::path& f, std::uint32_t explore_trip) {
  const auto rel = std::filesystem::relative(f, source_dir()).string();
  INFO(rel);
  const auto spec = load_corpus(spec_of(f), model::ProgramKind::Spec);
  const auto impl = load_corpus(rel, model::ProgramKind::Impl);
  ProveLines out{prove_pair(spec, impl.program)};
  const auto& r = out.result;
  const auto expected = prove_expectations(f);
  for (const auto& c : r.consumers) {
    for (const auto* prop : {"safe", "exact"}) {
      const auto& p = std::string(prop) == "safe" ? c.safe : c.exact;
      std::string want = "proved", kind;
      for (const auto& e : expected)
        if (e.consumer == c.instr && e.property == prop) {
          want = e.answer;
          kind = e.kind;
        }
      CHECK_MESSAGE(prover::to_string(p.answer) == want, c.instr, " ", prop, ": ", p.reason);
      if (p.answer == prover::Answer::Refuted) {
        REQUIRE(p.witness);
        CHECK(p.witness->kind == (std::string(prop) == "safe" ? "under-sync" : "over-sync"));
        if (kind == "at-barrier") CHECK(p.witness->mismatch.impl_blocked_at_barrier);
        INFO(c.instr, " ", p.witness->kind, " witness of ", p.witness->trace.size(), " steps");
        CHECK(witness_holds(r, c.instr, c.engine, *p.witness));
        ++out.refuted;
      }
    }
  }
  for (const auto& e : expected) CHECK_MESSAGE(consumer(r, e.consumer), e.consumer, " is no consumer");
  if (explore_trip > 0) {
    const auto full = explore(spec, impl.program, explore_trip, true, 1000000);
    for (const auto& c : r.consumers) {
      INFO(describe(c));
      if (c.safe.answer == prover::Answer::Proved) CHECK(!full.under.count(c.instr));
      if (c.exact.answer == prover::Answer::Proved) CHECK(!full.over.count(c.instr));
    }
  }
  return out;
}

// A program of tests/inputs/prover.
inline formats::LoadedProgram load_input(const std::string& name, model::ProgramKind kind) {
  return load_corpus("tests/inputs/prover/" + name, kind);
}

}  // namespace syncbisim::test
