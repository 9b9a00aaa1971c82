#include "prover/report.h"

#include <deque>
#include <sstream>
#include <stdexcept>

#include "checker/trace_view.h"
#include "semantics/lockstep.h"
#include "semantics/random_run.h"

namespace syncbisim::prover {

namespace {

constexpr std::size_t kHead = 24, kTail = 24;  // events shown of a long trace
constexpr std::size_t kMinElided = 8;           // fewer hidden than this: show them all (no "... (1 events)")
constexpr std::size_t kJsonSteps = 1000;       // steps listed in --json before head and tail only

std::string indent_lines(const std::string& text, const std::string& indent) {
  std::string out = indent;
  for (std::size_t k = 0; k < text.size(); ++k) {
    out += text[k];
    if (text[k] == '\n' && k + 1 < text.size()) out += indent;
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

// The columns of a stretch of events whose first visible step is number `first` + 1.
std::string columns(const semantics::CompiledProgram& p, const std::vector<semantics::RunEvent>& events,
                    std::size_t first, bool header) {
  const auto text = checker::render_columns(p, events);
  std::string out;
  std::size_t pos = 0;
  bool head = true;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (head) {
      head = false;
      if (header) out += line + "\n";
      continue;
    }
    // Renumber: render_columns counts from 1 within the stretch.
    const auto num = line.substr(0, std::min<std::size_t>(6, line.size()));
    if (num.find_first_not_of(' ') != std::string::npos && first > 0) {
      auto n = std::to_string(std::stoull(num) + first);
      if (n.size() < 6) n.append(6 - n.size(), ' ');
      line = n + line.substr(std::min<std::size_t>(6, line.size()));
    }
    out += line + "\n";
  }
  return out;
}

nlohmann::json property_json(const ProveResult& r, const Property& p) {
  nlohmann::json j{{"answer", to_string(p.answer)}};
  if (!p.reason.empty()) j["reason"] = p.reason;
  if (p.model)
    j["counterexample"] = {{"trips", p.model->trips}, {"iteration", p.model->iteration}, {"retired", p.model->retired}};
  if (p.witness) {
    const auto& w = *p.witness;
    const auto& ip = r.pair->impl_code();
    auto steps = nlohmann::json::array();
    const auto n = w.trace.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (n > kJsonSteps && k == kJsonSteps / 2) k = n - kJsonSteps / 2;
      steps.push_back(checker::step_to_json(ip, w.trace[k]));
    }
    steps.push_back(checker::parting_json(r.pair->spec_code(), w.mismatch));
    j["witness"] = {{"kind", w.kind},
                    {"description", w.description},
                    {"at_barrier", w.mismatch.impl_blocked_at_barrier},
                    {"found_by", w.found_by},
                    {"steps", w.steps},
                    {"trace", steps}};
    if (n > kJsonSteps) j["witness"]["trace_omitted"] = n - kJsonSteps;
    if (!w.trace_built) j["witness"]["trace_built"] = false;
  }
  return j;
}

std::string property_text(const Property& p) {
  std::string out = to_string(p.answer);
  if (!p.reason.empty()) out += ": " + p.reason;
  return out;
}

}  // namespace

std::string consumer_line(const ConsumerResult& c) {
  return c.instr + " (" + c.engine + "): safe " + property_text(c.safe) + "; exact " + property_text(c.exact);
}

std::string witness_text(const ProveResult& r, const Witness& w, const std::string& indent) {
  const auto& both = r.pair->lockstep();
  const auto& ip = r.pair->impl_code();
  std::string out = indent_lines(w.description, indent);
  if (!w.trace_built)  // too long to keep (ProveOptions::max_witness_steps): nothing to replay
    return out + indent + "trace, " + std::to_string(w.steps) + " steps (" + w.found_by +
           "): not built, longer than the witness limit (--max-witness-steps)\n";
  // Head and tail of the events (internal ones included), streamed: a deep witness has millions.
  std::vector<semantics::RunEvent> head;
  std::deque<semantics::RunEvent> tail;
  std::size_t events = 0, visible = 0, visible_before_tail = 0;
  semantics::replay_lockstep(both, w.trace, [&](const semantics::RunEvent& ev) {
    ++events;
    if (head.size() < kHead) {
      head.push_back(ev);
    } else {
      tail.push_back(ev);
      if (tail.size() > kTail + kMinElided) {
        if (tail.front().visible) ++visible_before_tail;
        tail.pop_front();
      }
    }
    if (ev.visible) ++visible;
  });
  std::size_t head_visible = 0;
  for (const auto& ev : head) head_visible += ev.visible;
  out += indent + "trace, " + std::to_string(w.trace.size()) + " steps (" + w.found_by + ")";
  if (events <= kHead + kTail + kMinElided) {
    std::vector<semantics::RunEvent> all(head);
    all.insert(all.end(), tail.begin(), tail.end());
    out += ":\n" + indent_lines(columns(ip, all, 0, true), indent + "  ");
    return out;
  }
  while (tail.size() > kTail) {
    if (tail.front().visible) ++visible_before_tail;
    tail.pop_front();
  }
  out += "; first " + std::to_string(kHead) + " and last " + std::to_string(kTail) +
         " events shown (--trace-out FILE writes all):\n";
  out += indent_lines(columns(ip, head, 0, true), indent + "  ");
  out += indent + "  ...   (" + std::to_string(events - kHead - kTail) + " events)\n";
  const std::vector<semantics::RunEvent> last(tail.begin(), tail.end());
  out += indent_lines(columns(ip, last, head_visible + visible_before_tail, false), indent + "  ");
  return out;
}

std::string overflow_line(const OverflowResult& o) {
  std::string out = o.answer == Answer::Refuted ? std::string("overflow") : to_string(o.answer);
  out += ": " + o.kind + " " + o.name;
  if (o.kind == "register") out += " (" + o.engine + ")";
  if (!o.reason.empty()) out += ": " + o.reason;
  if (o.answer == Answer::Refuted)
    out += o.traced ? "; trace of " + std::to_string(o.trace.size()) + " steps (directed run)"
                    : "; no trace: " + o.no_trace;
  return out;
}

std::string overflow_trace_text(const ProveResult& r, const OverflowResult& o, const std::string& indent) {
  Witness w;
  w.description = o.kind + " " + o.name + " is past " + std::to_string(o.max) + " at the last state";
  w.trace = o.trace;
  w.found_by = "directed run";
  return witness_text(r, w, indent);
}

std::string verdict_words(const ProveResult& r) {
  if (r.verdict != Answer::Refuted) return to_string(r.verdict);
  // Refuted only for exactness: the impl is safe (nothing issues early) but waits where nothing
  // is owed. "refuted" alone reads as unsafe (issue 42).
  bool unsafe = false, all_safe = true;
  for (const auto& c : r.consumers) {
    unsafe = unsafe || c.safe.answer == Answer::Refuted;
    all_safe = all_safe && c.safe.answer == Answer::Proved;
  }
  for (const auto& o : r.overflows) unsafe = unsafe || o.answer == Answer::Refuted;
  if (unsafe) return "refuted";
  return all_safe ? "safe, not exact" : "not exact (safety not decided for every consumer)";
}

std::string render_text(const ProveResult& r) {
  std::string out = verdict_words(r) + "\n";
  if (!r.may_deadlock.empty())
    out += "note: not shown free of deadlock for every trip count (" + r.may_deadlock +
           "); the answers below are about the consumers only (a barrier of the impl makes the verdict unknown), and "
           "`check` finds where it deadlocks\n";
  for (const auto& c : r.consumers) {
    out += consumer_line(c) + "\n";
    for (const auto* p : {&c.safe, &c.exact})
      if (p->witness) out += witness_text(r, *p->witness, "  ");
  }
  // The overflow questions: those not proved one by one, the proved ones counted.
  std::size_t proved = 0;
  for (const auto& o : r.overflows) {
    if (o.answer == Answer::Proved) {
      ++proved;
      continue;
    }
    out += overflow_line(o) + "\n";
    if (o.traced) out += overflow_trace_text(r, o, "  ");
  }
  if (!r.overflows.empty())
    out += "no overflow: " + std::to_string(proved) + " of " + std::to_string(r.overflows.size()) +
           " registers and semaphores never pass " + std::to_string(r.widths.register_bits) +
           "-bit registers, signed " + std::to_string(r.widths.semaphore_bits) + "-bit semaphores\n";
  return out;
}

nlohmann::json render_json(const ProveResult& r) {
  nlohmann::json out{{"syncbisim", "prove/1"}, {"verdict", to_string(r.verdict)}, {"seconds", r.seconds}};
  out["may_deadlock"] = r.may_deadlock.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.may_deadlock);
  auto& cs = out["consumers"] = nlohmann::json::array();
  for (const auto& c : r.consumers)
    cs.push_back({{"instr", c.instr},
                  {"engine", c.engine},
                  {"answer", to_string(c.answer)},
                  {"seconds", c.seconds},
                  {"safe", property_json(r, c.safe)},
                  {"exact", property_json(r, c.exact)}});
  out["widths"] = {{"register_bits", r.widths.register_bits}, {"semaphore_bits", r.widths.semaphore_bits}};
  auto& os = out["overflows"] = nlohmann::json::array();
  for (const auto& o : r.overflows) {
    nlohmann::json j{{"kind", o.kind},         {"name", o.name},      {"max", o.max}, {"answer", to_string(o.answer)},
                     {"found_by", o.found_by}, {"seconds", o.seconds}};
    if (!o.engine.empty()) j["engine"] = o.engine;
    if (!o.reason.empty()) j["reason"] = o.reason;
    if (o.answer == Answer::Refuted) {
      j["at"] = o.at;
      j["value"] = o.value;
      if (o.model) j["counterexample"] = {{"trips", o.model->trips}, {"iteration", o.model->iteration}};
      if (o.traced) {
        auto steps = nlohmann::json::array();
        const auto n = o.trace.size();
        for (std::size_t k = 0; k < n; ++k) {
          if (n > kJsonSteps && k == kJsonSteps / 2) k = n - kJsonSteps / 2;
          steps.push_back(checker::step_to_json(r.pair->impl_code(), o.trace[k]));
        }
        j["trace"] = {{"steps", n}, {"events", steps}};
        if (n > kJsonSteps) j["trace"]["trace_omitted"] = n - kJsonSteps;
      } else {
        j["no_trace"] = o.no_trace;
      }
    }
    os.push_back(j);
  }
  return out;
}

std::string traces_json(const ProveResult& r) {
  // Written as text event by event: a deep witness has millions of events, too many to hold as
  // one JSON document in memory.
  std::ostringstream out;
  out << "{\n  \"syncbisim\": \"traces/1\",\n  \"witnesses\": [";
  const auto& ip = r.pair->impl_code();
  bool first_witness = true;
  // One witness: its head (without the closing brace), every event, then its closing element.
  const auto write = [&](nlohmann::json head, const std::vector<semantics::Step>& trace,
                         const nlohmann::json& closing) {
    auto text = head.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    text.pop_back();  // the closing brace: the trace follows
    out << (first_witness ? "\n    " : ",\n    ") << text << ", \"trace\": [";
    first_witness = false;
    bool first = true;
    semantics::replay_lockstep(r.pair->lockstep(), trace, [&](const semantics::RunEvent& ev) {
      auto j = checker::step_to_json(ip, ev.step);
      if (!ev.detail.empty()) j["detail"] = ev.detail;
      out << (first ? "\n      " : ",\n      ") << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      first = false;
    });
    out << (first ? "\n      " : ",\n      ") << closing.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out << "\n    ]}";
  };
  for (const auto& c : r.consumers)
    for (const auto& [name, p] : {std::pair<const char*, const Property*>{"safe", &c.safe}, {"exact", &c.exact}}) {
      if (!p->witness) continue;
      nlohmann::json head{{"instr", c.instr},
                          {"engine", c.engine},
                          {"property", name},
                          {"kind", p->witness->kind},
                          {"description", p->witness->description},
                          {"steps", p->witness->steps}};
      if (!p->witness->trace_built) head["trace_built"] = false;
      write(head, p->witness->trace, checker::parting_json(r.pair->spec_code(), p->witness->mismatch));
    }
  // The overflows with a trace (docs/prover.md "Overflow"), closed as check closes one. The
  // prover's pair runs at the default widths (its directed run watches the value itself), so the
  // run is replayed on an impl at the widths asked for, whose semantics name the overflow as
  // check does, up to the first state past a width.
  const auto& both = r.pair->lockstep();
  const semantics::ImplSystem narrow_impl(ip, semantics::Options{true, r.widths});
  const semantics::Lockstep narrow(both.spec(), narrow_impl);
  for (const auto& o : r.overflows) {
    if (o.answer != Answer::Refuted || !o.traced) continue;
    auto end = narrow.initial();
    std::size_t taken = 0;
    for (; taken < o.trace.size() && !narrow_impl.overflowed(end.impl); ++taken) narrow.apply(end, o.trace[taken]);
    const auto found = narrow_impl.overflows(end.impl);
    if (found.empty()) throw std::logic_error("prove: an overflow's trace that passes no width");
    auto closing = checker::overflow_json(ip, found.front());
    closing["step"] = "overflow";
    const std::vector<semantics::Step> trace(o.trace.begin(), o.trace.begin() + static_cast<std::ptrdiff_t>(taken));
    write({{"kind", "overflow"},
           {"engine", ip.engines[found.front().engine]},
           {"description", o.reason},
           {"steps", trace.size()}},
          trace, closing);
  }
  out << "\n  ]\n}\n";
  return out.str();
}

}  // namespace syncbisim::prover
