#include "semantics/spec_system.h"

#include <algorithm>

namespace syncbisim::semantics {

std::uint64_t SpecState::hash() const {
  Hasher h;
  hash_into(h, control);
  h.add_run(retired.data(), retired.size());
  for (const auto& e : entries) h.add_run(e.data(), e.size());
  for (const auto& d : history) h.add_run(d.data(), d.size());
  return h.h;
}

SpecSystem::SpecSystem(const CompiledProgram& p, Options o) : control_(p, o) {
  tracked_.assign(p.engine_count(), std::vector<std::uint8_t>(p.loop_count(), 0));
  for (const auto& d : p.deps) tracked_[d.consumer_engine][d.P] = 1;
  recorded_at_.assign(p.engine_count(), std::vector<std::vector<std::uint32_t>>(p.loop_count()));
  for (std::uint32_t di = 0; di < p.deps.size(); ++di)
    recorded_at_[p.deps[di].consumer_engine][p.deps[di].S].push_back(di);
}

SpecState SpecSystem::initial() const {
  const auto& p = program();
  SpecState s;
  s.control = control_.initial();
  s.retired.assign(p.instrs.size(), 0);
  s.entries.assign(p.engine_count(), SmallVec<std::uint32_t, 8>(p.loop_count(), 0));
  // @top's single iteration has started on every engine.
  for (EngineId e = 0; e < p.engine_count(); ++e)
    if (tracked_[e][model::kTop]) s.entries[e][model::kTop] = 1;
  s.history.resize(p.deps.size());
  return s;
}

DependencyCheck SpecSystem::check(const SpecState& s, EngineId e, std::uint32_t di) const {
  const auto& d = program().deps[di];
  DependencyCheck c;
  c.dep = di;
  c.retired = s.retired[d.producer];
  const auto& frames = s.control.engines[e].frames;
  // Starred loops (L=*) have no target component: every iteration below the numeric prefix is owed.
  for (std::size_t j = 0; j < d.whole_from; ++j) {
    const auto t = static_cast<std::int64_t>(frames[d.common[j]].iter) - d.distance[j];
    c.target.push_back(t);
    if (t <= 0) c.underflow = true;
  }
  if (c.underflow) return c;  // the target names an iteration before the first: nothing is owed
  // Σ_{i ⪯ t} H_e(i, P): P-iterations started before the first recorded S-iteration after t.
  c.owed = s.entries[e][d.P];
  const auto& h = s.history[di];
  const std::size_t width = d.common.size();
  for (std::size_t k = 0; k < h.size(); k += width + 1)
    if (compare_to_target(h.data() + k, frames, d) > 0) {
      c.owed = h[k + width];
      break;
    }
  return c;
}

// Lexicographic, outermost loop first (paper §4.2, ⪯). A starred loop's target component is
// past every iteration (docs/semantics.md §2, "Whole iterations"): a record equal to the target
// on the numeric prefix lies below it.
int SpecSystem::compare_to_target(const std::uint32_t* record, const SmallVec<Frame, 8>& frames, const CompiledDep& d) {
  for (std::size_t j = 0; j < d.whole_from; ++j) {
    const auto x = static_cast<std::int64_t>(record[j]);
    const auto t = static_cast<std::int64_t>(frames[d.common[j]].iter) - d.distance[j];
    if (x != t) return x < t ? -1 : 1;
  }
  return d.whole_from < d.common.size() ? -1 : 0;
}

bool SpecSystem::satisfied(const SpecState& s, EngineId e, std::uint32_t di) const {
  const auto& d = program().deps[di];
  const auto& frames = s.control.engines[e].frames;
  const std::size_t width = d.common.size();
  for (std::size_t j = 0; j < d.whole_from; ++j)
    if (static_cast<std::int64_t>(frames[d.common[j]].iter) <= d.distance[j]) return true;  // underflow: nothing owed
  std::uint64_t owed = s.entries[e][d.P];
  const auto& h = s.history[di];
  for (std::size_t k = 0; k < h.size(); k += width + 1)
    if (compare_to_target(h.data() + k, frames, d) > 0) {
      owed = h[k + width];
      break;
    }
  return s.retired[d.producer] >= owed;
}

std::vector<DependencyCheck> SpecSystem::explain(const SpecState& s, EngineId e) const {
  std::vector<DependencyCheck> out;
  const Op& op = control_.next_op(s.control, e);
  if (op.kind != OpKind::Instr) return out;
  for (auto di : program().deps_of_consumer[op.a]) out.push_back(check(s, e, di));
  return out;
}

bool SpecSystem::can_issue(const SpecState& s, EngineId e) const {
  const Op& op = control_.next_op(s.control, e);
  if (op.kind != OpKind::Instr) return false;
  for (auto di : program().deps_of_consumer[op.a])
    if (!satisfied(s, e, di)) return false;
  return true;
}

void SpecSystem::enabled(const SpecState& s, EngineId e, Steps& out) const {
  if (can_issue(s, e)) out.push_back(Step{StepKind::Issue, e, control_.next_op(s.control, e).a, 0});
  control_.enabled(s.control, e, out);
}

void SpecSystem::enabled(const SpecState& s, Steps& out) const {
  for (EngineId e = 0; e < program().engine_count(); ++e) enabled(s, e, out);
}

void SpecSystem::record_entry(SpecState& s, EngineId e, LoopId l) const {
  const auto& p = program();
  const auto& frames = s.control.engines[e].frames;
  for (auto di : recorded_at_[e][l]) {
    const auto& d = p.deps[di];
    const std::size_t width = d.common.size();
    // The new record's vector v is the engine's iteration vector over the common loops. Future
    // targets are at least v - distance, today's target (⪯ is translation invariant); records
    // at or below it are never the first one after a future target.
    auto& h = s.history[di];
    std::size_t drop = 0;
    while (drop < h.size() && compare_to_target(h.data() + drop, frames, d) <= 0) drop += width + 1;
    h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(drop));
    const std::size_t at = h.size();
    h.resize(at + width + 1);
    for (std::size_t j = 0; j < width; ++j) h[at + j] = frames[d.common[j]].iter;
    h[at + width] = s.entries[e][d.P];  // before this entry is counted (P may be S itself)
  }
  if (tracked_[e][l]) ++s.entries[e][l];
}

void SpecSystem::apply(SpecState& s, const Step& st) const {
  switch (st.kind) {
    case StepKind::Issue: control_.issue(s.control, st.engine, st.arg); return;
    case StepKind::Retire:
      control_.apply(s.control, st);
      ++s.retired[st.arg];
      return;
    default:
      if (const auto entered = control_.apply(s.control, st); entered != Control::kNoLoop)
        record_entry(s, st.engine, entered);
  }
}

bool SpecSystem::all_finished(const SpecState& s) const {
  for (EngineId e = 0; e < program().engine_count(); ++e)
    if (!control_.finished(s.control, e)) return false;
  return true;
}

}  // namespace syncbisim::semantics
