#include "allocator/share_waits.h"

#include <map>
#include <set>
#include <unordered_map>

#include "model/walk.h"

namespace syncbisim::allocator {

namespace {

using model::Expr;
using model::ExprOp;

// A subexpression as a key: its text with every register tagged by how often it had been
// written before (so two occurrences with the same key read the same values).
struct Keyer {
  const std::unordered_map<std::string, std::uint32_t>& version;

  std::string key(const Expr& e, std::uint32_t n) const {
    const auto& node = e.nodes[n];
    switch (node.op) {
      case ExprOp::Const: return std::to_string(node.value);
      case ExprOp::Reg: {
        auto it = version.find(node.reg);
        return node.reg + "#" + std::to_string(it == version.end() ? 0 : it->second);
      }
      default: {
        const char* op = node.op == ExprOp::Add   ? "+"
                         : node.op == ExprOp::Sub ? "-"
                         : node.op == ExprOp::Mul ? "*"
                                                  : "isgt";
        return std::string("(") + op + " " + key(e, node.lhs) + " " + key(e, node.rhs) + ")";
      }
    }
  }
};

bool is_leaf(const model::ExprNode& n) { return n.op == ExprOp::Const || n.op == ExprOp::Reg; }

// The subexpression rooted at node n, as an Expr of its own.
Expr subtree(const Expr& e, std::uint32_t n) {
  const auto& node = e.nodes[n];
  if (node.op == ExprOp::Const) return Expr::constant(node.value);
  if (node.op == ExprOp::Reg) return Expr::reg(node.reg);
  return Expr::binary(node.op, subtree(e, node.lhs), subtree(e, node.rhs));
}

// e with every subexpression whose key is in `regs` replaced by that register.
Expr replace(const Expr& e, std::uint32_t n, const Keyer& k, const std::map<std::string, std::string>& regs, bool top) {
  const auto& node = e.nodes[n];
  if (is_leaf(node)) return subtree(e, n);
  if (!top)
    if (auto it = regs.find(k.key(e, n)); it != regs.end()) return Expr::reg(it->second);
  return Expr::binary(node.op, replace(e, node.lhs, k, regs, false), replace(e, node.rhs, k, regs, false));
}

// mask * (X - c) with mask = isgt(..) and c a constant equals mask * X - c on the naturals
// (mask 0: both 0, since - truncates at 0; mask 1: both X - c). Written that way, the waits of
// one loop body that differ only in c (the per-loop decode N * expr - (N - K), paper §5.4)
// share mask * X.
Expr distribute(const Expr& e) {
  const auto& root = e.nodes.back();
  if (root.op != ExprOp::Mul) return e;
  for (int side = 0; side < 2; ++side) {
    const auto m = side == 0 ? root.lhs : root.rhs, x = side == 0 ? root.rhs : root.lhs;
    const auto& mn = e.nodes[m];
    const auto& xn = e.nodes[x];
    if (mn.op == ExprOp::IsGt && xn.op == ExprOp::Sub && e.nodes[xn.rhs].op == ExprOp::Const)
      return Expr::binary(ExprOp::Sub, Expr::binary(ExprOp::Mul, subtree(e, m), subtree(e, xn.lhs)),
                          subtree(e, xn.rhs));
  }
  return e;
}

struct Stream {
  std::vector<model::Item>& items;
  const std::set<std::string>& taken;  // the allocator's register names on this engine
  std::size_t counter = 0;

  // cse1, cse2, ... afresh in every stream (a shared value lives within its stream only, so the
  // names are reused across blocks), skipping the allocator's own register names
  std::string fresh() {
    for (;;) {
      auto n = "cse" + std::to_string(++counter);
      if (!taken.count(n)) return n;
    }
  }

  std::size_t run() {
    // Pass 1: count every operator subexpression's key over the stream.
    std::unordered_map<std::string, std::uint32_t> version;
    std::map<std::string, std::size_t> count;
    std::map<std::string, std::pair<std::size_t, Expr>> first;  // key -> (item index, subexpression)
    for (auto& it : items)
      if (auto* r = std::get_if<model::RegOp>(&it)) r->expr = distribute(r->expr);
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto* r = std::get_if<model::RegOp>(&items[i]);
      if (!r) continue;
      const Keyer k{version};
      for (std::uint32_t n = 0; n < r->expr.nodes.size(); ++n) {
        if (is_leaf(r->expr.nodes[n])) continue;
        const auto key = k.key(r->expr, n);
        if (++count[key] == 1) first.emplace(key, std::make_pair(i, subtree(r->expr, n)));
      }
      ++version[r->dst];
    }
    // Pass 2: keys seen twice or more get a register, defined before their first use (in order
    // of first use, so an inner shared subexpression is defined before an outer one).
    std::map<std::size_t, std::vector<std::string>> define_before;
    std::map<std::string, std::string> reg_of;  // the shared keys defined so far, and their registers
    std::size_t shared = 0;
    for (const auto& [key, c] : count)
      if (c >= 2) {
        define_before[first[key].first].push_back(key);
        ++shared;
      }
    if (shared == 0) {
      drop_copies();
      return 0;
    }
    std::vector<model::Item> out;
    version.clear();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (auto it = define_before.find(i); it != define_before.end()) {
        const Keyer k{version};
        // smaller (inner) subexpressions first: their keys are shorter
        auto keys = it->second;
        std::sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
          return a.size() != b.size() ? a.size() < b.size() : a < b;
        });
        for (const auto& key : keys) {
          const auto& e = first[key].second;
          const auto reg = fresh();  // numbered in the order of definition
          out.push_back(
              model::RegOp{reg, replace(e, static_cast<std::uint32_t>(e.nodes.size() - 1), k, reg_of, true), {}});
          reg_of[key] = reg;
          ++version[reg];
        }
      }
      if (auto* r = std::get_if<model::RegOp>(&items[i])) {
        const Keyer k{version};
        model::RegOp nr = *r;
        nr.expr = replace(r->expr, static_cast<std::uint32_t>(r->expr.nodes.size() - 1), k, reg_of, false);
        ++version[r->dst];
        out.emplace_back(std::in_place_type<model::RegOp>, std::move(nr));
      } else {
        out.push_back(std::move(items[i]));
      }
    }
    items = std::move(out);
    drop_copies();
    return shared;
  }

  // `w := x` read only by the next instruction's waits (the allocator's wait temporaries, which
  // no expression reads): the waits read x itself, and the copy goes.
  void drop_copies() {
    std::vector<model::Item> out;
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto* r = std::get_if<model::RegOp>(&items[i]);
      if (r && r->expr.nodes.size() == 1 && r->expr.nodes[0].op == ExprOp::Reg && !read_by_exprs.count(r->dst)) {
        const auto src = r->expr.nodes[0].reg;
        // the next instruction, with no write of src or dst in between
        std::size_t j = i + 1;
        bool clean = true;
        for (; j < items.size() && !std::holds_alternative<model::Instr>(items[j]); ++j)
          if (const auto* q = std::get_if<model::RegOp>(&items[j]); q && (q->dst == src || q->dst == r->dst))
            clean = false;
        if (clean && j < items.size()) {
          for (auto& w : std::get<model::Instr>(items[j]).waits)
            if (auto* reg = std::get_if<std::string>(&w.ge); reg && *reg == r->dst) *reg = src;
          continue;  // the copy is not needed
        }
      }
      out.push_back(std::move(items[i]));
    }
    items = std::move(out);
  }

  const std::set<std::string>& read_by_exprs;
};

}  // namespace

std::size_t share_wait_values(model::Program& impl) {
  // registers per engine, so that new names never collide with the allocator's
  std::map<std::string, std::set<std::string>> taken, read;
  model::for_each_stream(impl.body, [&](model::Stream& s) {
    for (const auto& it : s.items)
      if (const auto* r = std::get_if<model::RegOp>(&it)) {
        taken[s.engine].insert(r->dst);
        for (const auto& n : r->expr.registers()) {
          taken[s.engine].insert(n);
          read[s.engine].insert(n);
        }
      } else if (const auto* in = std::get_if<model::Instr>(&it)) {
        for (const auto& w : in->waits)
          if (const auto* reg = std::get_if<std::string>(&w.ge)) taken[s.engine].insert(*reg);
      }
  });
  std::size_t shared = 0;
  model::for_each_stream(impl.body, [&](model::Stream& s) {
    shared += Stream{s.items, taken[s.engine], 0, read[s.engine]}.run();
  });
  return shared;
}

}  // namespace syncbisim::allocator
