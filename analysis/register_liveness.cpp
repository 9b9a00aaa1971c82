#include "analysis/register_liveness.h"

#include "model/walk.h"
#include "parallel/run_indexed.h"

#include <algorithm>
#include <iterator>
#include <span>
#include <unordered_map>
#include <variant>


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
  friend Live operator&(const Live& a, const Live& b) {
    Live out;
    std::set_intersection(a.regs.begin(), a.regs.end(), b.regs.begin(), b.regs.end(), std::back_inserter(out.regs));
    return out;
  }
  friend Live operator-(const Live& a, const Live& b) {
    Live out;
    std::set_difference(a.regs.begin(), a.regs.end(), b.regs.begin(), b.regs.end(), std::back_inserter(out.regs));
    return out;
  }
  bool operator==(const Live&) const = default;
};

// One engine's part of a statement with its registers as numbers, built once: the walk below goes
// through a loop's body several times (to its fixed point, then recording), and through nested
// loops' bodies once per round of each loop around them, so names are looked up once here
// instead of on every pass (at 10,000 nests the lookups were most of the walk).
struct Step {
  static constexpr std::uint32_t kNoWrite = UINT32_MAX;  // an instruction: it only reads (its waits)
  std::uint32_t dst = kNoWrite;
  std::uint32_t reads_begin = 0, reads_end = 0;  // into EngineWalk::reads_
};

struct Part {
  enum class Kind : std::uint8_t { Block, Loop, Cond } kind = Kind::Block;
  std::uint32_t steps_begin = 0, steps_end = 0;  // Block: into EngineWalk::steps_
  std::vector<Part> body, else_body;             // Loop: body; Cond: then (body) and else
  // What the part does to the set live after it: L -> gen | (L - kill). Liveness's transfer
  // functions keep that form under sequence, a cond's join and a loop's repetition, so each
  // part's is found once, bottom up (EngineWalk::PartBuilder).
  Live gen, kill;
};

// The summary (gen, kill) of `first` followed by what (gen, kill) summarizes: the set before
// `first` from the set after both.
void precede(Live& gen, Live& kill, const Part& first) {
  gen = first.gen | (gen - first.kill);
  kill = kill | first.kill;
}

// A sequence of parts' summary.
void summarize(const std::vector<Part>& parts, Live& gen, Live& kill) {
  gen = {};
  kill = {};
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) precede(gen, kill, *it);
}

// Backward liveness over one engine's part of the tree (the textbook data flow, on the tree:
// a loop iterates to its fixed point, a cond joins its branches).
class EngineWalk {
 public:
  EngineWalk(const model::Program& impl, std::string engine, const LivenessOptions& options)
      : interference_(options.interference), zero_(options.zero_before_first_use) {
    out_.engine = std::move(engine);
    PartBuilder build{*this};
    model::walk(impl.body, build);
    top_parts_ = std::move(build.open.front());
    first_named_in_.resize(impl.body.size());
    for (std::size_t i = 0; i < impl.body.size(); ++i) {
      const auto end = i + 1 < impl.body.size() ? build.named_before[i + 1] : out_.registers.size();
      for (auto r = build.named_before[i]; r < end; ++r) first_named_in_[i].push_back(static_cast<std::uint32_t>(r));
    }
    id_.clear();  // names are not needed past here
  }

  EngineRegisterLiveness run() {
    const auto n = out_.registers.size();
    out_.interference.assign(n, {});
    dedup_at_.assign(n, 16);
    out_.peak_by_statement.assign(top_parts_.size(), 0);
    Live entry;
    for (std::size_t i = top_parts_.size(); i-- > 0;) {
      top_ = i;
      entry = part(top_parts_[i], std::move(entry));
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
  EngineRegisterLiveness out_;
  std::vector<std::vector<std::uint32_t>> first_named_in_;  // top-level statement -> registers
  std::unordered_map<std::string, std::uint32_t> id_;
  std::vector<Part> top_parts_;     // per top-level statement
  std::vector<Step> steps_;         // every Block part's, back to back
  std::vector<std::uint32_t> reads_;
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

  // Registers are numbered in program order of first mention: within an item its reads, then
  // what it writes.
  Part part_of(const model::Stmt& st) {
    Part p;
    if (const auto* b = std::get_if<model::Block>(&st.node)) {
      p.steps_begin = p.steps_end = static_cast<std::uint32_t>(steps_.size());
      const auto* mine = b->find(out_.engine);
      for (const auto& s : b->streams) {
        if (s.engine != out_.engine) continue;
        for (const auto& item : s.items) {
          Step step;
          step.reads_begin = static_cast<std::uint32_t>(reads_.size());
          if (const auto* op = std::get_if<model::RegOp>(&item)) {
            for (const auto& n : op->expr.nodes)
              if (n.op == model::ExprOp::Reg) reads_.push_back(intern(n.reg));
            step.dst = intern(op->dst);
            out_.written[step.dst] = true;
          } else if (const auto* in = std::get_if<model::Instr>(&item)) {
            for (const auto& w : in->waits)
              if (const auto* r = std::get_if<std::string>(&w.ge)) reads_.push_back(intern(*r));
          } else {
            continue;  // a barrier neither reads nor writes a register
          }
          step.reads_end = static_cast<std::uint32_t>(reads_.size());
          if (&s == mine) steps_.push_back(step);  // the walk reads the block's first stream of the engine
        }
        if (&s == mine) p.steps_end = static_cast<std::uint32_t>(steps_.size());
      }
      // Backward over the steps: a write kills its register, then the step's reads are live.
      for (auto k = p.steps_end; k-- > p.steps_begin;) {
        const auto& step = steps_[k];
        if (step.dst != Step::kNoWrite) {
          p.gen.reset(step.dst);
          p.kill.set(step.dst);
        }
        for (auto r = step.reads_begin; r < step.reads_end; ++r) p.gen.set(reads_[r]);
      }
      return p;
    }
    p.kind = std::holds_alternative<model::Loop>(st.node) ? Part::Kind::Loop : Part::Kind::Cond;
    return p;  // its bodies and summary: PartBuilder, as they close
  }

  // model::walk's hooks: each statement's part, bottom up. The lists being filled are the top
  // level's, then one per open loop body or branch, which becomes its part's body when it closes.
  struct PartBuilder {
    EngineWalk& w;
    std::vector<std::vector<Part>> open{1};
    std::vector<std::size_t> named_before;  // per top-level statement: the registers named before it

    void stmt(const model::Stmt& st, std::size_t) {
      if (open.size() == 1) named_before.push_back(w.out_.registers.size());
      open.back().push_back(w.part_of(st));
    }
    void enter_loop(const model::Loop&) { open.emplace_back(); }
    void leave_loop(const model::Loop&) {
      Part& p = close();
      // At the guard: L | f(guard) for the body's f, whose least fixed point is L | gen(body). A
      // loop may run no iteration, so it kills nothing.
      Live kill;
      summarize(p.body, p.gen, kill);
    }
    void enter_branch(const model::Cond&, bool) { open.emplace_back(); }
    void leave_branch(const model::Cond&, bool then) {
      Part& p = close(then);
      if (then) return;
      // Either branch: live if live in one, killed only if killed in both.
      Live then_gen, then_kill, else_gen, else_kill;
      summarize(p.body, then_gen, then_kill);
      summarize(p.else_body, else_gen, else_kill);
      p.gen = then_gen | else_gen;
      p.kill = then_kill & else_kill;
    }
    // The list just walked becomes the body (or a cond's else body) of the part that holds it.
    Part& close(bool into_body = true) {
      auto list = std::move(open.back());
      open.pop_back();
      Part& p = open.back().back();
      (into_body ? p.body : p.else_body) = std::move(list);
      return p;
    }
  };

  void note_peak(const Live& live) {
    const auto n = static_cast<std::uint32_t>(live.regs.size());
    out_.peak_live = std::max(out_.peak_live, n);
    out_.peak_by_statement[top_] = std::max(out_.peak_by_statement[top_], n);
  }

  // `d` is written where `live` (the set after the write) is live: they interfere. A pair is
  // recorded once, under its greater register (run() adds the other side at the end: half the
  // pushes and sorts). Adjacency lists are deduplicated as they grow.
  void written_at(std::uint32_t d, const Live& live) {
    if (!interference_) return;
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

  Live body(const std::vector<Part>& parts, Live live) {
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) live = part(*it, std::move(live));
    return live;
  }

  Live part(const Part& p, Live live) {
    switch (p.kind) {
      case Part::Kind::Block:
        for (auto k = p.steps_end; k-- > p.steps_begin;) step(steps_[k], live);
        return live;
      case Part::Kind::Loop: {
        // At the loop's guard: live after the loop, or at the start of another iteration, the
        // fixed point L | gen(body) (Part). The body is walked once, at it, recording: each
        // write is recorded once, and no body is walked again per round of a loop around it.
        Live guard = live | p.gen;
        body(p.body, guard);
        return guard;
      }
      case Part::Kind::Cond:
        break;
    }
    return body(p.body, live) | body(p.else_body, live);
  }

  void step(const Step& s, Live& live) {
    if (s.dst != Step::kNoWrite) {
      written_at(s.dst, live);
      live.reset(s.dst);
    }
    for (auto k = s.reads_begin; k < s.reads_end; ++k) live.set(reads_[k]);
    note_peak(live);
  }
};

}  // namespace

std::vector<EngineRegisterLiveness> register_liveness(const model::Program& impl, const LivenessOptions& options) {
  std::vector<EngineRegisterLiveness> out(impl.engines.size());
  parallel::run_indexed(
      impl.engines.size(), options.jobs, [&](std::size_t e) { out[e] = EngineWalk(impl, impl.engines[e], options).run(); },
      [] { return false; });
  return out;
}

}  // namespace syncbisim::analysis
