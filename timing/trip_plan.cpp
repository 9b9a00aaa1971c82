#include "timing/trip_plan.h"

#include <variant>

#include "model/walk.h"

namespace syncbisim::timing {

namespace {

void collect_sim_trips(const std::vector<model::Stmt>& body, std::map<std::string, std::uint32_t>& out) {
  model::for_each_stmt(body, [&](const model::Stmt& s, const model::LoopPath&) {
    if (const auto* l = std::get_if<model::Loop>(&s.node); l && l->sim_trip) out[l->id] = *l->sim_trip;
  });
}

// A branch choice: 0 (then) whenever the choice allows it.
std::uint32_t branch_of(const model::Choice& c, std::uint64_t k) {
  if (const auto* r = std::get_if<model::RangeTrip>(&c)) return r->min == 0 ? 0 : 1;
  return model::fixed_value(c, k) == 0 ? 0 : 1;
}

std::uint32_t iterations_of(const model::Choice& c, std::uint64_t k) {
  if (const auto* r = std::get_if<model::RangeTrip>(&c)) return r->max;
  return model::fixed_value(c, k);
}

std::string rule_kind(const model::TripRule& r) {
  if (r.divergent) return "rule, per engine";
  if (std::holds_alternative<model::RangeTrip>(r.uniform)) return "rule: the range's largest";
  if (std::holds_alternative<model::SeqTrip>(r.uniform)) return "rule: the sequence";
  return "rule";
}

}  // namespace

model::Result<TripPlan> TripPlan::make(const model::Program& spec, const model::ProgramIndex& ix,
                                       const std::map<std::string, std::uint32_t>& given, bool use_sim_trips) {
  for (const auto& [name, n] : given) {
    const bool is_cond = ix.loop(model::then_loop(name)).has_value();
    const auto l = ix.loop(name);
    if ((!l || ix.loops[*l].kind != model::LoopKind::Loop) && !is_cond)
      return model::make_error("--trips", "bad-trips", "no loop or cond named '" + name + "'");
    if (is_cond && n > 1) return model::make_error("--trips", "bad-trips", "cond '" + name + "' takes then or else");
  }
  std::map<std::string, std::uint32_t> sim;
  if (use_sim_trips) collect_sim_trips(spec.body, sim);
  TripPlan plan;
  plan.loops_.resize(ix.loops.size());
  for (model::LoopId l = 0; l < ix.loops.size(); ++l) {
    const auto& info = ix.loops[l];
    auto& lt = plan.loops_[l];
    if (info.kind == model::LoopKind::Top || info.kind == model::LoopKind::CondElse) {
      lt.fixed = true;
      lt.value = 1;
      continue;
    }
    lt.is_cond = info.kind == model::LoopKind::CondThen;
    lt.name = lt.is_cond ? info.cond : info.name;
    if (auto it = given.find(lt.name); it != given.end()) {
      lt.fixed = true;
      lt.value = it->second;
      lt.source = "given";
    } else if (auto s = sim.find(lt.name); !lt.is_cond && s != sim.end()) {
      lt.fixed = true;
      lt.value = s->second;
      lt.source = "sim_trip";
    } else if (info.trip) {
      lt.source = rule_kind(*info.trip);
      for (const auto& e : ix.engines) lt.choices.push_back(info.trip->for_engine(e));
    } else {
      lt.fixed = true;  // a loop without a rule (an impl's own loop): once, like stats
      lt.value = lt.is_cond ? 0 : 1;
      lt.source = "no rule: once";
    }
    if (lt.fixed && !lt.is_cond) plan.fixed_[lt.name] = lt.value;
  }
  return plan;
}

std::uint32_t TripPlan::trip(model::LoopId l, model::EngineId e, std::uint64_t k) const {
  const auto& lt = loops_[l];
  std::uint32_t v;
  if (lt.fixed) v = lt.value;
  else v = lt.is_cond ? branch_of(lt.choices[e], k) : iterations_of(lt.choices[e], k);
  return lt.is_cond ? (v == 0 ? 1 : 0) : v;
}

std::vector<std::string> TripPlan::describe() const {
  std::vector<std::string> out;
  for (const auto& lt : loops_) {
    if (lt.name.empty()) continue;
    std::string v;
    if (lt.fixed) v = lt.is_cond ? (lt.value == 0 ? "then" : "else") : std::to_string(lt.value);
    else {
      // the first trip on the first engine stands for the rule
      const auto first = lt.is_cond ? branch_of(lt.choices[0], 0) : iterations_of(lt.choices[0], 0);
      v = lt.is_cond ? (first == 0 ? "then" : "else") : std::to_string(first);
    }
    out.push_back(lt.name + "=" + v + " (" + lt.source + ")");
  }
  return out;
}

}  // namespace syncbisim::timing
