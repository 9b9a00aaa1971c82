#include "allocator/register_reuse.h"

#include <algorithm>
#include <span>
#include <map>
#include <set>
#include <unordered_map>
#include <variant>

#include "allocator/detail/block_edit.h"
#include "analysis/register_liveness.h"
#include "model/walk.h"

namespace syncbisim::allocator {

namespace {

// Per engine: the registers named in each top-level statement, to find where a register is first
// named.
std::map<std::string, std::vector<std::set<std::string>>> named_per_top_statement(const model::Program& impl) {
  std::map<std::string, std::vector<std::set<std::string>>> out;
  for (const auto& e : impl.engines) out[e].resize(impl.body.size());
  for (std::size_t i = 0; i < impl.body.size(); ++i) {
    std::span<const model::Stmt> one(&impl.body[i], 1);
    model::for_each_stream(one, [&](const model::Stream& s) {
      auto& names = out[s.engine][i];
      for (const auto& item : s.items) {
        if (const auto* op = std::get_if<model::RegOp>(&item)) {
          names.insert(op->dst);
          for (const auto& r : op->expr.registers()) names.insert(r);
        } else if (const auto* in = std::get_if<model::Instr>(&item)) {
          for (const auto& w : in->waits)
            if (const auto* r = std::get_if<std::string>(&w.ge)) names.insert(*r);
        }
      }
    });
  }
  return out;
}

model::Expr renamed(const model::Expr& e, const std::unordered_map<std::string, std::string>& to) {
  model::Expr out = e;
  for (auto& n : out.nodes)
    if (n.op == model::ExprOp::Reg)
      if (auto it = to.find(n.reg); it != to.end()) n.reg = it->second;
  return out;
}

// engine -> register -> the register it becomes
using Renaming = std::unordered_map<std::string, std::unordered_map<std::string, std::string>>;

void rename(model::Program& impl, const Renaming& renaming) {
  detail::rewrite_items(impl.body, [&](const std::string& engine, model::Item&& item) {
    std::vector<model::Item> out;
    if (const auto e = renaming.find(engine); e != renaming.end()) {
      const auto& to = e->second;
      if (auto* op = std::get_if<model::RegOp>(&item)) {
        if (auto it = to.find(op->dst); it != to.end()) op->dst = it->second;
        op->expr = renamed(op->expr, to);
        // x := x, where two registers joined: a step that changes nothing
        if (op->expr.nodes.size() == 1 && op->expr.nodes[0].op == model::ExprOp::Reg && op->expr.nodes[0].reg == op->dst)
          return out;
      } else if (auto* in = std::get_if<model::Instr>(&item)) {
        for (auto& w : in->waits)
          if (auto* r = std::get_if<std::string>(&w.ge))
            if (auto it = to.find(*r); it != to.end()) *r = it->second;
      }
    }
    out.push_back(std::move(item));
    return out;
  });
}

std::size_t largest_count(const std::vector<analysis::EngineRegisterLiveness>& l) {
  std::size_t n = 0;
  for (const auto& e : l) n = std::max(n, e.registers.size());
  return n;
}

}  // namespace

RegisterReuse reuse_registers(model::Program& impl) {
  RegisterReuse out;
  auto liveness = analysis::register_liveness(impl, false);
  out.before = largest_count(liveness);
  // 1. A register written somewhere whose initial 0 is read gets `x := 0` before the top-level
  //    statement that first names it: nothing names it earlier, so it still holds 0 there, and
  //    from there on it is written before it is read.
  const auto named = named_per_top_statement(impl);
  // top-level statement -> engine -> registers to reset before it
  std::map<std::size_t, std::map<std::string, std::vector<std::string>>> resets;
  std::map<std::pair<std::string, std::string>, std::size_t> reset_at;  // (engine, register) -> its block
  for (const auto& el : liveness)
    for (std::size_t r = 0; r < el.registers.size(); ++r) {
      if (!el.live_at_entry[r] || !el.written[r]) continue;
      const auto& per_stmt = named.at(el.engine);
      for (std::size_t i = 0; i < per_stmt.size(); ++i)
        if (per_stmt[i].count(el.registers[r])) {
          resets[i][el.engine].push_back(el.registers[r]);
          break;
        }
    }
  if (!resets.empty()) {
    std::vector<model::Stmt> body;
    body.reserve(impl.body.size() + resets.size());
    for (std::size_t i = 0; i < impl.body.size(); ++i) {
      if (auto it = resets.find(i); it != resets.end()) {
        model::Block b;
        for (const auto& [engine, regs] : it->second) {
          model::Stream s{engine, {}};
          for (const auto& r : regs) s.items.push_back(model::RegOp{r, model::Expr::constant(0), {}});
          b.streams.push_back(std::move(s));
        }
        body.push_back(model::Stmt{std::move(b)});
      }
      body.push_back(std::move(impl.body[i]));
    }
    impl.body = std::move(body);
  }
  // where each reset went: the block inserted before statement i is at i + (blocks before it)
  std::size_t shift = 0;
  for (const auto& [i, per_engine] : resets) {
    for (const auto& [engine, regs] : per_engine)
      for (const auto& r : regs) reset_at[{engine, r}] = i + shift;
    ++shift;
  }
  liveness = analysis::register_liveness(impl);
  // 2. Colour each engine's interference graph greedily in program order of first mention (for
  //    live ranges that are intervals, the fewest colours); a colour is named after its first
  //    register.
  std::set<std::pair<std::string, std::string>> needless;  // resets of a colour's first register
  Renaming renaming;
  for (const auto& el : liveness) {
    const auto n = el.registers.size();
    std::vector<std::uint32_t> colour(n, 0), first_of;
    std::vector<std::uint32_t> taken_by;  // colour -> last register that marked it taken
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
    auto& to = renaming[el.engine];
    out.after = std::max(out.after, first_of.size());
    for (std::uint32_t r = 0; r < n; ++r) {
      const auto& name = el.registers[first_of[colour[r]]];
      if (name != el.registers[r]) to.emplace(el.registers[r], name);
      else if (reset_at.count({el.engine, name})) needless.emplace(el.engine, name);
    }
  }
  rename(impl, renaming);
  // 3. The first register of a colour still holds 0 where it is first named: its reset goes.
  for (const auto& [engine, name] : needless) {
    auto& b = std::get<model::Block>(impl.body[reset_at.at({engine, name})].node);
    for (auto& s : b.streams)
      if (s.engine == engine)
        std::erase_if(s.items, [&](const model::Item& item) { return std::get<model::RegOp>(item).dst == name; });
  }
  out.resets = reset_at.size() - needless.size();
  model::normalize(impl);
  return out;
}

}  // namespace syncbisim::allocator
