#include "allocator/semaphore_reuse.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <span>
#include <variant>

#include "allocator/detail/block_edit.h"
#include "model/walk.h"

namespace syncbisim::allocator {

namespace {

using model::Expr;
using model::ExprOp;

// Inserts `x` into a small sorted vector (a handful of engines or bodies: a kernel of thousands of
// nests has tens of thousands of lives, and a tree node per entry was a tenth of the reuse).
template <class T>
void insert_sorted(std::vector<T>& v, const T& x) {
  const auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x) v.insert(it, x);
}
template <class T>
bool contains_sorted(const std::vector<T>& v, const T& x) {
  return std::binary_search(v.begin(), v.end(), x);
}

struct SemaphoreLife {
  std::vector<std::string> signallers;     // engines, sorted
  std::size_t first = SIZE_MAX, last = 0;  // top-level statements that name it
  bool reset = false;                      // listed by a barrier
  // body -> signals added per iteration, sorted by body
  std::vector<std::pair<std::string, std::uint64_t>> adds_per_iteration;
  std::vector<std::string> waiters;  // engines, sorted
  void named_at(std::size_t i) {
    first = std::min(first, i);
    last = std::max(last, i);
  }
  void adds(const std::string& body, std::uint64_t add) {
    const auto it = std::lower_bound(adds_per_iteration.begin(), adds_per_iteration.end(), body,
                                     [](const auto& e, const std::string& b) { return e.first < b; });
    if (it != adds_per_iteration.end() && it->first == body) it->second += add;
    else adds_per_iteration.insert(it, {body, add});
  }
};

// Is `op` `x := x + 1`?
bool increments_itself(const model::RegOp& op) {
  const auto& n = op.expr.nodes;
  if (n.size() != 3 || n[2].op != ExprOp::Add) return false;
  const auto is_self = [&](const model::ExprNode& a) { return a.op == ExprOp::Reg && a.reg == op.dst; };
  const auto is_one = [](const model::ExprNode& a) { return a.op == ExprOp::Const && a.value == 1; };
  return (is_self(n[n[2].lhs]) && is_one(n[n[2].rhs])) || (is_one(n[n[2].lhs]) && is_self(n[n[2].rhs]));
}

std::string identifier(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

struct PairHash {
  std::size_t operator()(const std::pair<std::string, std::string>& p) const {
    return std::hash<std::string>{}(p.first) * 31 + std::hash<std::string>{}(p.second);
  }
};

class Reuser {
 public:
  explicit Reuser(model::Program& impl) : impl_(impl) {}

  SemaphoreReuse run() {
    SemaphoreReuse out;
    out.before = impl_.semaphores.size();
    out.after = out.before;
    if (!survey()) return out;  // a barrier resets every semaphore: counts are not monotone
    std::vector<std::string> kept;
    for (const auto& s : impl_.semaphores) {
      const auto it = lives_.find(s);
      if (it == lives_.end() || (it->second.first == SIZE_MAX && !it->second.reset)) {
        ++out.unused;
        continue;
      }
      kept.push_back(s);
    }
    impl_.semaphores = kept;
    for (const auto& chain : chains())
      if (chain.size() > 1) merge(chain);
    if (!renamed_.empty()) {
      rewrite();
      std::erase_if(impl_.semaphores, [&](const std::string& s) { return renamed_.count(s) > 0; });
    }
    model::normalize(impl_);
    for (const auto& [sem, j] : renamed_) out.joined.emplace(sem, j.into);
    out.after = impl_.semaphores.size();
    return out;
  }

 private:
  model::Program& impl_;
  std::unordered_map<std::string, SemaphoreLife> lives_;
  // engine -> every register it names -> how many writes (fresh names avoid them all);
  // (body, engine) -> registers `x := x + 1` directly in it
  std::unordered_map<std::string, std::unordered_map<std::string, std::size_t>> names_;
  std::unordered_map<std::pair<std::string, std::string>, std::vector<std::string>, PairHash> increments_;
  // What merge() decided, applied by rewrite():
  // (Hashed, not ordered: a kernel of thousands of nests joins tens of thousands of semaphores;
  // engines by their place in impl_.engines, a handful, so that no lookup builds a key of two
  // strings: merge() makes one per semaphore, engine and body.)
  struct Joined {
    std::string into;               // the semaphore it joins
    std::vector<std::string> base;  // per engine: the register b that its waits add ("" if none)
  };
  std::unordered_map<std::string, Joined> renamed_;  // semaphore -> what it joins
  // top-level statement -> per engine: `b := ...` to run before it
  std::vector<std::vector<std::vector<model::RegOp>>> before_stmt_;
  std::unordered_map<std::string, std::vector<std::string>> counter_;  // body -> per engine: register
  std::map<std::string, std::map<std::string, std::string>> new_counters_;  // body -> engine -> register

  std::size_t engine_index(const std::string& engine) const {
    return static_cast<std::size_t>(std::find(impl_.engines.begin(), impl_.engines.end(), engine) -
                                    impl_.engines.begin());
  }

  bool survey() {
    lives_.reserve(impl_.semaphores.size());
    for (const auto& s : impl_.semaphores) lives_[s];
    bool reset_all = false;
    for (std::size_t i = 0; i < impl_.body.size(); ++i) {
      std::span<const model::Stmt> one(&impl_.body[i], 1);
      model::for_each_stmt(one, [&](const model::Stmt& st, const model::LoopPath& path) {
        const auto* b = std::get_if<model::Block>(&st.node);
        if (!b) return;
        for (const auto& s : b->streams) {
          auto& regs = names_[s.engine];
          for (const auto& item : s.items) {
            if (const auto* op = std::get_if<model::RegOp>(&item)) {
              ++regs[op->dst];
              for (const auto& n : op->expr.nodes)
                if (n.op == ExprOp::Reg) regs.try_emplace(n.reg, 0);
              if (increments_itself(*op)) increments_[{path.back(), s.engine}].push_back(op->dst);
            } else if (const auto* in = std::get_if<model::Instr>(&item)) {
              for (const auto& w : in->waits) {
                auto& life = lives_[w.sem];
                life.named_at(i);
                insert_sorted(life.waiters, s.engine);
                if (const auto* r = std::get_if<std::string>(&w.ge)) regs.try_emplace(*r, 0);
              }
              if (in->signal) {
                auto& life = lives_[in->signal->sem];
                life.named_at(i);
                insert_sorted(life.signallers, s.engine);
                life.adds(path.back(), in->signal->add);
              }
            } else {
              const auto& bar = std::get<model::Barrier>(item);
              if (!bar.reset) reset_all = true;
              else
                for (const auto& r : *bar.reset) lives_[r].reset = true;
            }
          }
        }
      });
    }
    return !reset_all;
  }

  // Per signalling engine, the semaphores that may join, split into chains of lives that follow
  // one another (interval partitioning: the fewest chains).
  std::vector<std::vector<std::string>> chains() const {
    // per engine: (life, name), in declaration order; each life looked up once
    std::map<std::string, std::vector<std::pair<const SemaphoreLife*, const std::string*>>> per_engine;
    for (const auto& s : impl_.semaphores) {
      const auto& life = lives_.at(s);
      if (life.signallers.size() == 1 && !life.reset && life.first != SIZE_MAX)
        per_engine[life.signallers.front()].emplace_back(&life, &s);
    }
    std::vector<std::vector<std::string>> out;
    for (auto& [engine, sems] : per_engine) {
      std::stable_sort(sems.begin(), sems.end(), [](const auto& a, const auto& b) { return a.first->first < b.first->first; });
      // (last statement, chain) of the chains, the one that ends first on top
      using Open = std::pair<std::size_t, std::size_t>;
      std::priority_queue<Open, std::vector<Open>, std::greater<>> open;
      for (const auto& [lp, name] : sems) {
        const auto& life = *lp;
        const auto& s = *name;
        std::size_t chain;
        if (!open.empty() && open.top().first < life.first) {
          chain = open.top().second;
          open.pop();
        } else {
          chain = out.size();
          out.emplace_back();
        }
        out[chain].push_back(s);
        open.emplace(life.last, chain);
      }
    }
    return out;
  }

  std::string fresh(const std::string& engine, const std::string& stem) {
    auto& regs = names_[engine];
    std::string name = stem;
    for (int k = 2; regs.count(name); ++k) name = stem + "_" + std::to_string(k);
    regs.emplace(name, 0);
    return name;
  }

  // A register of `engine` that holds how many iterations of `body` have run: its one write is
  // `x := x + 1` directly in that body; one is added where there is none.
  const std::string& counter(const std::string& body, const std::string& engine, std::size_t e) {
    auto& known = counter_[body];
    if (known.empty()) known.resize(impl_.engines.size());
    if (!known[e].empty()) return known[e];
    std::string name;
    if (auto it = increments_.find({body, engine}); it != increments_.end())
      for (const auto& reg : it->second)
        if (names_.at(engine).at(reg) == 1) {
          name = reg;
          break;
        }
    if (name.empty()) {
      name = fresh(engine, "n_" + identifier(body));
      new_counters_[body][engine] = name;
    }
    return known[e] = std::move(name);
  }

  // How many signals `sem` has had once `engine` has passed its last statement.
  Expr count(const SemaphoreLife& life, const std::string& engine, std::size_t e) {
    std::optional<Expr> sum;
    for (const auto& [body, add] : life.adds_per_iteration) {
      Expr term = body == model::kTopLoop ? Expr::constant(add)
                  : add == 1              ? Expr::reg(counter(body, engine, e))
                                          : Expr::binary(ExprOp::Mul, Expr::constant(add), Expr::reg(counter(body, engine, e)));
      sum = sum ? Expr::binary(ExprOp::Add, *sum, term) : term;
    }
    return sum ? *sum : Expr::constant(0);
  }

  void merge(const std::vector<std::string>& chain) {
    const auto& joined = chain.front();
    std::vector<const SemaphoreLife*> life;  // of chain[j], looked up once
    life.reserve(chain.size());
    for (const auto& s : chain) life.push_back(&lives_.at(s));
    std::set<std::string> engines;
    for (const auto* l : life) engines.insert(l->waiters.begin(), l->waiters.end());
    std::vector<Joined*> into(chain.size(), nullptr);
    for (std::size_t j = 1; j < chain.size(); ++j) {
      into[j] = &renamed_[chain[j]];
      into[j]->into = joined;
      into[j]->base.resize(impl_.engines.size());
    }
    if (before_stmt_.empty()) before_stmt_.resize(impl_.body.size());
    for (const auto& x : engines) {
      const auto e = engine_index(x);
      std::size_t last_waited = 0;  // the last semaphore of the chain (from the second) x waits on
      for (std::size_t j = 1; j < chain.size(); ++j)
        if (contains_sorted(life[j]->waiters, x)) last_waited = j;
      if (last_waited == 0) continue;
      const auto b = fresh(x, "b_" + identifier(joined));
      for (std::size_t j = 1; j <= last_waited; ++j) {
        Expr c = count(*life[j - 1], x, e);
        Expr value = j == 1 ? std::move(c) : Expr::binary(ExprOp::Add, Expr::reg(b), c);
        auto& ops = before_stmt_[life[j]->first];
        if (ops.empty()) ops.resize(impl_.engines.size());
        ops[e].push_back(model::RegOp{b, std::move(value), {}});
        if (contains_sorted(life[j]->waiters, x)) into[j]->base[e] = b;
      }
    }
  }

  void rewrite() {
    // The waits and signals of a joined semaphore; a wait for w >= 1 of its signals becomes one
    // for base + w (w a register: isgt(w, 0) * (w + base), 0 when w is 0).
    detail::rewrite_items(impl_.body, [&](const std::string& engine, model::Item&& item, std::vector<model::Item>& items) {
      if (auto* in = std::get_if<model::Instr>(&item)) {
        std::size_t slot = 0;
        for (auto& w : in->waits) {
          const auto to = renamed_.find(w.sem);
          if (to == renamed_.end()) continue;
          const auto& b = to->second.base.at(engine_index(engine));
          // merge() gave every engine that waits on a joined semaphore its base
          if (b.empty()) throw std::logic_error("semaphore reuse: no base register for " + w.sem + " on " + engine);
          const Expr base = Expr::reg(b);
          w.sem = to->second.into;
          std::optional<Expr> value;
          if (const auto* c = std::get_if<std::uint64_t>(&w.ge)) {
            if (*c > 0) value = Expr::binary(ExprOp::Add, base, Expr::constant(*c));
          } else {
            const Expr t = Expr::reg(std::get<std::string>(w.ge));
            value = Expr::binary(ExprOp::Mul, Expr::binary(ExprOp::IsGt, t, Expr::constant(0)),
                                 Expr::binary(ExprOp::Add, t, base));
          }
          if (!value) continue;
          const auto name = slot_register(engine, slot++);
          items.push_back(model::RegOp{name, *value, {}});
          w.ge = name;
        }
        if (in->signal)
          if (auto to = renamed_.find(in->signal->sem); to != renamed_.end()) in->signal->sem = to->second.into;
      }
      items.push_back(std::move(item));
    });
    // Counters added at the top of their bodies.
    if (!new_counters_.empty())
      model::for_each_stmt(impl_.body, [&](model::Stmt& st, const model::LoopPath&) {
        if (auto* l = std::get_if<model::Loop>(&st.node)) add_counters(l->body, l->id);
        if (auto* c = std::get_if<model::Cond>(&st.node)) {
          add_counters(c->then_body, model::then_loop(c->id));
          add_counters(c->else_body, model::else_loop(c->id));
        }
      });
    // The bases, before the statements where the semaphores after the first begin.
    // (Streams in the order of the engines' names, as they were when kept by name.)
    std::vector<std::size_t> by_name(impl_.engines.size());
    for (std::size_t e = 0; e < by_name.size(); ++e) by_name[e] = e;
    std::sort(by_name.begin(), by_name.end(), [&](auto a, auto b) { return impl_.engines[a] < impl_.engines[b]; });
    std::vector<model::Stmt> body;
    body.reserve(impl_.body.size() + static_cast<std::size_t>(std::count_if(
                                           before_stmt_.begin(), before_stmt_.end(), [](const auto& v) { return !v.empty(); })));
    for (std::size_t i = 0; i < impl_.body.size(); ++i) {
      if (i < before_stmt_.size() && !before_stmt_[i].empty()) {
        model::Block b;
        for (const auto e : by_name) {
          auto& ops = before_stmt_[i][e];
          if (ops.empty()) continue;
          b.streams.push_back({impl_.engines[e], {}});
          auto& items = b.streams.back().items;
          items.reserve(ops.size());
          for (auto& op : ops) items.emplace_back(std::in_place_type<model::RegOp>, std::move(op));
        }
        if (!b.streams.empty()) body.push_back(model::Stmt{std::move(b)});
      }
      body.push_back(std::move(impl_.body[i]));
    }
    impl_.body = std::move(body);
  }

  std::map<std::pair<std::string, std::size_t>, std::string> slots_;
  const std::string& slot_register(const std::string& engine, std::size_t slot) {
    auto it = slots_.find({engine, slot});
    if (it == slots_.end())
      it = slots_.emplace(std::make_pair(engine, slot), fresh(engine, slot == 0 ? "wb" : "wb" + std::to_string(slot + 1))).first;
    return it->second;
  }

  void add_counters(std::vector<model::Stmt>& body, const std::string& id) {
    const auto it = new_counters_.find(id);
    if (it == new_counters_.end()) return;
    model::Block b;
    for (const auto& [engine, name] : it->second)
      b.streams.push_back({engine, {model::RegOp{name, Expr::binary(ExprOp::Add, Expr::reg(name), Expr::constant(1)), {}}}});
    body.insert(body.begin(), model::Stmt{std::move(b)});
    new_counters_.erase(it);  // a body is met once; the walk then goes into it
  }
};

}  // namespace

SemaphoreReuse reuse_semaphores(model::Program& impl) { return Reuser(impl).run(); }

}  // namespace syncbisim::allocator
