#include "prover/register_peaks.h"

#include <algorithm>
#include <vector>

namespace syncbisim::prover {

namespace {

// The abstract state: per register of the engine, the largest value it can hold here.
using Bounds = std::vector<std::uint64_t>;

void join_into(Bounds& into, const Bounds& other) {
  for (std::size_t k = 0; k < into.size(); ++k) into[k] = std::max(into[k], other[k]);
}

struct OverBudget {};

class AbstractRun {
 public:
  AbstractRun(const Places& places, model::EngineId e, const std::function<std::uint64_t(model::LoopId)>& trip_hi,
              const RegisterPeaksOptions& o)
      : places_(places), e_(e), trip_hi_(trip_hi), o_(o) {
    for (const auto& w : places.writes())
      if (w.engine == e) id_of(w.dst);
  }

  std::map<std::string, std::uint64_t> run() {
    Bounds s(names_.size(), 0);  // every register starts at 0 (docs/semantics.md §4)
    peak_.assign(names_.size(), 0);
    try {
      body(model::kTop, s);
    } catch (const OverBudget&) {
      std::fill(peak_.begin(), peak_.end(), kNoBound);
    }
    std::map<std::string, std::uint64_t> out;
    for (std::size_t k = 0; k < names_.size(); ++k) out[names_[k]] = peak_[k];
    return out;
  }

 private:
  std::size_t id_of(const std::string& r) {
    const auto it = ids_.find(r);
    if (it != ids_.end()) return it->second;
    ids_.emplace(r, names_.size());
    names_.push_back(r);
    return names_.size() - 1;
  }

  void body(model::LoopId l, Bounds& s) {
    for (const auto& st : places_.body(l)) {
      if (st.block) {
        for (const auto& it : st.items[e_])
          if (it.kind == ItemRef::Kind::Write) write(places_.writes()[it.index], s);
      } else if (st.loops.size() == 2) {
        // A cond: one of its branches runs.
        Bounds other = s;
        body(st.loops[0], s);
        body(st.loops[1], other);
        join_into(s, other);
      } else {
        loop(st.loops[0], s);
      }
    }
  }

  // The states after 0, 1, ..., T iterations, joined: every trip the rule allows, and every
  // iteration of each (the transfer is monotone, so a run's state is below the abstract one).
  void loop(model::LoopId l, Bounds& s) {
    const auto trips = trip_hi_(l);
    Bounds joined = s;
    std::uint64_t k = 0;
    for (; k < trips && k < o_.iterations_per_loop; ++k) {
      Bounds next = s;
      body(l, next);
      if (next == s) break;  // a fixed point: later iterations repeat this one
      s = std::move(next);
      join_into(joined, s);
    }
    if (k == trips || k < o_.iterations_per_loop) {
      s = std::move(joined);
      return;
    }
    // More iterations than are run one by one: what still changes is given up, until nothing does
    // (each round gives up one register at least, so this ends).
    for (;;) {
      Bounds next = s;
      body(l, next);
      bool changed = false;
      for (std::size_t r = 0; r < next.size(); ++r)
        if (next[r] != s[r]) {
          s[r] = kNoBound;
          changed = true;
        }
      if (!changed) break;
    }
    join_into(joined, s);
    s = std::move(joined);
  }

  void write(const RegWrite& w, Bounds& s) {
    if (++writes_ > o_.max_writes) throw OverBudget{};
    std::vector<std::uint64_t> v;
    v.reserve(w.expr.nodes.size());
    std::uint64_t most = 0;
    for (const auto& n : w.expr.nodes) {
      switch (n.op) {
        case model::ExprOp::Const:
          v.push_back(n.value);
          most = std::max(most, n.value);
          break;
        case model::ExprOp::Reg: {
          const auto it = ids_.find(n.reg);
          v.push_back(it == ids_.end() ? 0 : s[it->second]);  // never written on e: 0
          break;
        }
        case model::ExprOp::Add:
          v.push_back(sat_add(v[n.lhs], v[n.rhs]));
          most = std::max(most, v.back());
          break;
        case model::ExprOp::Sub: v.push_back(v[n.lhs]); break;  // truncated at 0: at most the left operand
        case model::ExprOp::Mul:
          v.push_back(sat_mul(v[n.lhs], v[n.rhs]));
          most = std::max(most, v.back());
          break;
        case model::ExprOp::IsGt: v.push_back(1); break;
      }
    }
    const auto value = v.empty() ? 0 : v.back();
    const auto d = ids_.at(w.dst);
    peak_[d] = std::max({peak_[d], most, value});
    s[d] = value;
  }

  const Places& places_;
  model::EngineId e_;
  const std::function<std::uint64_t(model::LoopId)>& trip_hi_;
  const RegisterPeaksOptions& o_;
  std::map<std::string, std::size_t> ids_;
  std::vector<std::string> names_;
  Bounds peak_;
  std::uint64_t writes_ = 0;
};

}  // namespace

std::map<std::string, std::uint64_t> register_peaks(const Places& places, model::EngineId e,
                                                    const std::function<std::uint64_t(model::LoopId)>& trip_hi,
                                                    const RegisterPeaksOptions& o) {
  return AbstractRun(places, e, trip_hi, o).run();
}

}  // namespace syncbisim::prover
