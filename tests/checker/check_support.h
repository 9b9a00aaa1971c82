#pragma once
// Running the checker on a spec and an impl given as file contents (JSON or text).
#include <doctest/doctest.h>

#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "model/index.h"
#include "statespace/state_codec.h"

namespace syncbisim::test {

// A spec and an impl, set up by checker::ProgramPair::make with commits fused (the default);
// run_check() makes the pair again as its options ask.
struct Pair {
  model::Program spec, impl;
  std::unique_ptr<checker::ProgramPair> fused;
  const semantics::CompiledProgram& spec_code() const { return fused->spec_code(); }
  const semantics::CompiledProgram& impl_code() const { return fused->impl_code(); }
  const model::ProgramIndex& spec_ix() const { return fused->spec_index(); }
  const semantics::Lockstep& lockstep() const { return fused->lockstep(); }
};

// Each program in either format (formats::load_program_text tells JSON from text).
inline std::unique_ptr<Pair> load_pair(const std::string& spec_text, const std::string& impl_text) {
  auto sp = formats::load_program_text(spec_text, "spec");
  REQUIRE_MESSAGE(sp.ok(), (sp.ok() ? "" : sp.error().to_string()));
  auto ip = formats::load_program_text(impl_text, "impl");
  REQUIRE_MESSAGE(ip.ok(), (ip.ok() ? "" : ip.error().to_string()));
  auto made = checker::ProgramPair::make(sp->program, ip->program);
  REQUIRE_MESSAGE(made.ok(), (made.ok() ? "" : made.error().to_string()));
  return std::make_unique<Pair>(Pair{std::move(sp->program), std::move(ip->program), std::move(*made)});
}

// Checks with or without the reductions (and commit fusion, which goes with them).
inline checker::CheckResult run_check(const Pair& p, checker::CheckOptions o = {}) {
  auto pair = checker::ProgramPair::make(p.spec, p.impl, semantics::Options{o.reduction});
  REQUIRE(pair.ok());
  return checker::check(**pair, o);
}

// A plain breadth-first search that keeps whole states (as their full encodings) and applies
// every step with Lockstep::apply: what the explorer, with its part tables, lazy undo, step memo
// and all, must agree with. The numbers of states and transitions, or nothing if there are more
// than `cap` states.
struct PlainSearch {
  std::uint64_t states = 0, transitions = 0;
};
inline std::optional<PlainSearch> plain_search(const semantics::Lockstep& both, std::size_t cap) {
  const statespace::StateCodec codec(both);
  auto key = [&](const semantics::LockstepState& s) {
    std::vector<std::uint32_t> k;
    statespace::PartWords w;
    for (std::size_t i = 0; i < codec.parts(); ++i) {
      codec.encode_part(s, i, w);
      k.push_back(static_cast<std::uint32_t>(w.size()));
      k.insert(k.end(), w.data(), w.data() + w.size());
    }
    return k;
  };
  std::set<std::vector<std::uint32_t>> seen;
  std::deque<semantics::LockstepState> todo{both.initial()};
  seen.insert(key(todo.front()));
  PlainSearch out;
  std::vector<semantics::Step> steps;
  while (!todo.empty()) {
    if (seen.size() > cap) return std::nullopt;
    const auto s = std::move(todo.front());
    todo.pop_front();
    steps.clear();
    both.visible(s, steps);
    for (const auto& st : steps) {
      ++out.transitions;
      auto succ = s;
      both.apply(succ, st);
      if (seen.insert(key(succ)).second) todo.push_back(std::move(succ));
    }
  }
  out.states = seen.size();
  return out;
}

}  // namespace syncbisim::test
