#include "allocator/stats.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string_view>
#include <unordered_set>
#include <span>

#include "analysis/register_liveness.h"
#include "model/quote.h"
#include "model/walk.h"

namespace syncbisim::allocator {

Count& Count::operator+=(const Count& o) {
  fits = fits && o.fits && !__builtin_add_overflow(value, o.value, &value);
  if (!fits) value = UINT64_MAX;
  return *this;
}

Count operator*(const Count& a, const Count& b) {
  Count out;
  // Nothing times anything is nothing, even when the other factor does not fit.
  if ((a.fits && a.value == 0) || (b.fits && b.value == 0)) return out;
  out.fits = a.fits && b.fits && !__builtin_mul_overflow(a.value, b.value, &out.value);
  if (!out.fits) out.value = UINT64_MAX;
  return out;
}

std::string Count::to_string() const {
  return fits ? std::to_string(value) : "more than " + std::to_string(UINT64_MAX);
}

namespace {

// The engine a stream names (a valid program declares it; anything else counts as the first).
std::size_t engine_of(const model::Program& p, const std::string& name) {
  const auto it = std::find(p.engines.begin(), p.engines.end(), name);
  return it == p.engines.end() ? 0 : static_cast<std::size_t>(it - p.engines.begin());
}

struct Counter {
  const model::Program& impl;
  const std::map<std::string, std::uint32_t>& trips;
  const ByteModel& bytes;
  Stats& st;
  std::vector<std::uint32_t> alu;  // per waiting instruction

  std::uint32_t max_trip(const std::optional<model::TripRule>& t) {
    if (!t) return 1;
    std::uint32_t m = model::choice_max(t->uniform);
    for (const auto& [e, c] : t->per_engine) m = std::max(m, model::choice_max(c));
    return m;
  }

  // The walk's hooks (model::walk): how many times each statement runs, a stack with one entry
  // per open loop or branch. A branch not taken runs no time but still costs code.
  std::vector<Count> runs{Count{1}};

  void stmt(const model::Stmt& s, std::size_t) {
    if (const auto* blk = std::get_if<model::Block>(&s.node)) {
      for (const auto& stream : blk->streams) block(stream, runs.back());
    } else if (std::holds_alternative<model::Loop>(s.node)) {
      st.code_bytes += bytes.loop;
    } else {
      st.code_bytes += bytes.cond;
    }
  }
  void enter_loop(const model::Loop& l) {
    std::uint32_t n;
    if (auto it = trips.find(l.id); it != trips.end()) n = it->second;
    else {
      n = max_trip(l.trip);
      if (!l.trip) st.assumptions.push_back("loop " + l.id + ": no trip rule, 1 iteration");
    }
    runs.push_back(runs.back() * Count{n});
  }
  void leave_loop(const model::Loop&) { runs.pop_back(); }
  void enter_branch(const model::Cond& c, bool then) {
    bool take_else = false;
    if (auto it = trips.find(c.id); it != trips.end()) take_else = it->second == 1;
    else if (c.taken) take_else = model::choice_at(c.taken->uniform, 0, 0) == 1;
    runs.push_back(then != take_else ? runs.back() : Count{0});
  }
  void leave_branch(const model::Cond&, bool) { runs.pop_back(); }

  // The ALU work of one issue: the register operations since the previous instruction of the
  // stream that compute, directly or through each other, the registers its waits read. An
  // update of a register from itself (a counter, r := r + 1) is not per issue.
  static std::uint32_t issue_cost(const std::vector<const model::RegOp*>& window, const model::Instr& in) {
    std::set<std::string> needed;
    for (const auto& w : in.waits)
      if (const auto* reg = std::get_if<std::string>(&w.ge)) needed.insert(*reg);
    std::uint32_t cost = 0;
    for (auto it = window.rbegin(); it != window.rend(); ++it) {
      const auto& op = **it;
      if (!needed.erase(op.dst)) continue;
      const auto reads = op.expr.registers();
      if (std::find(reads.begin(), reads.end(), op.dst) != reads.end()) continue;
      cost += op.expr.alu_cost();
      needed.insert(reads.begin(), reads.end());
    }
    return cost;
  }

  void block(const model::Stream& s, Count times) {
    const auto e = engine_of(impl, s.engine);
    std::vector<const model::RegOp*> window;  // since the previous instruction
    for (const auto& item : s.items) {
      if (const auto* r = std::get_if<model::RegOp>(&item)) {
        st.regops_executed += times;
        st.code_bytes += bytes.regop + bytes.per_operator * r->expr.alu_cost();
        window.push_back(r);
      } else if (std::get_if<model::Barrier>(&item)) {
        if (e == 0) st.barriers_executed += times;
        st.code_bytes += bytes.barrier;
      } else {
        const auto& in = std::get<model::Instr>(item);
        st.instrs_executed += times;
        st.code_bytes += bytes.instr + bytes.annotation * (in.waits.size() + (in.signal ? 1 : 0));
        if (!in.waits.empty()) {
          ++st.waiting_instrs;
          st.waits += in.waits.size();
          if (in.waits.size() > 1) ++st.multi_wait_instrs;
          alu.push_back(issue_cost(window, in));
        }
        window.clear();
      }
    }
  }
};

}  // namespace

std::vector<std::size_t> registers_per_engine(const model::Program& impl) {
  // Names viewed in place: the impl outlives the call.
  std::vector<std::unordered_set<std::string_view>> names(impl.engines.size());
  model::for_each_stream(impl.body, [&](const model::Stream& s) {
    if (names.empty()) return;
    auto& regs = names[engine_of(impl, s.engine)];
    for (const auto& item : s.items) {
      if (const auto* op = std::get_if<model::RegOp>(&item)) {
        regs.insert(op->dst);
        for (const auto& n : op->expr.nodes)
          if (n.op == model::ExprOp::Reg) regs.insert(n.reg);
      } else if (const auto* in = std::get_if<model::Instr>(&item)) {
        for (const auto& w : in->waits)
          if (const auto* reg = std::get_if<std::string>(&w.ge)) regs.insert(*reg);
      }
    }
  });
  std::vector<std::size_t> out;
  for (const auto& n : names) out.push_back(n.size());
  return out;
}

model::Result<Stats> compute_stats(const model::Program& impl, const std::map<std::string, std::uint32_t>& trips,
                                   const ByteModel& bytes) {
  if (!trips.empty()) {
    std::set<std::string> loops, conds;
    model::for_each_stmt(impl.body, [&](const model::Stmt& s, const model::LoopPath&) {
      if (const auto* l = std::get_if<model::Loop>(&s.node)) loops.insert(l->id);
      else if (const auto* c = std::get_if<model::Cond>(&s.node)) conds.insert(c->id);
    });
    for (const auto& [name, n] : trips) {
      const bool is_cond = conds.count(name) != 0;
      if (!loops.count(name) && !is_cond)
        return model::make_error("--trips", "bad-trips", "no loop or cond named '" + name + "'");
      if (is_cond && n > 1) return model::make_error("--trips", "bad-trips", "cond '" + name + "' takes then or else");
    }
  }
  Stats st;
  st.semaphores = impl.semaphores.size();
  Counter c{impl, trips, bytes, st, {}};
  model::walk(impl.body, c);
  const auto names = registers_per_engine(impl);
  for (std::size_t e = 0; e < impl.engines.size(); ++e) {
    st.registers_per_engine.emplace_back(impl.engines[e], names[e]);
    st.registers_max = std::max(st.registers_max, names[e]);
  }
  if (!c.alu.empty()) {
    st.alu_max = *std::max_element(c.alu.begin(), c.alu.end());
    std::uint64_t sum = 0;
    for (auto a : c.alu) sum += a;
    st.alu_mean = static_cast<double>(sum) / static_cast<double>(c.alu.size());
  }
  return st;
}

model::Result<std::map<std::string, std::uint32_t>> parse_trips(const std::string& text) {
  std::map<std::string, std::uint32_t> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const auto item = text.substr(pos, end - pos);
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      return model::make_error("--trips", "bad-trips", "expected NAME=N or COND=then|else, got " + model::quote(item));
    const auto name = item.substr(0, eq), value = item.substr(eq + 1);
    std::uint32_t n = 0;
    if (value == "then") {
      n = 0;
    } else if (value == "else") {
      n = 1;
    } else {
      // Trips are 32-bit (docs/formats.md "JSON"): 0 .. 4294967295.
      std::uint64_t v = 0;
      bool ok = value.find_first_not_of("0123456789") == std::string::npos;
      for (char c : value) {
        if (!ok) break;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
        ok = v <= std::numeric_limits<std::uint32_t>::max();
      }
      if (!ok)
        return model::make_error("--trips", "bad-trips",
                                 "not a trip count (0 to 4294967295, or then/else): " + model::quote(value));
      n = static_cast<std::uint32_t>(v);
    }
    // One value per loop: A=1,A=2 is a slip, not a choice between them.
    if (!out.emplace(name, n).second)
      return model::make_error("--trips", "bad-trips", model::quote(name) + " is given twice");
    pos = end + 1;
  }
  return out;
}

LiveFigures live_figures(const model::Program& impl) {
  LiveFigures out;
  for (const auto& e : analysis::register_liveness(impl, {.interference = false})) {
    out.registers_per_engine.emplace_back(e.engine, e.peak_live);
    out.registers_max = std::max<std::size_t>(out.registers_max, e.peak_live);
  }
  // semaphore -> first and last top-level statement naming it; then the most lives over one
  std::map<std::string, std::pair<std::size_t, std::size_t>> life;
  for (std::size_t i = 0; i < impl.body.size(); ++i) {
    std::span<const model::Stmt> one(&impl.body[i], 1);
    model::for_each_stream(one, [&](const model::Stream& s) {
      const auto named = [&](const std::string& sem) {
        auto [it, fresh] = life.emplace(sem, std::make_pair(i, i));
        if (!fresh) it->second.second = i;
      };
      for (const auto& item : s.items)
        if (const auto* in = std::get_if<model::Instr>(&item)) {
          for (const auto& w : in->waits) named(w.sem);
          if (in->signal) named(in->signal->sem);
        }
    });
  }
  std::vector<int> delta(impl.body.size() + 1, 0);
  for (const auto& [sem, span] : life) {
    ++delta[span.first];
    --delta[span.second + 1];
  }
  int live = 0;
  for (auto d : delta) out.semaphores = std::max<std::size_t>(out.semaphores, static_cast<std::size_t>(live += d));
  return out;
}

}  // namespace syncbisim::allocator
