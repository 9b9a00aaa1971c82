#include "checker/mismatch_fix.h"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

namespace syncbisim::checker {

const char* to_string(MismatchFix::Kind k) {
  switch (k) {
    case MismatchFix::Kind::RaiseThreshold: return "raise-threshold";
    case MismatchFix::Kind::AddWait: return "add-wait";
    case MismatchFix::Kind::AddSignal: return "add-signal";
    case MismatchFix::Kind::LowerThreshold: return "lower-threshold";
    case MismatchFix::Kind::DropBarrier: return "drop-barrier";
  }
  return "?";
}

namespace {

std::string gives(const MismatchFix& f) {
  const auto t = std::to_string(*f.threshold);
  return f.threshold_source.empty() ? "its threshold is " + t : "its threshold [" + f.threshold_source + "] gives " + t;
}

const char* kSameEngine =
    " Both are on one engine: an engine pipelines, so issuing in order does not order retirements "
    "(docs/semantics.md §1).";

MismatchFix under_sync(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                       const semantics::Mismatch& m) {
  const semantics::DependencyCheck* c = deciding_check(m);
  MismatchFix f;
  const auto& consumer = spec.instrs[m.instr].name;
  if (!c || c->satisfied()) {  // cannot happen for an under-sync; stay total
    f.kind = MismatchFix::Kind::AddWait;
    f.text = consumer + " needs a wait";
    return f;
  }
  const auto producer_id = spec.deps[c->dep].producer;
  const auto& producer = spec.instrs[producer_id].name;
  const auto owed = c->owed - c->retired;
  f.same_engine = spec.instrs[producer_id].engine == spec.instrs[m.instr].engine;
  const auto& p = impl.instrs[producer_id];
  const std::string owes =
      producer + " owes " + std::to_string(owed) + " more retirement" + (owed == 1 ? "" : "s") + " here";
  if (!p.has_signal) {
    f.kind = MismatchFix::Kind::AddSignal;
    f.text = owes + ", but it signals no semaphore, so no wait can see it retire: give " + producer + " a signal and " +
             consumer + " a wait on it.";
  } else {
    const auto& sem = impl.semaphores[p.signal_sem];
    f.semaphore = sem;
    const auto& waits = impl.instrs[m.instr].waits;
    std::size_t i = 0;
    while (i < waits.size() && waits[i].sem != p.signal_sem) ++i;
    const auto value = i < m.impl_checks.size() ? m.impl_checks[i].value : 0;
    f.value = value;
    f.needed = value + owed * p.signal_add;  // each retirement of the producer adds signal_add
    const std::string needs = "the wait needs " + sem + " >= " + std::to_string(*f.needed) + " at least (" + sem +
                              " = " + std::to_string(value) + " now, and each retirement of " + producer + " adds " +
                              std::to_string(p.signal_add) + ")";
    if (i == waits.size()) {
      f.kind = MismatchFix::Kind::AddWait;
      std::string others;
      std::vector<semantics::SemId> named;
      for (const auto& w : waits)
        if (std::find(named.begin(), named.end(), w.sem) == named.end()) {
          named.push_back(w.sem);
          others += (others.empty() ? " (it waits on " : ", ") + impl.semaphores[w.sem];
        }
      f.text = owes + ", but no wait of " + consumer + " reads " + sem + ", the semaphore " + producer + " signals" +
               (others.empty() ? "" : others + ")") + ": " + needs + ".";
    } else {
      f.kind = MismatchFix::Kind::RaiseThreshold;
      f.threshold = m.impl_checks[i].threshold;
      f.threshold_source = threshold_source(impl, m.engine, m.instr, waits[i]);
      f.text = owes + ": " + needs + "; " + gives(f) + ".";
    }
  }
  if (f.same_engine) f.text += kSameEngine;
  return f;
}

MismatchFix over_sync(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                      const semantics::Mismatch& m) {
  MismatchFix f;
  const auto& consumer = spec.instrs[m.instr].name;
  const std::string nothing = m.spec_checks.empty() ? consumer + " has no dependency in the spec"
                                                    : "every dependency of " + consumer + " is satisfied here";
  const auto& waits = impl.instrs[m.instr].waits;
  const auto* blocking = deciding_wait(m);
  const auto i = blocking ? static_cast<std::size_t>(blocking - m.impl_checks.data()) : waits.size();
  if (blocking && !blocking->holds() && i < waits.size()) {
    const auto& w = *blocking;
    const auto& sem = impl.semaphores[w.sem];
    f.kind = MismatchFix::Kind::LowerThreshold;
    f.semaphore = sem;
    f.value = w.value;
    f.needed = w.value;
    f.threshold = w.threshold;
    f.threshold_source = threshold_source(impl, m.engine, m.instr, waits[i]);
    f.text = nothing + ": the wait needs " + sem + " >= " + std::to_string(w.value) + " at most (" + sem + " = " +
             std::to_string(w.value) + " now); " + gives(f) + ", " + std::to_string(w.threshold - w.value) +
             " more than it can have.";
    return f;
  }
  f.kind = MismatchFix::Kind::DropBarrier;
  f.text = nothing + ", but " + (m.impl_blocked_at_barrier ? "a barrier before it holds the engine" : "it waits") +
           ": the barrier is not needed here.";
  return f;
}

}  // namespace

const semantics::DependencyCheck* deciding_check(const semantics::Mismatch& m) {
  const semantics::DependencyCheck* pick = nullptr;
  for (const auto& c : m.spec_checks)
    if (!pick || (m.impl_can && !c.satisfied() && pick->satisfied())) pick = &c;
  return pick;
}

const semantics::WaitCheck* deciding_wait(const semantics::Mismatch& m) {
  const semantics::WaitCheck* pick = nullptr;
  for (const auto& w : m.impl_checks)
    if (!pick || (!m.impl_can && !w.holds() && pick->holds())) pick = &w;
  return pick;
}

std::string threshold_source(const semantics::CompiledProgram& impl, semantics::EngineId engine,
                             semantics::InstrId consumer, const semantics::CompiledWait& w) {
  if (!w.reg_threshold) return "";
  // Read backwards through the engine's code array, which is its stream as written: the
  // `[w := ...]` an allocator puts right before a wait.
  const auto& code = impl.code[engine];
  std::size_t pc = code.size();
  for (std::size_t i = 0; i < code.size(); ++i)
    if (code[i].kind == semantics::OpKind::Instr && code[i].a == consumer) pc = i;
  for (std::size_t i = pc; i-- > 0;)
    if (code[i].kind == semantics::OpKind::RegOp && impl.regops[code[i].a].dst == w.reg)
      return impl.regops[code[i].a].text;
  return "";
}

namespace {

// Every operation that writes `reg` on `engine`, with the loop it sits in: "[rh_B := 0] outside
// every loop, [rh_B := rh_B + 1] in loop B". A reset written once where it belongs at every
// entry of a loop shows here.
std::string writes_of(const semantics::CompiledProgram& impl, semantics::EngineId engine, semantics::RegId reg) {
  const auto& code = impl.code[engine];
  std::vector<semantics::LoopId> open;  // loops whose body the scan is in
  std::vector<std::size_t> ends;        // the pc after each
  std::string out;
  for (std::size_t i = 0; i < code.size(); ++i) {
    while (!ends.empty() && i >= ends.back()) {
      ends.pop_back();
      open.pop_back();
    }
    if (code[i].kind == semantics::OpKind::LoopHead) {
      open.push_back(code[i].a);
      ends.push_back(code[i].b);
    } else if (code[i].kind == semantics::OpKind::RegOp && impl.regops[code[i].a].dst == reg) {
      out += (out.empty() ? "" : ", ") + ("[" + impl.regops[code[i].a].text + "] ") +
             (open.empty() ? std::string("outside every loop") : "in loop " + impl.loops[open.back()].name);
    }
  }
  return out.empty() ? "never written on " + impl.engines[engine] : out;
}

// The registers an operation reads, each once, in the order met.
std::vector<semantics::RegId> reads_of(const semantics::CompiledExpr& e) {
  std::vector<semantics::RegId> out;
  for (const auto& n : e.nodes)
    if (n.op == model::ExprOp::Reg && std::find(out.begin(), out.end(), n.reg) == out.end()) out.push_back(n.reg);
  return out;
}

}  // namespace

std::string explain_consumer(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                             semantics::EngineId engine, semantics::InstrId consumer,
                             const std::vector<semantics::DependencyCheck>& deps,
                             const std::vector<semantics::WaitCheck>& waits, const std::uint64_t* regs) {
  const auto& name = spec.instrs[consumer].name;
  std::string out = "at that instance of " + name + ":";
  // What each producer is owed in all (not only beyond what it retired), by the dependencies of
  // the consumer: a semaphore that counts from the start must have reached that many signals.
  std::vector<std::uint64_t> owed(spec.instrs.size(), 0);
  std::vector<std::uint8_t> producer(spec.instrs.size(), 0);
  for (const auto& c : deps) {
    const auto& d = spec.deps[c.dep];
    out += " " + spec.instrs[d.producer].name + " -> " + name + " owes " +
           (c.underflow ? std::string("nothing (its target lies before the start)")
                        : std::to_string(c.owed) + " (" + std::to_string(c.retired) + " retired)") +
           ";";
    producer[d.producer] = 1;
    if (!c.underflow) owed[d.producer] = std::max(owed[d.producer], c.owed);
  }
  const bool resets = std::any_of(impl.barriers.begin(), impl.barriers.end(),
                                  [](const semantics::CompiledBarrier& b) { return b.reset_all || !b.reset.empty(); });
  const auto& cw = impl.instrs[consumer].waits;
  std::string suspect;
  std::optional<semantics::SemId> suspect_sem;
  for (std::size_t i = 0; i < waits.size() && i < cw.size(); ++i) {
    const auto& w = waits[i];
    const auto& sem = impl.semaphores[w.sem];
    out += " the wait " + sem + " >= " + std::to_string(w.threshold) + " (" + sem + " = " + std::to_string(w.value) +
           (w.holds() ? ", holds" : ", blocks");
    if (cw[i].reg_threshold) {
      const auto src = threshold_source(impl, engine, consumer, cw[i]);
      out += "; " + impl.registers[cw[i].reg] + (src.empty() ? "" : " from [" + src + "]");
      // The registers behind the threshold, with their values and writes: where a reset or a
      // count went wrong shows here.
      std::vector<semantics::RegId> read{cw[i].reg};
      for (const auto& op : impl.regops)
        if (op.dst == cw[i].reg && !src.empty() && op.text == src) read = reads_of(op.expr);
      for (auto r : read)
        out += ", " + impl.registers[r] + " = " + std::to_string(regs[r]) + " (" + writes_of(impl, engine, r) + ")";
    }
    out += ");";
    // A semaphore that only producers of this consumer signal, never reset: its exact threshold
    // is what those producers are owed, times what each signal adds. Asking more is a fault.
    bool only_producers = true, any = false;
    std::uint64_t exact = 0;
    for (semantics::InstrId p = 0; p < impl.instrs.size(); ++p) {
      if (!impl.instrs[p].has_signal || impl.instrs[p].signal_sem != w.sem) continue;
      any = true;
      if (!producer[p]) only_producers = false;
      else exact += owed[p] * impl.instrs[p].signal_add;
    }
    if (!resets && any && only_producers && w.threshold > exact && !suspect_sem) {
      suspect_sem = w.sem;
      suspect = " so the wait on " + sem + " asks for " + std::to_string(w.threshold) +
                " signals where the dependencies on its producers are owed " + std::to_string(exact) + ": look at " +
                (cw[i].reg_threshold ? impl.registers[cw[i].reg] + " and the registers it reads" : "its constant");
    }
  }
  if (suspect_sem) {
    out += suspect;
    // Another dependency, on a producer that does not signal that semaphore, holds the consumer
    // at least as long: it hides the fault from a check.
    for (const auto& c : deps) {
      const auto p = spec.deps[c.dep].producer;
      if (c.underflow || c.owed == 0 || (impl.instrs[p].has_signal && impl.instrs[p].signal_sem == *suspect_sem))
        continue;
      out += "; " + spec.instrs[p].name + " -> " + name + ", owed " + std::to_string(c.owed) + " here, holds " + name +
             " as long and may mask it";
      break;
    }
    out += ".";
  }
  return out;
}

std::optional<MismatchFix> fix_for(const semantics::CompiledProgram& spec, const semantics::CompiledProgram& impl,
                                   const semantics::Mismatch& m) {
  if (m.undecided || m.impl_can == m.spec_can) return std::nullopt;
  return m.impl_can ? under_sync(spec, impl, m) : over_sync(spec, impl, m);
}

void fix_to_json(const MismatchFix& f, nlohmann::json& out) {
  out = {{"kind", to_string(f.kind)}, {"same_engine", f.same_engine}, {"text", f.text}};
  if (f.semaphore) out["semaphore"] = *f.semaphore;
  if (f.value) out["value"] = *f.value;
  if (f.needed) out["needed"] = *f.needed;
  if (f.threshold) out["threshold"] = *f.threshold;
  if (!f.threshold_source.empty()) out["threshold_source"] = f.threshold_source;
}

}  // namespace syncbisim::checker
