#include "analysis/register_liveness.h"

#include <algorithm>
#include <iterator>
#include <span>
#include <unordered_map>
#include <variant>

#include "model/walk.h"

namespace syncbisim::analysis {

namespace {

// A set of registers as a sorted vector: a few dozen are live at once, among tens of thousands
// an engine names on a kernel of thousands of nests (a bit set that long made every loop's join
// cost the whole kernel).
struct Live {
  std::vector<std::uint32_t> regs;
  bool test(std::uint32_t r) const { return std::binary_search(regs.begin(), regs.end(), r); }
  bool set(std::uint32_t r) {
    const auto it = std::lower_bound(regs.begin(), regs.end(), r);
    if (it != regs.end() && *it == r) return false;
    regs.insert(it, r);
    return true;
  }
  bool reset(std::uint32_t r) {
    const auto it = std::lower_bound(regs.begin(), regs.end(), r);
    if (it == regs.end() || *it != r) return false;
    regs.erase(it);
    return true;
  }
  friend Live operator|(const Live& a, const Live& b) {
    Live out;
    out.regs.reserve(a.regs.size() + b.regs.size());
    std::set_union(a.regs.begin(), a.regs.end(), b.regs.begin(), b.regs.end(), std::back_inserter(out.regs));
    return out;
  }
  bool operator==(const Live&) const = default;
};

// Backward liveness over one engine's part of the tree (the textbook data flow, on the tree:
// a loop iterates to its fixed point, a cond joins its branches).
class EngineWalk {
 public:
  EngineWalk(const model::Program& impl, std::string engine, const LivenessOptions& options)
      : interference_(options.interference), zero_(options.zero_before_first_use) {
    out_.engine = std::move(engine);
    intern_all(impl);
  }

  EngineRegisterLiveness run(const model::Program& impl) {
    const auto n = out_.registers.size();
    out_.interference.assign(n, {});
    dedup_at_.assign(n, 16);
    out_.peak_by_statement.assign(impl.body.size(), 0);
    Live entry;
    for (std::size_t i = impl.body.size(); i-- > 0;) {
      top_ = i;
      entry = stmt(impl.body[i], std::move(entry));
      if (!zero_) continue;
      for (auto r : first_named_in_[i])
        if (out_.written[r] && entry.test(r)) {
          written_at(r, entry);
          entry.reset(r);
          out_.zeroed.emplace_back(r, i);
        }
    }
    std::reverse(out_.zeroed.begin(), out_.zeroed.end());
    out_.live_at_entry.assign(n, false);
    std::vector<std::uint32_t> at_entry;
    for (const auto i : entry.regs) {
      out_.live_at_entry[i] = true;
      at_entry.push_back(i);
    }
    // Registers live at the start all hold their initial 0 at once: none may share a cell.
    if (interference_)
      for (auto a : at_entry)
        for (auto b : at_entry)
          if (a != b) out_.interference[a].push_back(b);
    // Each pair was recorded once, under its greater register: now under both (duplicates go
    // with the sort below).
    for (std::uint32_t r = 0; r < n; ++r)
      for (const auto o : out_.interference[r])
        if (o < r) out_.interference[o].push_back(r);
    for (auto& adj : out_.interference) {
      std::sort(adj.begin(), adj.end());
      adj.erase(std::unique(adj.begin(), adj.end()), adj.end());
    }
    return std::move(out_);
  }

 private:
  bool interference_, zero_;
  bool recording_ = true;  // interference is recorded (not inside a loop's search for its fixed point)
  EngineRegisterLiveness out_;
  std::vector<std::vector<std::uint32_t>> first_named_in_;  // top-level statement -> registers
  std::unordered_map<std::string, std::uint32_t> id_;
  std::vector<std::size_t> dedup_at_;
  std::size_t top_ = 0;  // the top-level statement being walked

  std::uint32_t intern(const std::string& name) {
    auto [it, fresh] = id_.emplace(name, static_cast<std::uint32_t>(out_.registers.size()));
    if (fresh) {
      out_.registers.push_back(name);
      out_.written.push_back(false);
    }
    return it->second;
  }

  void intern_all(const model::Program& impl) {
    first_named_in_.resize(impl.body.size());
    for (std::size_t i = 0; i < impl.body.size(); ++i) {
      const auto before = out_.registers.size();
      std::span<const model::Stmt> one(&impl.body[i], 1);
      model::for_each_stream(one, [&](const model::Stream& s) {
        if (s.engine != out_.engine) return;
        for (const auto& item : s.items) {
          if (const auto* op = std::get_if<model::RegOp>(&item)) {
            for (const auto& n : op->expr.nodes)
              if (n.op == model::ExprOp::Reg) intern(n.reg);
            out_.written[intern(op->dst)] = true;
          } else if (const auto* in = std::get_if<model::Instr>(&item)) {
            for (const auto& w : in->waits)
              if (const auto* r = std::get_if<std::string>(&w.ge)) intern(*r);
          }
        }
      });
      for (auto r = before; r < out_.registers.size(); ++r) first_named_in_[i].push_back(static_cast<std::uint32_t>(r));
    }
  }

  void note_peak(const Live& live) {
    const auto n = static_cast<std::uint32_t>(live.regs.size());
    out_.peak_live = std::max(out_.peak_live, n);
    out_.peak_by_statement[top_] = std::max(out_.peak_by_statement[top_], n);
  }

  // `d` is written where `live` (the set after the write) is live: they interfere. A pair is
  // recorded once, under its greater register (run() adds the other side at the end: half the
  // pushes and sorts). Adjacency lists are deduplicated as they grow, so a loop walked several
  // times keeps them short.
  void written_at(std::uint32_t d, const Live& live) {
    if (!interference_ || !recording_) return;
    for (const auto i : live.regs) {
      if (i == d) continue;
      const auto hi = std::max(i, d);
      auto& adj = out_.interference[hi];
      adj.push_back(std::min(i, d));
      if (adj.size() > dedup_at_[hi]) dedup(hi);
    }
  }

  void dedup(std::uint32_t r) {
    auto& adj = out_.interference[r];
    std::sort(adj.begin(), adj.end());
    adj.erase(std::unique(adj.begin(), adj.end()), adj.end());
    dedup_at_[r] = std::max<std::size_t>(16, 2 * adj.size());
  }

  Live body(const std::vector<model::Stmt>& stmts, Live live) {
    for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) live = stmt(*it, std::move(live));
    return live;
  }

  Live stmt(const model::Stmt& st, Live live) {
    if (const auto* b = std::get_if<model::Block>(&st.node)) {
      if (const auto* s = b->find(out_.engine))
        for (auto it = s->items.rbegin(); it != s->items.rend(); ++it) item(*it, live);
      return live;
    }
    if (const auto* l = std::get_if<model::Loop>(&st.node)) {
      // At the loop's guard: live after the loop, or at the start of another iteration. The
      // fixed point is found without recording interference, then the body is walked once more
      // at it, recording: each write is recorded once, not once per round (and per round of
      // every loop around it).
      const bool recording = recording_;
      recording_ = false;
      Live guard = live;
      for (;;) {
        Live next = live | body(l->body, guard);
        if (next == guard) break;
        guard = std::move(next);
      }
      recording_ = recording;
      if (recording_ && interference_) body(l->body, guard);
      return guard;
    }
    const auto& c = std::get<model::Cond>(st.node);
    return body(c.then_body, live) | body(c.else_body, live);
  }

  void item(const model::Item& it, Live& live) {
    if (const auto* op = std::get_if<model::RegOp>(&it)) {
      const auto d = id_.at(op->dst);
      written_at(d, live);
      live.reset(d);
      for (const auto& n : op->expr.nodes)
        if (n.op == model::ExprOp::Reg) live.set(id_.at(n.reg));
      note_peak(live);
    } else if (const auto* in = std::get_if<model::Instr>(&it)) {
      for (const auto& w : in->waits)
        if (const auto* r = std::get_if<std::string>(&w.ge)) live.set(id_.at(*r));
      note_peak(live);
    }
  }
};

}  // namespace

std::vector<EngineRegisterLiveness> register_liveness(const model::Program& impl, const LivenessOptions& options) {
  std::vector<EngineRegisterLiveness> out;
  for (const auto& e : impl.engines) {
    EngineWalk w(impl, e, options);
    out.push_back(w.run(impl));
  }
  return out;
}

}  // namespace syncbisim::analysis
