#include "footprint/kernel.h"

#include <algorithm>

#include "model/walk.h"

namespace syncbisim::footprint {

const char* to_string(Hazard h) {
  switch (h) {
    case Hazard::RAW: return "RAW";
    case Hazard::WAR: return "WAR";
    default: return "WAW";
  }
}

std::optional<Hazard> hazard_between(model::AccessKind a, model::AccessKind b) {
  using K = model::AccessKind;
  if (a == K::Read && b == K::Read) return std::nullopt;
  if (a == K::Accumulate && b == K::Accumulate) return std::nullopt;  // commutative updates
  if (b == K::Read) return Hazard::RAW;
  if (a == K::Read) return Hazard::WAR;
  return Hazard::WAW;
}

namespace {

class Builder {
 public:
  Builder(const model::Program& p, const model::ProgramIndex& ix, Kernel& k) : p_(p), ix_(ix), k_(k) {}

  void run() {
    k_.engines = ix_.engines;
    for (const auto& b : p_.buffers) shapes_[b.name] = b.shape;
    model::walk(p_.body, *this);
  }

  // model::walk's hooks. Conds are refused with footprints (model::check_footprints); a spec
  // without footprints still has a program order through both branches, which the walk keeps.
  void stmt(const model::Stmt& st, std::size_t) {
    if (const auto* b = std::get_if<model::Block>(&st.node)) block(*b);
  }
  void enter_loop(const model::Loop& l) {
    KernelLoop kl;
    kl.name = l.id;
    if (l.trip) {
      kl.min_trip = model::choice_min(l.trip->uniform);
      kl.max_trip = model::choice_max(l.trip->uniform);
      kl.rule = l.trip->uniform;
    }
    around_.push_back(k_.loops.size());
    k_.loops.push_back(kl);
  }
  void leave_loop(const model::Loop&) { around_.pop_back(); }

 private:
  void block(const model::Block& b) {
    for (const auto& [si, ii] : b.in_program_order()) {
      const auto* in = std::get_if<model::Instr>(&b.streams[si].items[ii]);
      if (!in) continue;
      Statement s;
      s.instr = *ix_.instr(in->id);
      s.name = in->id;
      s.engine = *ix_.engine(b.streams[si].engine);
      s.loops = around_;
      s.position = k_.statements.size();
      for (auto kind : {model::AccessKind::Read, model::AccessKind::Write, model::AccessKind::Accumulate})
        for (const auto& a : in->footprint->of(kind)) {
          const auto it = shapes_.find(a.buffer);
          s.accesses.push_back(KernelAccess{kind, a, it == shapes_.end() ? std::vector<std::uint64_t>{} : it->second});
        }
      k_.by_name[s.name] = k_.statements.size();
      k_.statements.push_back(std::move(s));
    }
  }

  std::vector<std::size_t> around_;  // the loops around the statement walked, outermost first
  const model::Program& p_;
  const model::ProgramIndex& ix_;
  Kernel& k_;
  std::map<std::string, std::vector<std::uint64_t>> shapes_;
};

}  // namespace

Kernel Kernel::of(const model::Program& p, const model::ProgramIndex& ix) {
  Kernel k;
  Builder(p, ix, k).run();
  return k;
}

ElementBox elements_at(const Kernel& k, const Statement& s, const KernelAccess& a, const std::vector<std::int64_t>& iter) {
  const auto value = [&](const model::IndexExpr& e) {
    return e.eval([&](const std::string& name) -> std::int64_t {
      for (std::size_t i = 0; i < s.loops.size(); ++i)
        if (k.loops[s.loops[i]].name == name) return iter[i];
      return 0;  // the loader lets no other loop through
    }).value_or(0);
  };
  ElementBox out;
  for (std::size_t d = 0; d < a.access.index.size(); ++d) {
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(d < a.shape.size() ? a.shape[d] : 0);
    if (const auto* pt = std::get_if<model::IndexPoint>(&a.access.index[d])) {
      lo = value(pt->at);
      hi = lo + 1;
    } else if (const auto* r = std::get_if<model::IndexRange>(&a.access.index[d])) {
      if (r->lo) lo = value(*r->lo);
      if (r->hi) hi = value(*r->hi);
    }  // `?`: the whole dimension
    out.emplace_back(lo, hi);
  }
  return out;
}

std::vector<std::size_t> Kernel::common_loops(const Statement& a, const Statement& b) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < a.loops.size() && i < b.loops.size() && a.loops[i] == b.loops[i]; ++i)
    out.push_back(a.loops[i]);
  return out;
}

}  // namespace syncbisim::footprint
