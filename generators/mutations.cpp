#include "generators/mutations.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "model/walk.h"

namespace syncbisim::generators {

using model::ExprOp;

const char* to_string(MutationKind k) {
  switch (k) {
    case MutationKind::ChangeConstant: return "change-constant";
    case MutationKind::ChangeMask: return "change-mask";
    case MutationKind::SwapRegisters: return "swap-registers";
    case MutationKind::SwapSemaphores: return "swap-semaphores";
    case MutationKind::DropRegOp: return "drop-regop";
    case MutationKind::MoveRegOp: return "move-regop";
    case MutationKind::DropWait: return "drop-wait";
    case MutationKind::DropSignal: return "drop-signal";
    case MutationKind::DropBarrier: return "drop-barrier";
  }
  return "?";
}

std::string Mutation::to_string() const {
  return std::string(generators::to_string(kind)) + " on " + engine + " at " + where + ": " + from + " -> " + to;
}

namespace {

struct StreamRef {
  model::Stream* stream;
  std::string loops;  // enclosing loops, outermost first: "A/B"
};

// Every stream of the tree in pre-order, with the loops around it.
std::vector<StreamRef> streams_of(model::Program& p) {
  std::vector<StreamRef> out;
  model::for_each_stream_in(p.body, [&](model::Stream& s, const model::LoopPath& loops) {
    std::string path;  // without @top
    for (std::size_t i = 1; i < loops.size(); ++i) path += (i > 1 ? "/" : "") + loops[i];
    out.push_back({&s, path});
  });
  return out;
}

std::string operand_text(const model::Operand& o) {
  if (const auto* r = std::get_if<std::string>(&o)) return *r;
  return std::to_string(std::get<std::uint64_t>(o));
}

std::string wait_text(const model::Wait& w) { return w.sem + " >= " + operand_text(w.ge); }

std::string item_name(const model::Item& item) {
  if (const auto* in = std::get_if<model::Instr>(&item)) return in->id;
  if (const auto* r = std::get_if<model::RegOp>(&item)) return "[" + r->dst + " := " + r->expr.to_string() + "]";
  return "barrier";
}

// The registers `engine` uses anywhere (written or read), in first-use order.
std::vector<std::string> registers_of(const std::vector<StreamRef>& streams, const std::string& engine) {
  std::vector<std::string> out;
  auto add = [&](const std::string& r) {
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  for (const auto& ref : streams) {
    if (ref.stream->engine != engine) continue;
    for (const auto& item : ref.stream->items) {
      if (const auto* r = std::get_if<model::RegOp>(&item)) {
        add(r->dst);
        for (const auto& x : r->expr.registers()) add(x);
      } else if (const auto* in = std::get_if<model::Instr>(&item)) {
        for (const auto& w : in->waits)
          if (const auto* x = std::get_if<std::string>(&w.ge)) add(*x);
      }
    }
  }
  return out;
}

// The next name after `name` in `names`, cyclically; "" if there is no other.
std::string next_other(const std::vector<std::string>& names, const std::string& name) {
  if (names.size() < 2) return "";
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return names.front();
  ++it;
  return it == names.end() ? names.front() : *it;
}

// One edit of the item at (stream ordinal, item index) of a copy of the program.
using Edit = std::function<void(model::Stream&, std::size_t)>;

class Enumerator {
 public:
  explicit Enumerator(const model::Program& impl) : impl_(impl) {}

  std::vector<Mutant> run() {
    model::Program scratch = impl_;
    const auto streams = streams_of(scratch);
    for (std::size_t s = 0; s < streams.size(); ++s) {
      const auto& ref = streams[s];
      const auto regs = registers_of(streams, ref.stream->engine);
      for (std::size_t i = 0; i < ref.stream->items.size(); ++i) {
        const auto& item = ref.stream->items[i];
        Mutation base;
        base.engine = ref.stream->engine;
        base.where = item_name(item) + (ref.loops.empty() ? "" : " in " + ref.loops);
        if (const auto* in = std::get_if<model::Instr>(&item)) base.instr = in->id;
        if (const auto* r = std::get_if<model::RegOp>(&item)) base.reg = r->dst;
        if (const auto* in = std::get_if<model::Instr>(&item)) instr_mutants(s, i, *in, base);
        else if (const auto* r = std::get_if<model::RegOp>(&item))
          regop_mutants(s, i, *r, base, regs, ref.stream->items.size());
        else
          add(s, i, with(base, MutationKind::DropBarrier, "barrier", "(none)"), [](model::Stream& st, std::size_t k) {
            st.items.erase(st.items.begin() + static_cast<std::ptrdiff_t>(k));
          });
      }
    }
    return std::move(out_);
  }

 private:
  void add(std::size_t s, std::size_t i, Mutation m, const Edit& edit) {
    model::Program p = impl_;
    auto streams = streams_of(p);
    edit(*streams[s].stream, i);
    model::normalize(p);
    out_.push_back(Mutant{std::move(m), std::move(p)});
  }

  static Mutation with(Mutation m, MutationKind k, std::string from, std::string to) {
    m.kind = k;
    m.from = std::move(from);
    m.to = std::move(to);
    return m;
  }

  void instr_mutants(std::size_t s, std::size_t i, const model::Instr& in, const Mutation& item_base) {
    for (std::size_t w = 0; w < in.waits.size(); ++w) {
      const auto& wait = in.waits[w];
      Mutation base = item_base;
      base.sem = wait.sem;
      add(s, i, with(base, MutationKind::DropWait, wait_text(wait), "(none)"), [w](model::Stream& st, std::size_t k) {
        auto& x = std::get<model::Instr>(st.items[k]);
        x.waits.erase(x.waits.begin() + static_cast<std::ptrdiff_t>(w));
      });
      if (const auto* c = std::get_if<std::uint64_t>(&wait.ge)) {
        for (int delta : {+1, -1}) {
          if (delta < 0 && *c == 0) continue;
          const std::uint64_t v = *c + static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
          model::Wait changed{wait.sem, v};
          add(s, i, with(base, MutationKind::ChangeConstant, wait_text(wait), wait_text(changed)),
              [w, v](model::Stream& st, std::size_t k) { std::get<model::Instr>(st.items[k]).waits[w].ge = v; });
        }
      }
      if (auto other = next_other(impl_.semaphores, wait.sem); !other.empty()) {
        model::Wait changed{other, wait.ge};
        add(s, i, with(base, MutationKind::SwapSemaphores, wait_text(wait), wait_text(changed)),
            [w, other](model::Stream& st, std::size_t k) { std::get<model::Instr>(st.items[k]).waits[w].sem = other; });
      }
    }
    if (in.signal) {
      Mutation base = item_base;
      base.sem = in.signal->sem;
      const std::string sig = in.signal->sem + " += " + std::to_string(in.signal->add);
      add(s, i, with(base, MutationKind::DropSignal, sig, "(none)"),
          [](model::Stream& st, std::size_t k) { std::get<model::Instr>(st.items[k]).signal.reset(); });
      if (auto other = next_other(impl_.semaphores, in.signal->sem); !other.empty())
        add(s, i, with(base, MutationKind::SwapSemaphores, sig, other + " += " + std::to_string(in.signal->add)),
            [other](model::Stream& st, std::size_t k) { std::get<model::Instr>(st.items[k]).signal->sem = other; });
    }
  }

  void regop_mutants(std::size_t s, std::size_t i, const model::RegOp& r, const Mutation& base,
                     const std::vector<std::string>& regs, std::size_t stream_len) {
    const std::string text = r.dst + " := " + r.expr.to_string();
    auto changed_text = [&](const model::Expr& e) { return r.dst + " := " + e.to_string(); };
    auto set_expr = [](model::Expr e) {
      return [e = std::move(e)](model::Stream& st, std::size_t k) { std::get<model::RegOp>(st.items[k]).expr = e; };
    };
    add(s, i, with(base, MutationKind::DropRegOp, text, "(none)"),
        [](model::Stream& st, std::size_t k) { st.items.erase(st.items.begin() + static_cast<std::ptrdiff_t>(k)); });
    if (i + 1 < stream_len)
      add(s, i, with(base, MutationKind::MoveRegOp, text, "one item later"),
          [](model::Stream& st, std::size_t k) { std::swap(st.items[k], st.items[k + 1]); });
    // Constants: the right operand of an isgt is the mask threshold, every other one a constant.
    std::vector<bool> is_mask(r.expr.nodes.size(), false);
    for (const auto& n : r.expr.nodes)
      if (n.op == ExprOp::IsGt && r.expr.nodes[n.rhs].op == ExprOp::Const) is_mask[n.rhs] = true;
    for (std::size_t n = 0; n < r.expr.nodes.size(); ++n) {
      if (r.expr.nodes[n].op != ExprOp::Const) continue;
      for (int delta : {+1, -1}) {
        const auto c = r.expr.nodes[n].value;
        if (delta < 0 && c == 0) continue;
        model::Expr e = r.expr;
        e.nodes[n].value = c + static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
        add(s, i,
            with(base, is_mask[n] ? MutationKind::ChangeMask : MutationKind::ChangeConstant, text, changed_text(e)),
            set_expr(e));
      }
    }
    // Registers: exchange the first two distinct ones read, or replace the only one.
    const auto read = r.expr.registers();
    std::string a, b;
    if (read.size() >= 2) {
      a = read[0];
      b = read[1];
    } else if (read.size() == 1) {
      a = read[0];
      b = next_other(regs, a);
    }
    if (!a.empty() && !b.empty()) {
      model::Expr e = r.expr;
      for (auto& node : e.nodes) {
        if (node.op != ExprOp::Reg) continue;
        if (node.reg == a) node.reg = b;
        else if (node.reg == b && read.size() >= 2) node.reg = a;
      }
      add(s, i, with(base, MutationKind::SwapRegisters, text, changed_text(e)), set_expr(e));
    }
  }

  const model::Program& impl_;
  std::vector<Mutant> out_;
};

}  // namespace

std::vector<Mutant> mutants(const model::Program& impl) { return Enumerator(impl).run(); }

}  // namespace syncbisim::generators
