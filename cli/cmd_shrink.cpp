// syncbisim shrink SPEC IMPL | SPEC --strategy S | SPEC --allocator CMD [-o DIR]: minimizes a
// failing case while keeping the same failure (the same violation kind on the same instruction,
// or the same fault of the allocator) (docs/fuzzing.md).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/deadline.h"
#include "cli/terminal_text.h"
#include "cli/inputs.h"
#include "cli/number_options.h"
#include "cli/progress.h"
#include "formats/json_format.h"
#include "formats/json_text.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "fuzz/command_allocator.h"
#include "fuzz/shrink.h"

namespace syncbisim::cli {

namespace {

struct ShrinkArgs {
  std::string spec, impl, strategy, allocator, out;
  std::uint64_t max_steps = 5000, max_states = 100000;
  std::size_t allocator_max_output_mib = 16;
  double max_seconds = 60, allocator_timeout = 10;
  bool quiet = false, declined_is_failure = false, keep_spec = false, free = false;
};

int run_shrink(const ShrinkArgs& a) {
  if ((!a.impl.empty()) + (!a.strategy.empty()) + (!a.allocator.empty()) != 1) {
    std::cerr << "syncbisim shrink: give exactly one of IMPL, --strategy and --allocator\n";
    return 2;
  }
  // --max-seconds bounds the whole command, from the process's start (cli/deadline.h).
  CommandDeadline deadline(a.max_seconds, "shrink");
  deadline.phase("reading the inputs");
  int status = 0;
  auto spec = load_spec(a.spec, status);
  if (!spec) return status;
  std::optional<fuzz::ShrinkMode> mode;
  fuzz::ShrinkOptions o;
  o.max_steps = a.max_steps;
  o.check.max_states = a.max_states;
  o.keep_spec = a.keep_spec;
  o.free = a.free;
  if (!a.impl.empty()) {
    auto pair = load_pair(a.spec, a.impl, status);
    if (!pair) return status;
    mode = fuzz::GivenImpl{pair->impl.program};
    o.check.policy = fuzz::Counts::All;  // a given pair: whatever it shows
  } else if (!a.allocator.empty()) {
    fuzz::CommandOptions c;
    c.command = a.allocator;
    c.timeout_seconds = a.allocator_timeout;
    c.max_output_bytes = a.allocator_max_output_mib << 20;
    c.stop = &deadline.expired();  // an allocator in flight at the limit is stopped
    mode = fuzz::DerivedImpl{fuzz::command_allocator(c), a.declined_is_failure};
    o.check.policy = fuzz::Counts::AllOnAllocatable;  // as fuzz --allocator counts
  } else {
    const auto strategy = allocator::parse_strategy(a.strategy);
    if (!strategy) {
      std::cerr << "syncbisim shrink: unknown strategy '" << a.strategy << "' (" << allocator::strategy_names()
                << ")\n";
      return 2;
    }
    mode = fuzz::DerivedImpl{fuzz::allocate_with(*strategy), false};
    o.check.policy =
        *strategy == allocator::Strategy::Barrier ? fuzz::Counts::UnderSyncOnly : fuzz::Counts::AllOnAllocatable;
  }
  ProgressLine progress(a.quiet);
  std::string last;
  if (progress.enabled())
    o.progress = [&](const fuzz::ShrinkProgress& p) {
      char line[300];
      std::snprintf(line, sizeof line, "shrink: step %llu, %llu kept, %s (%s, %.1f s)",
                    static_cast<unsigned long long>(p.steps), static_cast<unsigned long long>(p.accepted),
                    p.size.to_string().c_str(), p.pass.c_str(), p.seconds);
      last = line;
      progress.show(last);
    };
  // The seconds left now: the shrinker stops there, and no candidate's check outlives it.
  o.max_seconds = deadline.left();
  deadline.phase("shrinking");
  auto r = fuzz::shrink(spec->program, *mode, std::nullopt, o);
  deadline.phase("reporting");
  if (r) r->stopped = deadline.as_given(r->stopped);
  progress.finish();
  if (!last.empty()) progress.show(last, true);  // where it ended, also in a log
  progress.finish();
  if (!r) {
    std::cerr << printable_lines(a.spec + ": " + r.error().message) << " [" << r.error().rule << "]\n";
    return 2;
  }
  std::cout << "failure: " << printable_lines(r->what) << "\n"
            << "before: " << r->before.to_string() << "\n"
            << "after: " << r->after.to_string() << "\n";
  if (r->impl_before.engines > 0 || r->impl_after.engines > 0)
    std::cout << "impl before: " << r->impl_before.to_string() << "\n"
              << "impl after: " << r->impl_after.to_string() << "\n";
  // The question kept: the failing instruction's dependencies, as they were and as they are.
  for (const auto& k : r->kinds_before) std::cout << "  dependency before: " << k.to_string() << "\n";
  for (const auto& k : r->kinds_after) std::cout << "  dependency after:  " << k.to_string() << "\n";
  if (std::holds_alternative<fuzz::ViolationAt>(r->failure) && !r->kinds_before.empty())
    std::cout << "  kept: " << fuzz::kept_quantities(r->kinds_before, r->kinds_after) << "\n";
  if (r->kind_changes > 0)
    std::cout << "  " << r->kind_changes << " candidates refused: a dependency would have changed its kind"
              << " (--free allows it)\n";
  char line[200];
  std::snprintf(line, sizeof line, "%llu candidates checked, %llu kept, %llu cache hits, %.2f s%s%s\n",
                (unsigned long long)r->steps, (unsigned long long)r->accepted, (unsigned long long)r->cache_hits,
                r->seconds, r->stopped.empty() ? "" : ", stopped at ", r->stopped.c_str());
  std::cout << line;
  const bool has_impl = !r->impl.engines.empty();
  if (a.out.empty()) {
    std::cout << "\n" << formats::write_text(r->spec);
    if (has_impl) std::cout << "\n" << formats::write_text(r->impl);
    if (!a.allocator.empty() && !has_impl) {
      std::cout << "\nthe allocator's stdout:\n" << printable_lines(r->reply.output);
      std::cout << "\nthe allocator's stderr:\n" << printable_lines(r->reply.errors);
    }
    return 0;
  }
  if (const int status = create_out_directory(a.out)) return status;
  const std::string stem = (std::filesystem::path(a.out) / std::filesystem::path(a.spec).stem()).string() + ".min";
  std::vector<std::pair<std::string, std::string>> files = {{stem + ".spec.json", formats::write_json(r->spec)}};
  if (has_impl) {
    files.push_back({stem + ".impl.json", formats::write_json(r->impl)});
    // The minimized case's traces, for `syncbisim replay` (the same file as check --trace-out).
    fuzz::CaseOptions traced = o.check;
    traced.want_traces = true;
    const auto c = fuzz::check_case(r->spec, r->impl, traced);
    if (c.invalid.empty() && !c.check.violations.empty())
      files.push_back({stem + ".trace.json", formats::json_text(c.traces)});
  }
  if (!a.allocator.empty()) {
    files.push_back({stem + ".allocator.out", r->reply.output});
    files.push_back({stem + ".allocator.err", r->reply.errors});
  }
  std::cout << "wrote";
  for (const auto& [path, content] : files) {
    if (auto st = formats::write_file_atomically(path, content); !st) {
      auto d = st.error();
      if (d.file.empty()) d.file = path;
      return input_error(d);
    }
    std::cout << " " << path;
  }
  std::cout << "\n";
  if (!a.allocator.empty() && std::holds_alternative<fuzz::AllocatorFault>(r->failure))
    std::cout << "repro: " << fuzz::command_invocation(a.allocator, stem + ".spec.json") << "\n";
  else if (has_impl) std::cout << "repro: syncbisim check " << stem << ".spec.json " << stem << ".impl.json\n";
  return 0;
}

}  // namespace

void add_shrink(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, a] = add_command<ShrinkArgs>(
      app, ctx, name, "Minimize a failing case, keeping the same failure on the same instruction", run_shrink);
  add_spec_argument(cmd, a->spec);
  cmd->add_option("IMPL", a->impl, "impl program; candidates edit both programs")->check(CLI::ExistingFile);
  cmd->add_option("--strategy", a->strategy, "re-derive the impl from each candidate spec with this strategy");
  cmd->add_option("--allocator", a->allocator,
                  "re-derive the impl from each candidate spec with your allocator command (as fuzz --allocator)");
  cmd->add_option("--allocator-timeout", a->allocator_timeout, "seconds the command may take per spec")
      ->check(seconds())
      ->capture_default_str();
  cmd->add_option("--allocator-max-output", a->allocator_max_output_mib,
                  "MiB the command may write on stdout or stderr per spec; more kills its process group (a fault)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4096}))
      ->capture_default_str();
  cmd->add_flag("--declined-is-failure", a->declined_is_failure, "a refusal counts as a failure (as in fuzz)");
  cmd->add_option("-o,--out", a->out,
                  "write SPEC-stem.min.spec.json, .min.impl.json (and the allocator's output) here; else print text");
  cmd->add_option("--max-steps", a->max_steps, "candidates checked at most")->capture_default_str();
  cmd->add_option("--max-seconds", a->max_seconds, "seconds at most (the result then depends on speed)")
      ->check(seconds())
      ->capture_default_str();
  cmd->add_option("--max-states", a->max_states, "state limit per check")->capture_default_str();
  cmd->add_flag("--keep-spec", a->keep_spec, "with IMPL: shrink only the impl, the spec stays as given");
  cmd->add_flag("--free", a->free,
                "let a kept dependency change its kind (the loop it is carried at, its case, a lower offset)");
  cmd->add_flag("-q,--quiet", a->quiet, "no progress lines on stderr");
}

}  // namespace syncbisim::cli
