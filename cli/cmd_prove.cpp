// syncbisim prove SPEC IMPL: the Z3 prover (docs/prover.md). Verdict first, one word;
// then one line per consumer.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/inputs.h"
#include "prover/prove.h"

namespace syncbisim::cli {

namespace {

struct ProveArgs {
  std::string spec, impl;
  bool json = false;
  bool no_replay = false;
  unsigned timeout_ms = 10000;
};

nlohmann::json to_json(const prover::ProveResult& r) {
  nlohmann::json out{{"verdict", prover::to_string(r.verdict)}, {"seconds", r.seconds}};
  auto& cs = out["consumers"] = nlohmann::json::array();
  for (const auto& c : r.consumers) {
    nlohmann::json j{
        {"instr", c.instr}, {"engine", c.engine}, {"answer", prover::to_string(c.answer)}, {"seconds", c.seconds}};
    if (!c.reason.empty()) j["reason"] = c.reason;
    if (!c.model.trips.empty() || !c.model.retired.empty())
      j["counterexample"] = {{"trips", c.model.trips}, {"iteration", c.model.iteration}, {"retired", c.model.retired}};
    if (c.answer == prover::Answer::Refuted)
      j["violation"] = {{"kind", c.replay.kind},
                        {"description", c.replay.description},
                        {"states", c.replay.states},
                        {"trace", c.replay.trace}};
    cs.push_back(std::move(j));
  }
  return out;
}

int prove(const ProveArgs& a) {
  int status = 0;
  auto pair = load_pair(a.spec, a.impl, status);
  if (!pair) return status;
  prover::ProveOptions o;
  o.replay = !a.no_replay;
  o.z3_timeout_ms = a.timeout_ms;
  const auto r = prover::prove(pair->spec.program, pair->spec.index, pair->impl.program, pair->impl.index, o);
  if (a.json) {
    std::cout << to_json(r).dump(2) << "\n";
  } else {
    std::cout << prover::to_string(r.verdict) << "\n";
    for (const auto& c : r.consumers) {
      std::cout << c.instr << " (" << c.engine << "): " << prover::to_string(c.answer);
      if (!c.reason.empty()) std::cout << ": " << c.reason;
      std::cout << "\n";
    }
  }
  return prover::exit_status(r.verdict);
}

}  // namespace

void add_prove(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<ProveArgs>();
  auto* cmd = app.add_subcommand(
      "prove", "Prove with Z3, for every trip count, that each wait holds exactly when its dependencies are satisfied");
  cmd->add_option("SPEC", a->spec, "spec program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_option("IMPL", a->impl, "impl program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", a->json, "print one JSON document");
  cmd->add_flag("--no-replay", a->no_replay, "do not replay counterexamples with the explorer (they stay unknown)");
  cmd->add_option("--timeout-ms", a->timeout_ms, "Z3 time limit per query")->capture_default_str();
  cmd->callback([a, &ctx] { ctx.status = prove(*a); });
}

}  // namespace syncbisim::cli
