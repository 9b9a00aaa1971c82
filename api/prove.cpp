// prove() of the public API: the Z3 prover (docs/prover.md). Z3 stays behind prover/.
#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "api/detail/results.h"
#include "checker/program_pair.h"
#include "checker/trace_view.h"
#include "prover/prove.h"
#include "prover/report.h"

namespace syncbisim {

namespace {
Answer answer_of(prover::Answer a) {
  switch (a) {
    case prover::Answer::Proved: return Answer::Proved;
    case prover::Answer::Refuted: return Answer::Refuted;
    case prover::Answer::Unknown: return Answer::Unknown;
  }
  return Answer::Unknown;
}
}  // namespace

std::string to_string(Answer a) {
  switch (a) {
    case Answer::Proved: return prover::to_string(prover::Answer::Proved);
    case Answer::Refuted: return prover::to_string(prover::Answer::Refuted);
    case Answer::Unknown: return prover::to_string(prover::Answer::Unknown);
  }
  return "?";
}

int ProveResult::exit_status() const { return verdict == Answer::Proved ? 0 : verdict == Answer::Refuted ? 1 : 3; }

ProveResult prove(const Program& spec, const Program& impl, const ProveOptions& options) {
  api::detail::require_order(spec, impl);
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  // The one way in: the spec unrolled to match an unrolling impl, and the pair's correspondence.
  const auto [matched, pair] = api::detail::pair_of(spec, impl, {});
  prover::ProveOptions o;
  o.z3_timeout_ms = options.z3_timeout_ms;
  o.replay = options.replay;
  o.widths = api::detail::widths(options.register_bits, options.semaphore_bits);
  o.jobs = options.jobs;
  const auto r = prover::prove(matched.data().program, matched.data().index, impl.data().program, impl.data().index, o);
  return api::detail::prove_result(r);
}

namespace api::detail {

ProveResult prove_result(const prover::ProveResult& r) {
  ProveResult out;
  out.verdict = answer_of(r.verdict);
  out.seconds = r.seconds;
  // Witnesses in the trace encoding every command writes: visible steps, then where they part.
  const auto property = [&](const prover::Property& p) {
    PropertyProof out{answer_of(p.answer), p.reason, {}};
    if (p.witness && r.pair) {
      nlohmann::json steps = nlohmann::json::array();
      for (const auto& st : p.witness->trace) steps.push_back(checker::step_to_json(r.pair->impl_code(), st));
      const auto& m = p.witness->mismatch;
      steps.push_back({{"step", "part"},
                       {"engine", r.pair->spec_code().engines[m.engine]},
                       {"instr", r.pair->spec_code().instrs[m.instr].name}});
      out.witness = api::detail::trace_steps(steps);
    }
    return out;
  };
  for (const auto& c : r.consumers)
    out.consumers.push_back(
        ConsumerProof{c.instr, c.engine, answer_of(c.answer), property(c.safe), property(c.exact), c.seconds});
  out.text = prover::render_text(r);
  out.json = formats::json_text(prover::render_json(r));
  out.traces = prover::traces_json(r);
  return out;
}

}  // namespace api::detail

}  // namespace syncbisim
