#include "analysis/register_liveness.h"

#include <algorithm>
#include <boost/dynamic_bitset.hpp>
#include <span>
#include <unordered_map>
#include <variant>

#include "model/walk.h"

namespace syncbisim::analysis {

namespace {

using Live = boost::dynamic_bitset<>;

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
    Live entry(n);
    for (std::size_t i = impl.body.size(); i-- > 0;) {
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
    for (auto i = entry.find_first(); i != Live::npos; i = entry.find_next(i)) {
      out_.live_at_entry[i] = true;
      at_entry.push_back(static_cast<std::uint32_t>(i));
    }
    // Registers live at the start all hold their initial 0 at once: none may share a cell.
    if (interference_)
      for (auto a : at_entry)
        for (auto b : at_entry)
          if (a != b) out_.interference[a].push_back(b);
    for (auto& adj : out_.interference) {
      std::sort(adj.begin(), adj.end());
      adj.erase(std::unique(adj.begin(), adj.end()), adj.end());
    }
    return std::move(out_);
  }

 private:
  bool interference_, zero_;
  EngineRegisterLiveness out_;
  std::vector<std::vector<std::uint32_t>> first_named_in_;  // top-level statement -> registers
  std::unordered_map<std::string, std::uint32_t> id_;
  std::vector<std::size_t> dedup_at_;

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

  // How many registers `live` holds, kept up to date item by item (a count of the whole set at
  // every item was most of the walk's time on kernels of thousands of registers).
  std::uint32_t live_count_ = 0;
  void set(Live& live, std::uint32_t r) {
    if (!live.test(r)) {
      live.set(r);
      ++live_count_;
    }
  }
  void reset(Live& live, std::uint32_t r) {
    if (live.test(r)) {
      live.reset(r);
      --live_count_;
    }
  }
  void note_peak() { out_.peak_live = std::max(out_.peak_live, live_count_); }

  // `d` is written where `live` (the set after the write) is live: they interfere. Adjacency
  // lists are deduplicated as they grow, so a loop walked several times keeps them short.
  void written_at(std::uint32_t d, const Live& live) {
    if (!interference_) return;
    auto& adj = out_.interference[d];
    for (auto i = live.find_first(); i != Live::npos; i = live.find_next(i))
      if (i != d) {
        adj.push_back(static_cast<std::uint32_t>(i));
        out_.interference[i].push_back(d);
        if (out_.interference[i].size() > dedup_at_[i]) dedup(static_cast<std::uint32_t>(i));
      }
    if (adj.size() > dedup_at_[d]) dedup(d);
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
      if (const auto* s = b->find(out_.engine)) {
        live_count_ = static_cast<std::uint32_t>(live.count());
        for (auto it = s->items.rbegin(); it != s->items.rend(); ++it) item(*it, live);
      }
      return live;
    }
    if (const auto* l = std::get_if<model::Loop>(&st.node)) {
      // At the loop's guard: live after the loop, or at the start of another iteration.
      Live guard = live;
      for (;;) {
        Live next = live | body(l->body, guard);
        if (next == guard) return guard;
        guard = std::move(next);
      }
    }
    const auto& c = std::get<model::Cond>(st.node);
    return body(c.then_body, live) | body(c.else_body, live);
  }

  void item(const model::Item& it, Live& live) {
    if (const auto* op = std::get_if<model::RegOp>(&it)) {
      const auto d = id_.at(op->dst);
      written_at(d, live);
      reset(live, d);
      for (const auto& n : op->expr.nodes)
        if (n.op == model::ExprOp::Reg) set(live, id_.at(n.reg));
      note_peak();
    } else if (const auto* in = std::get_if<model::Instr>(&it)) {
      for (const auto& w : in->waits)
        if (const auto* r = std::get_if<std::string>(&w.ge)) set(live, id_.at(*r));
      note_peak();
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
