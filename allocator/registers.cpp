#include "allocator/registers.h"

namespace syncbisim::allocator {

Registers::Registers(const model::ProgramIndex& ix, NameTable& names) : ix_(&ix) {
  const auto nl = ix.loops.size(), ne = ix.engines.size();
  r_names_.resize(nl);
  rh_names_.resize(nl);
  for (model::LoopId l = 1; l < nl; ++l) {
    r_names_[l] = names.fresh("r_", ix.loops[l].name);
    rh_names_[l] = names.fresh("rh_", ix.loops[l].name);
    by_name_[r_names_[l]] = {l, false};
    by_name_[rh_names_[l]] = {l, true};
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

void Registers::record_reads(const model::Expr& e, model::EngineId engine) {
  for (const auto& name : e.registers()) {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) continue;  // a temporary
    const auto [l, is_rh] = it->second;
    (is_rh ? read_rh_ : read_r_)[l][engine] = true;
  }
}

void Registers::finalize(bool prune) {
  for (model::LoopId l = 1; l < ix_->loops.size(); ++l) {
    bool any_rh = false;
    for (std::size_t e = 0; e < ix_->engines.size(); ++e) any_rh = any_rh || read_rh_[l][e];
    for (std::size_t e = 0; e < ix_->engines.size(); ++e) {
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

}  // namespace syncbisim::allocator
