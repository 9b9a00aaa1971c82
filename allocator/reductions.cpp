#include "allocator/reductions.h"

#include "allocator/detail/shared_subexpressions.h"
#include "allocator/detail/value_tree.h"

#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace syncbisim::allocator {

namespace {

using detail::binary;
using detail::cost;
using detail::expr_of;
using detail::key;
using detail::reg;
using detail::Tree;
using detail::tree_of;
using model::Expr;
using model::ExprOp;
using model::LoopId;

// Left to right: ((o1 op o2) op o3) ...
Tree combine(ExprOp op, std::vector<Tree> ops) {
  Tree acc = std::move(ops[0]);
  for (std::size_t i = 1; i < ops.size(); ++i) acc = detail::node(op, std::move(acc), std::move(ops[i]));
  return acc;
}

// The operands of a chain of one associative operator (+ or *), in order.
void flatten(const Tree& t, ExprOp op, std::vector<const Tree*>& out) {
  if (t.op == op) {
    flatten(t.kids[0], op, out);
    flatten(t.kids[1], op, out);
  } else {
    out.push_back(&t);
  }
}

// Registers computed before a loop statement, shared by equal values (with CSE).
using HoistTable = std::map<std::tuple<LoopId, model::EngineId, std::string>, std::string>;

// Loop-invariant code motion for one consumer. The consumer sits in a_0 = its parent loop,
// inside a_1, ..., a_K = @top. A value has level L when no register it reads is written inside
// a_0 .. a_(L-1) (a loop's registers are written inside its own subtree), so it can be
// computed once before a_(L-1)'s statement.
class Hoister {
 public:
  Hoister(const SpecFacts& facts, const Registers& regs, NameTable& names, Plan& plan, HoistTable& table, bool share,
          model::EngineId e, std::vector<LoopId> chain)
      : facts_(facts),
        regs_(regs),
        names_(names),
        plan_(plan),
        table_(table),
        share_(share),
        e_(e),
        chain_(std::move(chain)),
        top_(static_cast<std::uint32_t>(chain_.size() - 1)) {}

  Tree root(const Tree& t) {
    auto v = visit(t);
    if (v.level >= 1 && cost(v.t) >= 1) return cache(std::move(v.t), v.level);
    return std::move(v.t);
  }

 private:
  struct Visited {
    Tree t;
    std::uint32_t level;
    bool changed;
  };

  std::uint32_t level_of(const std::string& name) const {
    const auto l = regs_.written_by(name);
    if (!l) return 0;
    for (std::uint32_t i = 0; i < chain_.size(); ++i)
      if (facts_.ix.encloses(chain_[i], *l)) return i;
    return 0;
  }

  Tree cache(Tree value, std::uint32_t level) {
    const LoopId before = chain_[level - 1];
    const auto k = std::make_tuple(before, e_, key(value));
    if (share_)
      if (auto it = table_.find(k); it != table_.end()) return reg(it->second);
    const auto name = names_.fresh("h_", facts_.ix.loops[before].name);
    plan_.loops[before].hoisted[e_].push_back(model::RegOp{name, expr_of(value), {}});
    table_[k] = name;
    return reg(name);
  }

  Visited visit(const Tree& t) {
    if (t.op == ExprOp::Const) return {t, top_, false};
    if (t.op == ExprOp::Reg) return {t, level_of(t.reg), false};
    if (t.op == ExprOp::Add || t.op == ExprOp::Mul) return chain(t);
    // - and isgt: a unit, or its invariant operands hoisted one by one.
    auto a = visit(t.kids[0]), b = visit(t.kids[1]);
    const auto level = std::min(a.level, b.level);
    bool changed = a.changed || b.changed;
    if (level == 0)
      for (auto* v : {&a, &b})
        if (v->level >= 1 && cost(v->t) >= 1) {
          v->t = cache(std::move(v->t), v->level);
          changed = true;
        }
    if (!changed) return {t, level, false};
    return {detail::node(t.op, std::move(a.t), std::move(b.t)), level, true};
  }

  // A + or * chain: operands regrouped by level, each group (with the next outer group's
  // register) computed before the loop it can leave: the outer partial sums of paper §6.2.
  Visited chain(const Tree& t) {
    std::vector<const Tree*> operands;
    flatten(t, t.op, operands);
    std::vector<Visited> vs;
    std::uint32_t level = top_;
    bool changed = false;
    for (const auto* o : operands) {
      vs.push_back(visit(*o));
      level = std::min(level, vs.back().level);
      changed = changed || vs.back().changed;
    }
    const auto as_is = [&]() -> Visited {
      if (!changed) return {t, level, false};
      std::vector<Tree> ops;
      for (auto& v : vs) ops.push_back(std::move(v.t));
      return {combine(t.op, std::move(ops)), level, true};
    };
    if (level >= 1) return as_is();
    std::optional<Tree> acc;
    bool hoisted = false;
    for (std::uint32_t l = top_; l >= 1; --l) {
      std::vector<Tree> group;
      if (acc) group.push_back(*acc);
      for (const auto& v : vs)
        if (v.level == l) group.push_back(v.t);
      if (group.empty()) continue;
      const bool only_acc = acc && group.size() == 1;
      Tree value = group.size() == 1 ? std::move(group[0]) : combine(t.op, std::move(group));
      if (!only_acc && cost(value) >= 1) {
        acc = cache(std::move(value), l);
        hoisted = true;
      } else {
        acc = std::move(value);
      }
    }
    if (!hoisted) return as_is();
    std::vector<Tree> rest{std::move(*acc)};
    for (auto& v : vs)
      if (v.level == 0) rest.push_back(std::move(v.t));
    return {combine(t.op, std::move(rest)), 0, true};
  }

  const SpecFacts& facts_;
  const Registers& regs_;
  NameTable& names_;
  Plan& plan_;
  HoistTable& table_;
  bool share_;
  model::EngineId e_;
  std::vector<LoopId> chain_;
  std::uint32_t top_;
};

void registers_in(const Tree& t, std::vector<std::string>& out) {
  if (t.op == ExprOp::Reg) out.push_back(t.reg);
  for (const auto& k : t.kids) registers_in(k, out);
}

}  // namespace

void lower_waits(const SpecFacts& facts, const Registers& regs, NameTable& names, Plan& plan,
                 const Reductions& reductions) {
  const auto& ix = facts.ix;
  HoistTable table;
  // LICM first, consumer by consumer; then per region and engine, CSE and the temporaries.
  std::vector<std::vector<std::optional<Tree>>> residual(ix.instrs.size());
  std::set<std::string> direct;  // registers a wait may read as they are (hoisted or shared)
  for (model::InstrId i = 0; i < ix.instrs.size(); ++i) {
    if (plan.instrs[i].wanted.empty()) continue;  // most instructions: no loop chain to build
    const auto e = ix.instrs[i].engine;
    auto path = ix.path(ix.instrs[i].parent);
    const std::vector<LoopId> chain(path.rbegin(), path.rend());
    Hoister hoist(facts, regs, names, plan, table, reductions.cse, e, chain);
    for (const auto& w : plan.instrs[i].wanted) {
      if (w.threshold.is_constant()) {
        residual[i].push_back(std::nullopt);
        continue;
      }
      auto t = tree_of(w.threshold);
      if (reductions.licm) {
        t = hoist.root(t);
        if (t.op == ExprOp::Reg && !regs.written_by(t.reg)) direct.insert(t.reg);
      }
      residual[i].push_back(std::move(t));
    }
  }
  for (const auto& region : facts.layout.regions)
    for (model::EngineId e = 0; e < region.per_engine.size(); ++e) {
      const auto& instrs = region.per_engine[e];
      detail::Shared shared;
      if (reductions.cse) {
        std::vector<Tree*> pool;
        for (auto i : instrs)
          for (auto& t : residual[i])
            if (t) pool.push_back(&*t);
        shared = detail::share(pool);
        for (const auto& [n, d] : shared.defs) direct.insert(n);
      }
      std::map<std::string, const Tree*> def_of;
      for (const auto& [n, d] : shared.defs) def_of[n] = &d;
      std::set<std::string> emitted;
      for (auto i : instrs) {
        auto& ip = plan.instrs[i];
        // The shared values this consumer reads, each after the ones it reads itself.
        const std::function<void(const Tree&)> need = [&](const Tree& t) {
          std::vector<std::string> rs;
          registers_in(t, rs);
          for (const auto& r : rs) {
            const auto it = def_of.find(r);
            if (it == def_of.end() || emitted.count(r)) continue;
            need(*it->second);
            emitted.insert(r);
            ip.pre.push_back(model::RegOp{r, expr_of(*it->second), {}});
          }
        };
        int temps = 0;
        for (std::size_t k = 0; k < ip.wanted.size(); ++k) {
          const auto& sem = ip.wanted[k].sem;
          if (!residual[i][k]) {
            ip.waits.push_back(model::Wait{sem, ip.wanted[k].threshold.nodes[0].value});
            continue;
          }
          const auto& t = *residual[i][k];
          need(t);
          if (t.op == ExprOp::Reg &&
              (direct.count(t.reg) || plan.direct.count(t.reg) || (reductions.direct && regs.written_by(t.reg)))) {
            ip.waits.push_back(model::Wait{sem, t.reg});
            continue;
          }
          // Temporaries live from here to the issue: w, w2, w3 for the first, second, third
          // computed wait of one consumer (loop registers start with r_ / rh_, hoisted ones
          // with h_, shared ones are cs1, cs2: no clash).
          const std::string w = temps == 0 ? "w" : "w" + std::to_string(temps + 1);
          ++temps;
          ip.pre.push_back(model::RegOp{w, expr_of(t), {}});
          ip.waits.push_back(model::Wait{sem, w});
        }
      }
    }
}

}  // namespace syncbisim::allocator
