#include "allocator/register_reuse.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <variant>

#include "allocator/detail/block_edit.h"
#include "analysis/register_liveness.h"

namespace syncbisim::allocator {

namespace {

// engine -> register -> the register it becomes
using Renaming = std::unordered_map<std::string, std::unordered_map<std::string, std::string>>;

// In place: the item is the rewrite's own (a copy of every expression was a fifth of the memory
// allocated at 1,000 nests).
void rename_in(model::Expr& e, const std::unordered_map<std::string, std::string>& to) {
  for (auto& n : e.nodes)
    if (n.op == model::ExprOp::Reg)
      if (auto it = to.find(n.reg); it != to.end()) n.reg = it->second;
}

// x := x, where two registers joined: a step that changes nothing.
bool copies_itself(const model::RegOp& op) {
  const auto& n = op.expr.nodes;
  return n.size() == 1 && n[0].op == model::ExprOp::Reg && n[0].reg == op.dst;
}

// Renames in place, item by item; only a block where a step became `x := x` is rebuilt without
// it (rebuilding every block, as a rewrite does, allocated the whole impl again).
void rename(model::Program& impl, const Renaming& renaming) {
  model::for_each_stmt(impl.body, [&](model::Stmt& st, const model::LoopPath&) {
    auto* b = std::get_if<model::Block>(&st.node);
    if (!b) return;
    bool idle = false;
    for (auto& s : b->streams) {
      const auto e = renaming.find(s.engine);
      if (e == renaming.end()) continue;
      const auto& to = e->second;
      for (auto& item : s.items)
        if (auto* op = std::get_if<model::RegOp>(&item)) {
          if (auto it = to.find(op->dst); it != to.end()) op->dst = it->second;
          rename_in(op->expr, to);
          idle = idle || copies_itself(*op);
        } else if (auto* in = std::get_if<model::Instr>(&item)) {
          for (auto& w : in->waits)
            if (auto* r = std::get_if<std::string>(&w.ge))
              if (auto it = to.find(*r); it != to.end()) *r = it->second;
        }
    }
    if (!idle) return;
    detail::rewrite_items(*b, [](const std::string&, model::Item&& item, std::vector<model::Item>& out) {
      if (const auto* op = std::get_if<model::RegOp>(&item); op && copies_itself(*op)) return;
      out.push_back(std::move(item));
    });
  });
}

}  // namespace

RegisterReuse reuse_registers(model::Program& impl, unsigned jobs) {
  RegisterReuse out;
  // A register whose initial 0 is read is taken as reset before the top-level statement that
  // first names it (analysis/register_liveness.h), so that it is not live from the start.
  analysis::LivenessOptions lo;
  lo.jobs = jobs;
  const auto liveness = analysis::register_liveness(impl, lo);
  Renaming renaming;
  // top-level statement -> engine -> registers (as renamed) to reset before it
  std::map<std::size_t, std::map<std::string, std::vector<std::string>>> resets;
  for (const auto& el : liveness) {
    out.before = std::max(out.before, el.registers.size());
    // Greedy colouring in program order of first mention (for live ranges that are intervals,
    // the fewest colours); a colour is named after its first register.
    const auto n = el.registers.size();
    std::vector<std::uint32_t> colour(n, 0), first_of;
    std::vector<std::uint32_t> taken_by;  // colour -> the last register that found it taken
    for (std::uint32_t r = 0; r < n; ++r) {
      for (auto o : el.interference[r])
        if (o < r) {
          if (taken_by.size() <= colour[o]) taken_by.resize(colour[o] + 1, UINT32_MAX);
          taken_by[colour[o]] = r;
        }
      std::uint32_t c = 0;
      while (c < taken_by.size() && taken_by[c] == r) ++c;
      colour[r] = c;
      if (c == first_of.size()) first_of.push_back(r);
    }
    out.after = std::max(out.after, first_of.size());
    auto& to = renaming[el.engine];
    for (std::uint32_t r = 0; r < n; ++r)
      if (first_of[colour[r]] != r) to.emplace(el.registers[r], el.registers[first_of[colour[r]]]);
    // The first register of a colour still holds its initial 0 where it is first named: only
    // the others need the reset.
    for (const auto& [r, stmt] : el.zeroed)
      if (first_of[colour[r]] != r) resets[stmt][el.engine].push_back(el.registers[first_of[colour[r]]]);
  }
  rename(impl, renaming);
  if (!resets.empty()) {
    std::vector<model::Stmt> body;
    body.reserve(impl.body.size() + resets.size());
    for (std::size_t i = 0; i < impl.body.size(); ++i) {
      if (auto it = resets.find(i); it != resets.end()) {
        model::Block b;
        for (const auto& [engine, regs] : it->second) {
          model::Stream s{engine, {}};
          for (const auto& r : regs) s.items.push_back(model::RegOp{r, model::Expr::constant(0), {}});
          out.resets += regs.size();
          b.streams.push_back(std::move(s));
        }
        body.push_back(model::Stmt{std::move(b)});
      }
      body.push_back(std::move(impl.body[i]));
    }
    impl.body = std::move(body);
  }
  model::normalize(impl);
  return out;
}

}  // namespace syncbisim::allocator
