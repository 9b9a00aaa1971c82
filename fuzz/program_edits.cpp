#include "fuzz/program_edits.h"

#include <algorithm>
#include <map>

#include "model/walk.h"

namespace syncbisim::fuzz {

namespace {

using Body = std::vector<model::Stmt>;

// Every statement with its depth: 0 at the top, one more inside each loop and each cond branch.
template <class F>
void for_each_stmt_with_depth(const Body& body, F&& f) {
  model::for_each_stmt(body, [&](const model::Stmt& s, const model::LoopPath& path) {
    f(s, static_cast<std::uint32_t>(path.size() - 1));
  });
}

const std::string& stmt_id(const model::Stmt& s) {
  static const std::string none;
  if (const auto* l = std::get_if<model::Loop>(&s.node)) return l->id;
  if (const auto* c = std::get_if<model::Cond>(&s.node)) return c->id;
  return none;
}

// The loops (branch loops by their C.then / C.else names) around each instruction, @top left out.
std::map<std::string, std::vector<std::string>> loops_around(const Body& body) {
  std::map<std::string, std::vector<std::string>> out;
  model::for_each_stream_in(body, [&](const auto& stream, const model::LoopPath& path) {
    for (const auto& item : stream.items)
      if (const auto* in = std::get_if<model::Instr>(&item)) out[in->id].assign(path.begin() + 1, path.end());
  });
  return out;
}

void drop_engine_choices(std::optional<model::TripRule>& rule, const std::string& engine) {
  if (!rule) return;
  auto& pe = rule->per_engine;
  pe.erase(std::remove_if(pe.begin(), pe.end(), [&](const auto& e) { return e.first == engine; }), pe.end());
}

}  // namespace

void Removal::merge(const Removal& other) {
  loops.insert(other.loops.begin(), other.loops.end());
  instrs.insert(other.instrs.begin(), other.instrs.end());
  deps.insert(other.deps.begin(), other.deps.end());
}

void apply(model::Program& p, const Removal& r) {
  model::for_each_body(p.body, [&](Body& body) {
    body.erase(std::remove_if(body.begin(), body.end(),
                              [&](const model::Stmt& s) {
                                const auto& id = stmt_id(s);
                                return !id.empty() && r.loops.count(id) > 0;
                              }),
               body.end());
    for (auto& stmt : body)
      if (auto* b = std::get_if<model::Block>(&stmt.node))
        for (auto& s : b->streams)
          s.items.erase(std::remove_if(s.items.begin(), s.items.end(),
                                       [&](const model::Item& item) {
                                         const auto* in = std::get_if<model::Instr>(&item);
                                         return in && r.instrs.count(in->id) > 0;
                                       }),
                        s.items.end());
  });
  if (!r.deps.empty()) {
    std::vector<model::Dependency> kept;
    for (std::size_t i = 0; i < p.deps.size(); ++i)
      if (r.deps.count(i) == 0) kept.push_back(std::move(p.deps[i]));
    p.deps = std::move(kept);
  }
  model::normalize(p);
  if (p.kind == model::ProgramKind::Spec) tidy_dependencies(p);
}

void drop_engine(model::Program& p, const std::string& engine) {
  p.engines.erase(std::remove(p.engines.begin(), p.engines.end(), engine), p.engines.end());
  model::for_each_body(p.body, [&](Body& body) {
    for (auto& stmt : body) {
      if (auto* b = std::get_if<model::Block>(&stmt.node)) {
        auto& ss = b->streams;
        ss.erase(std::remove_if(ss.begin(), ss.end(), [&](const model::Stream& s) { return s.engine == engine; }),
                 ss.end());
      } else if (auto* l = std::get_if<model::Loop>(&stmt.node)) {
        drop_engine_choices(l->trip, engine);
      } else if (auto* c = std::get_if<model::Cond>(&stmt.node)) {
        drop_engine_choices(c->taken, engine);
      }
    }
  });
  model::normalize(p);
  if (p.kind == model::ProgramKind::Spec) tidy_dependencies(p);
}

bool unwrap(model::Program& p, const std::string& id, int branch) {
  bool found = false;
  model::for_each_body(p.body, [&](Body& body) {
    if (found) return;
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (stmt_id(body[i]) != id) continue;
      Body inner;
      if (auto* l = std::get_if<model::Loop>(&body[i].node)) inner = std::move(l->body);
      else {
        auto& c = std::get<model::Cond>(body[i].node);
        inner = std::move(branch == 0 ? c.then_body : c.else_body);
      }
      body.erase(body.begin() + static_cast<std::ptrdiff_t>(i));
      body.insert(body.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(inner.begin()),
                  std::make_move_iterator(inner.end()));
      found = true;
      return;
    }
  });
  if (!found) return false;
  model::normalize(p);
  if (p.kind == model::ProgramKind::Spec) tidy_dependencies(p);
  return true;
}

std::vector<model::TripRule> simpler_trips(const model::TripRule& rule) {
  std::vector<model::TripRule> out;
  if (rule.divergent) {
    out.push_back(model::TripRule{rule.uniform, {}, false});
    return out;
  }
  auto with = [](model::Choice c) { return model::TripRule{std::move(c), {}, false}; };
  if (const auto* r = std::get_if<model::RangeTrip>(&rule.uniform)) {
    out.push_back(with(model::ConstTrip{std::max<std::uint32_t>(r->min, 1)}));
    if (r->max > r->min + 1) out.push_back(with(model::RangeTrip{r->min, r->max - 1}));
  } else if (const auto* s = std::get_if<model::SeqTrip>(&rule.uniform)) {
    out.push_back(with(model::ConstTrip{std::max<std::uint32_t>(s->values.front(), 1)}));
    if (s->values.size() > 1) out.push_back(with(model::SeqTrip{{s->values.begin(), s->values.end() - 1}}));
  } else {
    const auto n = std::get<model::ConstTrip>(rule.uniform).n;
    if (n > 1) out.push_back(with(model::ConstTrip{n - 1}));
  }
  // Never propose the rule itself (a range 1..1 is already the constant 1 in meaning).
  out.erase(std::remove(out.begin(), out.end(), rule), out.end());
  return out;
}

namespace {
std::optional<model::TripRule>* trip_slot(model::Stmt& s) {
  if (auto* l = std::get_if<model::Loop>(&s.node)) return &l->trip;
  if (auto* c = std::get_if<model::Cond>(&s.node)) return &c->taken;
  return nullptr;
}
}  // namespace

void set_trip(model::Program& p, const std::string& id, const model::TripRule& rule, bool only_if_given) {
  model::for_each_body(p.body, [&](Body& body) {
    for (auto& stmt : body)
      if (stmt_id(stmt) == id)
        if (auto* slot = trip_slot(stmt); slot && (!only_if_given || slot->has_value())) *slot = rule;
  });
}

std::optional<model::TripRule> trip_of(const model::Program& p, const std::string& id) {
  std::optional<model::TripRule> out;
  for_each_stmt_with_depth(p.body, [&](const model::Stmt& s, std::uint32_t) {
    if (stmt_id(s) != id) return;
    if (const auto* l = std::get_if<model::Loop>(&s.node)) out = l->trip;
    if (const auto* c = std::get_if<model::Cond>(&s.node)) out = c->taken;
  });
  return out;
}

void tidy_dependencies(model::Program& spec) {
  const auto around = loops_around(spec.body);
  std::vector<model::Dependency> kept;
  for (auto& d : spec.deps) {
    const auto p = around.find(d.producer), c = around.find(d.consumer);
    if (p == around.end() || c == around.end()) continue;
    auto common = [&](const std::string& loop) {
      if (loop == model::kTopLoop) return true;
      const auto& a = p->second;
      const auto& b = c->second;
      return std::find(a.begin(), a.end(), loop) != a.end() && std::find(b.begin(), b.end(), loop) != b.end();
    };
    for (auto it = d.distance.begin(); it != d.distance.end();)
      it = common(it->first) ? std::next(it) : d.distance.erase(it);
    kept.push_back(std::move(d));
  }
  spec.deps = std::move(kept);
}

std::vector<Removal> statements_at(const model::Program& p, std::uint32_t depth) {
  std::vector<Removal> out;
  for_each_stmt_with_depth(p.body, [&](const model::Stmt& s, std::uint32_t d) {
    if (d != depth) return;
    Removal r;
    if (const auto* b = std::get_if<model::Block>(&s.node)) {
      for (const auto& st : b->streams)
        for (const auto& item : st.items)
          if (const auto* in = std::get_if<model::Instr>(&item)) r.instrs.insert(in->id);
    } else {
      r.loops.insert(stmt_id(s));
    }
    out.push_back(std::move(r));
  });
  return out;
}

std::vector<std::string> loop_ids(const model::Program& p) {
  std::vector<std::string> out;
  for_each_stmt_with_depth(p.body, [&](const model::Stmt& s, std::uint32_t) {
    if (!stmt_id(s).empty()) out.push_back(stmt_id(s));
  });
  return out;
}

std::vector<std::string> instr_ids(const model::Program& p) {
  std::vector<std::string> out;
  for_each_stmt_with_depth(p.body, [&](const model::Stmt& s, std::uint32_t) {
    if (const auto* b = std::get_if<model::Block>(&s.node))
      for (const auto& st : b->streams)
        for (const auto& item : st.items)
          if (const auto* in = std::get_if<model::Instr>(&item)) out.push_back(in->id);
  });
  return out;
}

std::string ProgramSize::to_string() const {
  auto n = [](std::size_t k, const char* one, const char* many) {
    return std::to_string(k) + " " + (k == 1 ? one : many);
  };
  return n(engines, "engine", "engines") + ", " + n(statements, "statement", "statements") + ", " +
         n(instructions, "instruction", "instructions") + ", " +
         (synchronization > 0 ? n(synchronization, "synchronization item", "synchronization items")
                              : n(dependencies, "dependency", "dependencies"));
}

ProgramSize size_of(const model::Program& p) {
  ProgramSize s;
  s.engines = p.engines.size();
  s.dependencies = p.deps.size();
  for_each_stmt_with_depth(p.body, [&](const model::Stmt&, std::uint32_t) { ++s.statements; });
  s.instructions = instr_ids(p).size();
  model::for_each_stream(p.body, [&](const model::Stream& st) {
    for (const auto& item : st.items) {
      if (const auto* in = std::get_if<model::Instr>(&item))
        s.synchronization += in->waits.size() + (in->signal ? 1 : 0);
      else ++s.synchronization;  // a register operation or a barrier
    }
  });
  return s;
}

}  // namespace syncbisim::fuzz
