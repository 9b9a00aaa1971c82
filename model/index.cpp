#include "model/index.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "model/footprint_check.h"
#include "model/quote.h"
#include "model/walk.h"

namespace syncbisim::model {

namespace {

// docs/formats.md "Names": a letter or '_', then letters, digits, '_', '.' and '-'; the
// formats' keywords are names too wherever the grammar cannot mistake them. Two exceptions,
// where it could: a register has no '-' (an expression reads "r-1" as r minus 1), and an
// instruction is not called "barrier" (a block line reads that as a barrier).
enum class NameKind { Engine, Semaphore, Loop, Cond, Instr, Register };

// Empty if `s` is a good name of that kind, else why not.
std::string name_problem(const std::string& s, NameKind kind) {
  if (s.empty()) return "is empty";
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return "must start with a letter or '_'";
  const bool dash = kind != NameKind::Register;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || (dash && c == '-')))
      return dash ? "may hold only letters, digits, '_', '.' and '-'"
                  : "may hold only letters, digits, '_' and '.' (an expression reads '-' as minus)";
  if (kind == NameKind::Instr && s == "barrier") return "is the barrier keyword of a block line";
  return "";
}

Status check_name(const std::string& s, NameKind kind, const std::string& where, const char* what) {
  const auto problem = name_problem(s, kind);
  if (problem.empty()) return Ok{};
  return make_error(where, "bad-name", std::string(what) + " " + quote(s) + " " + problem);
}

}  // namespace

class IndexBuilder {
 public:
  IndexBuilder(const Program& p, ProgramIndex& ix) : p_(p), ix_(ix) {}

  Status run() {
    for (std::size_t i = 0; i < p_.engines.size(); ++i) {
      const auto& e = p_.engines[i];
      const std::string where = "/engines/" + std::to_string(i);
      if (auto bad = check_name(e, NameKind::Engine, where, "engine name"); !bad) return bad;
      if (!ix_.engine_ids_.insert(e, static_cast<EngineId>(i), ix_.engine_name()))
        return make_error(where, "duplicate-engine", "engine " + quote(e) + " is declared twice");
      ix_.engines.push_back(e);
    }
    if (ix_.engines.empty()) return make_error("/engines", "no-engines", "a program needs at least one engine");
    for (std::size_t i = 0; i < p_.semaphores.size(); ++i) {
      const auto& s = p_.semaphores[i];
      const std::string where = "/semaphores/" + std::to_string(i);
      if (p_.kind == ProgramKind::Spec)
        return make_error(where, "spec-has-semaphores", "a spec program declares no semaphores");
      if (auto bad = check_name(s, NameKind::Semaphore, where, "semaphore name"); !bad) return bad;
      if (!ix_.sem_ids_.insert(s, static_cast<SemId>(i), ix_.semaphore_name()))
        return make_error(where, "duplicate-semaphore", "semaphore " + quote(s) + " is declared twice");
      ix_.semaphores.push_back(s);
    }
    LoopInfo top;
    top.name = kTopLoop;
    top.kind = LoopKind::Top;
    top.trip = TripRule{ConstTrip{1}, {}, false};
    ix_.loops.push_back(top);
    ix_.loop_ids_.insert(kTopLoop, kTop, ix_.loop_name());
    if (auto s = tree(); !s) return s;
    if (p_.kind == ProgramKind::Impl && !p_.deps.empty())
      return make_error(p_.deps.front().loc.where, "impl-has-deps", "an impl program has no dependencies");
    for (const auto& d : p_.deps)
      if (auto s = check_dep(d); !s) return s;
    return check_footprints(p_, ix_);
  }

 private:
  Status add_loop(const std::string& name, LoopInfo info) {
    if (info.kind == LoopKind::Loop)
      if (auto bad = check_name(name, NameKind::Loop, info.loc.where, "loop id"); !bad) return bad;
    const auto id = static_cast<LoopId>(ix_.loops.size());
    if (cond_ids_.count(name) || !ix_.loop_ids_.insert(name, id, ix_.loop_name()))
      return make_error(info.loc.where, "duplicate-loop",
                        "loop id " + quote(name) + " is used twice (loops and conds share one namespace)");
    info.name = name;
    ix_.loops.push_back(std::move(info));
    return Ok{};
  }

  Status check_trip(const std::optional<TripRule>& trip, const std::string& where, bool is_cond) {
    if (!trip) return Ok{};
    auto check_choice = [&](const Choice& c) -> Status {
      if (const auto* r = std::get_if<RangeTrip>(&c); r && r->min > r->max)
        return make_error(where, "bad-trip",
                          "range min " + std::to_string(r->min) + " exceeds max " + std::to_string(r->max));
      if (const auto* s = std::get_if<SeqTrip>(&c); s && s->values.empty())
        return make_error(where, "bad-trip", "a sequence needs at least one value");
      if (is_cond && choice_max(c) > 1)
        return make_error(where, "bad-taken", "a cond is taken as 'then' (0) or 'else' (1) only");
      return Ok{};
    };
    if (auto s = check_choice(trip->uniform); !s) return s;
    for (const auto& [engine, choice] : trip->per_engine) {
      if (!ix_.engine(engine))
        return make_error(where, "unknown-engine", "per-engine rule names undeclared engine " + quote(engine));
      if (auto s = check_choice(choice); !s) return s;
    }
    return Ok{};
  }

  // The statement tree, through model::walk: each loop and each branch of a cond becomes a loop of
  // the index under the loop around it. `around` holds, for every level the walk is in, that
  // loop and its depth. The walk stops at the first error: one found at a statement stops it
  // there; one found on entering a branch (a hook that cannot stop the walk) stops it at the next
  // statement, and nothing is added after it.
  struct TreeVisitor {
    IndexBuilder& b;
    std::vector<std::pair<LoopId, std::uint32_t>> around{{kTop, 0}};
    Status status = Ok{};

    bool stmt(const Stmt& stmt, std::size_t) {
      if (!status) return true;
      const auto [parent, depth] = around.back();
      if (const auto* blk = std::get_if<Block>(&stmt.node)) {
        status = b.block(*blk, parent);
      } else if (const auto* l = std::get_if<Loop>(&stmt.node)) {
        if (b.p_.kind == ProgramKind::Spec && !l->trip)
          status = make_error(l->loc.where, "missing-trip", "loop " + quote(l->id) + " of a spec needs a trip rule");
        else if (status = b.check_trip(l->trip, l->loc.where, false); status) {
          const auto id = static_cast<LoopId>(b.ix_.loops.size());
          status = b.add_loop(l->id, LoopInfo{"", LoopKind::Loop, parent, depth + 1, "", l->trip, l->loc});
          if (status) around.emplace_back(id, depth + 1);  // leave_loop pops it
        }
      } else {
        const auto& c = std::get<Cond>(stmt.node);
        status = check_name(c.id, NameKind::Cond, c.loc.where, "cond id");
        if (status) status = b.check_trip(c.taken, c.loc.where, true);
        // Cond ids share the loop namespace but name no loop themselves: the branch loops
        // are "<id>.then" and "<id>.else".
        if (status && (b.ix_.loop(c.id) || !b.cond_ids_.insert(c.id).second))
          status = make_error(c.loc.where, "duplicate-loop", "id " + quote(c.id) + " is used twice");
      }
      return !status;
    }
    void leave_loop(const Loop&) { around.pop_back(); }
    void enter_branch(const Cond& c, bool then) {
      const auto [parent, depth] = around.back();
      const auto id = static_cast<LoopId>(b.ix_.loops.size());
      if (status)
        status = b.add_loop(then ? then_loop(c.id) : else_loop(c.id),
                            LoopInfo{"", then ? LoopKind::CondThen : LoopKind::CondElse, parent, depth + 1, c.id,
                                     c.taken, c.loc});
      around.emplace_back(id, depth + 1);
    }
    void leave_branch(const Cond&, bool) { around.pop_back(); }
  };

  Status tree() {
    TreeVisitor v{*this};
    model::walk(p_.body, v);
    return v.status;
  }

  // Registers are noted only once validated: a register seen before needs no second look
  // (an impl names the same few registers thousands of times in a long block).
  bool known_register(const std::string& r) const { return ix_.reg(r).has_value(); }
  // A register seen before was checked then: long blocks name the same few registers again and
  // again (docs/allocator.md "Complexity").
  Status check_register(const std::string& r, const std::string& where) const {
    if (known_register(r)) return Ok{};
    return check_name(r, NameKind::Register, where, "register");
  }

  void note_register(const std::string& r) {
    if (ix_.reg_ids_.insert(r, static_cast<RegId>(ix_.registers.size()), ix_.register_name()))
      ix_.registers.push_back(r);
  }

  Status sem_declared(const std::string& s, const std::string& where) {
    if (!ix_.semaphore(s))
      return make_error(where, "undeclared-semaphore", "semaphore " + quote(s) + " is not declared in 'semaphores'");
    return Ok{};
  }

  Status block(const Block& b, LoopId parent) {
    for (const auto& stream : b.streams) {
      const auto eng = ix_.engine(stream.engine);
      if (!eng)
        return make_error(b.loc.where, "unknown-engine", "block names undeclared engine " + quote(stream.engine));
      for (const auto& item : stream.items) {
        if (const auto* in = std::get_if<Instr>(&item)) {
          if (auto bad = check_name(in->id, NameKind::Instr, in->loc.where, "instruction id"); !bad) return bad;
          if (!ix_.instr_ids_.insert(in->id, static_cast<InstrId>(ix_.instrs.size()), ix_.instr_name()))
            return make_error(in->loc.where, "duplicate-instr", "instruction id " + quote(in->id) + " is used twice");
          ix_.instrs.push_back(InstrInfo{in->id, *eng, parent, in->loc});
          if (p_.kind == ProgramKind::Spec && (!in->waits.empty() || in->signal))
            return make_error(in->loc.where, "spec-has-sync", "a spec instruction carries no waits or signals");
          for (const auto& w : in->waits) {
            if (auto s = sem_declared(w.sem, in->loc.where); !s) return s;
            if (const auto* r = std::get_if<std::string>(&w.ge)) {
              if (auto bad = check_register(*r, in->loc.where); !bad) return bad;
              note_register(*r);
            }
          }
          if (in->signal) {
            if (auto s = sem_declared(in->signal->sem, in->loc.where); !s) return s;
            if (in->signal->add == 0) return make_error(in->loc.where, "bad-signal", "a signal adds at least 1");
          }
        } else if (const auto* op = std::get_if<RegOp>(&item)) {
          if (p_.kind == ProgramKind::Spec)
            return make_error(op->loc.where, "spec-has-regop", "a spec program has no register operations");
          if (auto bad = check_register(op->dst, op->loc.where); !bad) return bad;
          for (const auto& r : op->expr.registers()) {
            if (auto bad = check_register(r, op->loc.where); !bad) return bad;
            note_register(r);
          }
          note_register(op->dst);
        } else {
          const auto& bar = std::get<Barrier>(item);
          if (p_.kind == ProgramKind::Spec)
            return make_error(bar.loc.where, "spec-has-barrier", "a spec program has no barriers");
          if (bar.reset)
            for (const auto& s : *bar.reset)
              if (auto st = sem_declared(s, bar.loc.where); !st) return st;
        }
      }
    }
    return Ok{};
  }

  Status check_dep(const Dependency& d) {
    const auto p = ix_.instr(d.producer);
    if (!p)
      return make_error(d.loc.where, "unknown-instr",
                        "producer " + quote(d.producer) + " is not an instruction of the program");
    const auto c = ix_.instr(d.consumer);
    if (!c)
      return make_error(d.loc.where, "unknown-instr",
                        "consumer " + quote(d.consumer) + " is not an instruction of the program");
    const LoopId s = ix_.common(ix_.instrs[*p].parent, ix_.instrs[*c].parent);
    const auto common_loop = [&](const std::string& loop) -> Status {
      const auto l = ix_.loop(loop);
      if (!l) return make_error(d.loc.where, "unknown-loop", "distance names unknown loop " + quote(loop));
      if (!ix_.encloses(*l, s))
        return make_error(d.loc.where, "distance-not-common",
                          "distance names loop " + quote(loop) + ", which does not enclose both " + quote(d.producer) +
                              " and " + quote(d.consumer));
      return Ok{};
    };
    for (const auto& [loop, k] : d.distance)
      if (auto st = common_loop(loop); !st) return st;
    if (d.every.empty()) return Ok{};
    // L=* (docs/semantics.md §2, "Whole iterations"): the starred loops are all the common loops
    // below the numeric ones, and the numeric part is lexicographically positive.
    for (const auto& loop : d.every)
      if (auto st = common_loop(loop); !st) return st;
    const auto common = ix_.path(s);
    std::size_t first_star = common.size();
    for (std::size_t j = 0; j < common.size(); ++j)
      if (d.every.count(ix_.loops[common[j]].name)) {
        first_star = j;
        break;
      }
    bool positive = false;
    for (std::size_t j = 0; j < common.size(); ++j) {
      const auto& name = ix_.loops[common[j]].name;
      if (j < first_star) {
        const auto it = d.distance.find(name);
        positive = positive || (it != d.distance.end() && it->second > 0);
      } else if (!d.every.count(name)) {
        return make_error(d.loc.where, "bad-distance",
                          "loop " + quote(name) + " is below the starred loop " + quote(ix_.loops[common[first_star]].name) +
                              " and must be starred too (" + name + "=*): '*' covers every loop below it");
      }
    }
    if (!positive)
      return make_error(d.loc.where, "bad-distance",
                        "a distance with '*' needs a positive offset on a loop above the starred ones (e.g. " +
                            ix_.loops[common[first_star > 0 ? first_star - 1 : 0]].name + "=1)");
    return Ok{};
  }

  const Program& p_;
  ProgramIndex& ix_;
  std::unordered_set<std::string> cond_ids_;
};

Result<ProgramIndex> ProgramIndex::build(const Program& p) {
  ProgramIndex ix;
  IndexBuilder b(p, ix);
  if (auto s = b.run(); !s) return s.error();
  return ix;
}

std::optional<EngineId> ProgramIndex::engine(const std::string& n) const {
  if (const auto id = engine_ids_.find(n, engine_name())) return static_cast<EngineId>(*id);
  return std::nullopt;
}
std::optional<LoopId> ProgramIndex::loop(const std::string& n) const { return loop_ids_.find(n, loop_name()); }
std::optional<InstrId> ProgramIndex::instr(const std::string& n) const { return instr_ids_.find(n, instr_name()); }
std::optional<SemId> ProgramIndex::semaphore(const std::string& n) const { return sem_ids_.find(n, semaphore_name()); }
std::optional<RegId> ProgramIndex::reg(const std::string& n) const { return reg_ids_.find(n, register_name()); }

std::vector<LoopId> ProgramIndex::path(LoopId l) const {
  std::vector<LoopId> out;
  for (LoopId cur = l;; cur = loops[cur].parent) {
    out.push_back(cur);
    if (cur == kTop) break;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

bool ProgramIndex::encloses(LoopId outer, LoopId inner) const {
  for (LoopId cur = inner;; cur = loops[cur].parent) {
    if (cur == outer) return true;
    if (cur == kTop) return false;
  }
}

LoopId ProgramIndex::common(LoopId a, LoopId b) const {
  while (loops[a].depth > loops[b].depth) a = loops[a].parent;
  while (loops[b].depth > loops[a].depth) b = loops[b].parent;
  while (a != b) {
    a = loops[a].parent;
    b = loops[b].parent;
  }
  return a;
}

}  // namespace syncbisim::model
