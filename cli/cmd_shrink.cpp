// syncbisim shrink SPEC IMPL [-o DIR] | syncbisim shrink SPEC --strategy S [-o DIR]: minimizes a
// failing case while keeping the same failure kind on the same instruction (docs/fuzzing.md).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "fuzz/shrink.h"

namespace syncbisim::cli {

namespace {

struct ShrinkArgs {
  std::string spec, impl, strategy, out;
  std::uint64_t max_steps = 5000, max_states = 100000;
  double max_seconds = 60;
  bool quiet = false;
};

int run(const ShrinkArgs& a) {
  if (a.impl.empty() == a.strategy.empty()) {
    std::cerr << "syncbisim shrink: give either IMPL or --strategy\n";
    return 2;
  }
  int status = 0;
  auto spec = load_spec(a.spec, status);
  if (!spec) return status;
  std::optional<model::Program> impl;
  std::optional<fuzz::AllocateFn> derive;
  fuzz::ShrinkOptions o;
  o.max_steps = a.max_steps;
  o.max_seconds = a.max_seconds;
  o.check.max_states = a.max_states;
  if (!a.impl.empty()) {
    auto pair = load_pair(a.spec, a.impl, status);
    if (!pair) return status;
    impl = pair->impl.program;
    o.check.policy = fuzz::Counts::All;  // a given pair: whatever it shows
  } else {
    const auto strategy = allocator::parse_strategy(a.strategy);
    if (!strategy) {
      std::cerr << "syncbisim shrink: unknown strategy '" << a.strategy
                << "' (barrier, per-instruction, per-loop, per-engine, auto)\n";
      return 2;
    }
    derive = fuzz::allocate_with(*strategy);
    o.check.policy =
        *strategy == allocator::Strategy::Barrier ? fuzz::Counts::UnderSyncOnly : fuzz::Counts::AllOnAllocatable;
  }
  if (!a.quiet)
    o.progress = [](const fuzz::ShrinkProgress& p) {
      std::fprintf(stderr, "shrink: step %llu, %s (%s, %.1f s)\n", (unsigned long long)p.steps,
                   p.size.to_string().c_str(), p.pass.c_str(), p.seconds);
    };
  auto r = fuzz::shrink(spec->program, impl, derive ? &*derive : nullptr, std::nullopt, o);
  if (!r) {
    std::cerr << a.spec << ": " << r.error().message << " [" << r.error().rule << "]\n";
    return 2;
  }
  std::cout << "failure: " << r->failure.to_string() << "\n"
            << "before: " << r->before.to_string() << "\n"
            << "after: " << r->after.to_string() << "\n";
  char line[200];
  std::snprintf(line, sizeof line, "%llu candidates checked, %llu kept, %llu cache hits, %.2f s%s%s\n",
                (unsigned long long)r->steps, (unsigned long long)r->accepted, (unsigned long long)r->cache_hits,
                r->seconds, r->stopped.empty() ? "" : ", stopped at ", r->stopped.c_str());
  std::cout << line;
  if (a.out.empty()) {
    std::cout << "\n" << formats::write_text(r->spec) << "\n" << formats::write_text(r->impl);
    return 0;
  }
  std::error_code ec;
  std::filesystem::create_directories(a.out, ec);
  if (ec) return input_error(model::Diagnostic{a.out, "", "io", "cannot create the directory: " + ec.message()});
  const auto stem = std::filesystem::path(a.out) / std::filesystem::path(a.spec).stem();
  const std::string spec_out = stem.string() + ".min.spec.json", impl_out = stem.string() + ".min.impl.json";
  for (const auto& [path, content] :
       {std::pair{spec_out, formats::write_json(r->spec)}, std::pair{impl_out, formats::write_json(r->impl)}}) {
    if (auto s = formats::write_file_atomically(path, content); !s) {
      auto d = s.error();
      if (d.file.empty()) d.file = path;
      return input_error(d);
    }
  }
  std::cout << "wrote " << spec_out << " " << impl_out << "\n";
  return 0;
}

}  // namespace

void add_shrink(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<ShrinkArgs>();
  auto* cmd = app.add_subcommand("shrink", "Minimize a failing case, keeping the same failure on the same instruction");
  cmd->add_option("SPEC", a->spec, "spec program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_option("IMPL", a->impl, "impl program; candidates edit both programs")->check(CLI::ExistingFile);
  cmd->add_option("--strategy", a->strategy, "re-derive the impl from each candidate spec with this strategy");
  cmd->add_option("-o,--out", a->out, "write SPEC-stem.min.spec.json and .min.impl.json here (else print text)");
  cmd->add_option("--max-steps", a->max_steps, "candidates checked at most")->capture_default_str();
  cmd->add_option("--max-seconds", a->max_seconds, "seconds at most (the result then depends on speed)")
      ->capture_default_str();
  cmd->add_option("--max-states", a->max_states, "state limit per check")->capture_default_str();
  cmd->add_flag("-q,--quiet", a->quiet, "no progress lines on stderr");
  cmd->callback([a, &ctx] { ctx.status = run(*a); });
}

}  // namespace syncbisim::cli
