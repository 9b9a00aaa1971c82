#include "allocator/registers.h"

#include <algorithm>

namespace syncbisim::allocator {

Registers::Registers(const model::ProgramIndex& ix, NameTable& names) : ix_(&ix), names_(&names) {
  const auto nl = ix.loops.size(), ne = ix.engines.size();
  r_names_.resize(nl);
  rh_names_.resize(nl);
  for (model::LoopId l = 1; l < nl; ++l) {
    r_names_[l] = names.fresh("r_", ix.loops[l].name);
    rh_names_[l] = names.fresh("rh_", ix.loops[l].name);
    by_name_[r_names_[l]] = {0, l, 0};
    by_name_[rh_names_[l]] = {1, l, 0};
  }
  trip_.assign(nl, false);
  read_r_.assign(nl, std::vector<bool>(ne, false));
  read_rh_ = keep_r_ = keep_rh_ = read_r_;
}

model::Expr Registers::r(model::LoopId l) const {
  if (l == model::kTop) return model::Expr::constant(1);
  return model::Expr::reg(r_names_[l]);
}

model::Expr Registers::rh(model::LoopId l) const { return model::Expr::reg(rh_names_[l]); }

model::Expr Registers::snapshot(model::LoopId loop, model::LoopId source, std::uint32_t j) {
  auto it =
      std::find_if(rings_.begin(), rings_.end(), [&](const Ring& g) { return g.loop == loop && g.source == source; });
  if (it == rings_.end()) {
    const auto ne = ix_->engines.size();
    rings_.push_back(Ring{loop, source, {}, std::vector<std::uint32_t>(ne, 0), std::vector<std::uint32_t>(ne, 0)});
    it = rings_.end() - 1;
  }
  const auto index = static_cast<std::size_t>(it - rings_.begin());
  while (it->names.size() < j) {
    // r_B at the start of A's current iteration: r_B_at_A_1; one before: r_B_at_A_2.
    const auto n = names_->fresh(
        "r_", ix_->loops[source].name + "_at_" + ix_->loops[loop].name + "_" + std::to_string(it->names.size() + 1));
    by_name_[n] = {2, index, static_cast<std::uint32_t>(it->names.size() + 1)};
    it->names.push_back(n);
  }
  return model::Expr::reg(it->names[j - 1]);
}

std::optional<model::LoopId> Registers::written_by(const std::string& name) const {
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  const auto [kind, l, j] = it->second;
  return kind == 2 ? rings_[l].loop : static_cast<model::LoopId>(l);
}

void Registers::record_reads(const model::Expr& e, model::EngineId engine) {
  for (const auto& name : e.registers()) {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) continue;  // a temporary
    const auto [kind, l, j] = it->second;
    if (kind == 0) read_r_[l][engine] = true;
    else if (kind == 1) read_rh_[l][engine] = true;
    else rings_[l].read[engine] = std::max(rings_[l].read[engine], j);
  }
}

void Registers::finalize(bool prune) {
  const auto ne = ix_->engines.size();
  // A ring kept on an engine reads r_source there.
  for (auto& g : rings_) {
    const auto longest = *std::max_element(g.read.begin(), g.read.end());
    for (std::size_t e = 0; e < ne; ++e) {
      g.keep[e] = prune ? g.read[e] : longest;
      if (g.keep[e] > 0) read_r_[g.source][e] = true;
    }
  }
  for (model::LoopId l = 1; l < ix_->loops.size(); ++l) {
    bool any_rh = false;
    for (std::size_t e = 0; e < ne; ++e) any_rh = any_rh || read_rh_[l][e];
    for (std::size_t e = 0; e < ne; ++e) {
      if (prune) {
        keep_r_[l][e] = read_r_[l][e];
        keep_rh_[l][e] = read_rh_[l][e];
      } else {  // paper §5.1: the same register families on every engine
        keep_r_[l][e] = true;
        keep_rh_[l][e] = trip_[l] || any_rh;
      }
    }
  }
}

std::vector<model::RegOp> Registers::ring_updates(model::LoopId l, model::EngineId e) const {
  std::vector<model::RegOp> out;
  for (const auto& g : rings_) {
    if (g.loop != l || g.keep[e] == 0) continue;
    for (auto j = g.keep[e]; j >= 2; --j)
      out.push_back(model::RegOp{g.names[j - 1], model::Expr::reg(g.names[j - 2]), {}});
    out.push_back(model::RegOp{g.names[0], r(g.source), {}});
  }
  return out;
}

}  // namespace syncbisim::allocator
