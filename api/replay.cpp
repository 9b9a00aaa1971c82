// replay() of the public API: a trace that check, prove, fuzz or shrink wrote, replayed step by step
// on the pair (docs/checker.md "Replay", `syncbisim replay`), with the library calls the command
// makes (checker/trace_replay.h, checker/replay_report.h).
#include <filesystem>

#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "api/detail/results.h"
#include "checker/replay_report.h"
#include "checker/trace_replay.h"
#include "formats/load.h"
#include "latency/counterexample_svg.h"

namespace syncbisim {

namespace {

// The trace file's text: `trace` itself, or the file it names (as Program::load tells a path from
// a program's text: JSON always has a '{' or a '[').
std::pair<std::string, std::string> trace_text(const std::string& trace) {
  if (trace.find_first_of("{[") != std::string::npos) return {trace, "<trace>"};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(trace, ec))
    throw Error(trace, "", "io", "no such file (and not a trace's JSON text)");
  auto text = formats::read_input_file(trace);
  if (!text) api::detail::raise(text.error(), trace);
  return {std::move(*text), trace};
}

}  // namespace

namespace api::detail {

TraceArgument read_trace_argument(const std::string& trace, std::size_t which) {
  auto [text, name] = trace_text(trace);
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) throw Error(name, "", "bad-json", "not a JSON trace file");
  auto steps = checker::read_trace(doc, which);
  if (!steps) api::detail::raise(steps.error(), name);
  return TraceArgument{std::move(*steps), name};
}

}  // namespace api::detail

int ReplayResult::exit_status() const {
  if (!fits) return 2;
  return violations.empty() ? 0 : 1;
}

ReplayResult replay(const Program& spec, const Program& impl, const std::string& trace, const ReplayOptions& options) {
  api::detail::require_order(spec, impl);
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  const auto read = api::detail::read_trace_argument(trace, options.violation);
  const auto* steps = &read.steps;
  // A trace with commit steps comes from a search that kept them (check --no-reduction). An
  // overflow shows only at the widths it was found at (docs/semantics.md "Widths").
  semantics::Options so;
  so.fuse_commit = !checker::trace_has_commits(*steps);
  so.widths = api::detail::widths(options.register_bits, options.semaphore_bits);
  const auto [matched, pair] = api::detail::pair_of(spec, impl, checker::PairOptions{so});
  const auto r = checker::replay_trace(*pair, *steps);
  ReplayResult out;
  out.fits = r.misfit.empty();
  out.misfit = r.misfit;
  for (const auto& s : r.steps) out.steps.push_back(ReplayStep{s.number, s.text, s.changes, s.checks});
  for (const auto& v : r.violations) out.violations.push_back(checker::to_string(v.kind));
  if (r.expected) out.reproduced = r.expected_shown;
  out.text = checker::render_replay(*pair, r);
  out.json = formats::json_text(checker::replay_json(*pair, r));
  if (options.svg && r.misfit.empty() && !r.violations.empty()) {  // as the command draws it
    checker::CheckResult as_found;
    as_found.violations = r.violations;
    if (auto svg = latency::counterexample_svg(pair->lockstep(), as_found)) out.svg = std::move(*svg);
  }
  return out;
}

}  // namespace syncbisim
