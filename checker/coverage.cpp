#include "checker/coverage.h"

#include <cstdio>

namespace syncbisim::checker {

namespace {

std::string dependency_label(const semantics::CompiledProgram& sp, const semantics::CompiledDep& d) {
  std::string s = sp.instrs[d.producer].name + " -> " + sp.instrs[d.consumer].name;
  std::string dist;
  for (std::size_t k = 0; k < d.common.size() && k < d.distance.size(); ++k)
    if (k >= d.whole_from) dist += (dist.empty() ? "" : ", ") + sp.loops[d.common[k]].name + ": *";
    else if (d.distance[k] > 0)
      dist += (dist.empty() ? "" : ", ") + sp.loops[d.common[k]].name + ": " + std::to_string(d.distance[k]);
  return dist.empty() ? s : s + " {" + dist + "}";
}

std::string wait_label(const semantics::CompiledProgram& ip, const WaitCoverage& w) {
  const auto& in = ip.instrs[w.instr];
  const auto& cw = in.waits[w.index];
  return ip.engines[in.engine] + " " + in.name + ": " + ip.semaphores[cw.sem] +
         " >= " + (cw.reg_threshold ? ip.registers[cw.reg] : std::to_string(cw.value));
}

}  // namespace

Coverage::Coverage(const semantics::Lockstep& both) : both_(&both) {
  deps_.resize(both.spec().program().deps.size());
  const auto& ip = both.impl().program();
  first_wait_.resize(ip.instrs.size());
  for (semantics::InstrId i = 0; i < ip.instrs.size(); ++i) {
    first_wait_[i] = waits_.size();
    for (std::size_t k = 0; k < ip.instrs[i].waits.size(); ++k) waits_.push_back(WaitCoverage{i, k, 0, 0});
  }
}

void Coverage::observe(const semantics::LockstepState& s) {
  ++states_;
  const auto& spec = both_->spec();
  const auto& impl = both_->impl();
  for (semantics::EngineId e = 0; e < spec.program().engine_count(); ++e) {
    for (const auto& c : spec.explain(s.spec, e)) {
      auto& d = deps_[c.dep];
      ++d.reached;
      if (!c.underflow) ++d.owed;
      if (!c.satisfied()) ++d.held;
    }
    const auto& op = impl.control().next_op(s.impl.control, e);
    if (op.kind != semantics::OpKind::Instr) continue;
    const auto checks = impl.explain(s.impl, e);
    for (std::size_t k = 0; k < checks.size(); ++k) {
      auto& w = waits_[first_wait_[op.a] + k];
      ++w.reached;
      if (!checks[k].holds()) ++w.blocked;
    }
  }
}

std::string Coverage::render_text() const {
  const auto& sp = both_->spec().program();
  const auto& ip = both_->impl().program();
  std::string out = "coverage over " + std::to_string(states_) + " explored states\n";
  std::size_t held = 0, owed_only = 0, never = 0, unreached = 0;
  std::string owed_lines, never_lines;
  for (std::size_t i = 0; i < deps_.size(); ++i) {
    const auto& d = deps_[i];
    const auto label = dependency_label(sp, sp.deps[i]);
    if (d.held > 0) {
      ++held;
    } else if (d.owed > 0) {
      ++owed_only;
      owed_lines +=
          "    " + label + ": owed in " + std::to_string(d.owed) +
          " states, never holding its consumer back (its producer was always ahead: another dependency may imply it)\n";
    } else if (d.reached > 0) {
      ++never;
      never_lines += "    " + label + ": never owed in " + std::to_string(d.reached) +
                     " states (every target underflows at these trips: a bug in its wait cannot show)\n";
    } else {
      ++unreached;
      never_lines += "    " + label + ": its consumer was never next to issue\n";
    }
  }
  char line[200];
  std::snprintf(line, sizeof line,
                "  dependencies (%zu): %zu held their consumer back, %zu only owed, %zu never owed, %zu not reached\n",
                deps_.size(), held, owed_only, never, unreached);
  out += line + owed_lines + never_lines;
  std::size_t blocked = 0;
  std::string quiet;
  for (const auto& w : waits_) {
    if (w.blocked > 0) ++blocked;
    else
      quiet += "    " + wait_label(ip, w) + ": checked in " + std::to_string(w.reached) +
               " states, never blocked (redundant at these trips?)\n";
  }
  std::snprintf(line, sizeof line, "  waits (%zu): %zu blocked, %zu never blocked\n", waits_.size(), blocked,
                waits_.size() - blocked);
  return out + line + quiet;
}

nlohmann::json Coverage::render_json() const {
  const auto& sp = both_->spec().program();
  const auto& ip = both_->impl().program();
  nlohmann::json deps = nlohmann::json::array();
  for (std::size_t i = 0; i < deps_.size(); ++i) {
    const auto& d = sp.deps[i];
    nlohmann::json dist = nlohmann::json::object();
    for (std::size_t k = 0; k < d.common.size() && k < d.distance.size(); ++k)
      if (k >= d.whole_from) dist[sp.loops[d.common[k]].name] = "*";  // L=*: every iteration
      else if (d.distance[k] > 0) dist[sp.loops[d.common[k]].name] = d.distance[k];
    deps.push_back({{"producer", sp.instrs[d.producer].name},
                    {"consumer", sp.instrs[d.consumer].name},
                    {"distance", dist},
                    {"reached", deps_[i].reached},
                    {"owed", deps_[i].owed},
                    {"held", deps_[i].held}});
  }
  nlohmann::json waits = nlohmann::json::array();
  for (const auto& w : waits_) {
    const auto& in = ip.instrs[w.instr];
    const auto& cw = in.waits[w.index];
    waits.push_back({{"engine", ip.engines[in.engine]},
                     {"instr", in.name},
                     {"sem", ip.semaphores[cw.sem]},
                     // "ge" as in the impl's JSON (a register or a constant); "threshold" is a value.
                     {"ge", cw.reg_threshold ? nlohmann::json(ip.registers[cw.reg]) : nlohmann::json(cw.value)},
                     {"reached", w.reached},
                     {"blocked", w.blocked}});
  }
  return {{"states", states_}, {"dependencies", deps}, {"waits", waits}};
}

}  // namespace syncbisim::checker
