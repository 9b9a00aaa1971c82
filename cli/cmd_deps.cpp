// syncbisim deps SPEC: the dependency graph derived from the spec's footprints (docs/footprints.md),
// written as the spec with that graph; with --compare, the written graph judged against it.
#include <nlohmann/json.hpp>

#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.h"
#include "cli/footprint_report.h"
#include "cli/inputs.h"
#include "formats/json_format.h"
#include "formats/text_format.h"

namespace syncbisim::cli {

namespace {

struct DepsArgs {
  std::string spec, out;
  bool json = false, text = false, compare = false, no_reduce = false;
};

// The text form with each derived dependency's first justifying conflict as a comment on its
// line (the reader skips comments, so the file reads back to the same program).
std::string with_reasons(const std::string& text, const footprint::Derivation& d) {
  std::map<std::string, std::string> why;
  for (const auto& x : d.deps)
    if (x.implied_by.empty() && !x.why.empty())
      why.emplace("dep " + footprint::dependency_text(x.dep), x.why.front().to_string(x.dep.producer, x.dep.consumer));
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const auto line = text.substr(start, end - start);
    out += line;
    if (const auto it = why.find(line); it != why.end()) out += "  # " + it->second;
    out += "\n";
    start = end + 1;
  }
  return out;
}

int deps(const DepsArgs& a) {
  int status = 0;
  auto spec = load_spec(a.spec, status);
  if (!spec) return status;
  if (!spec->program.has_footprints()) {
    std::cerr << a.spec << ": no footprints: give instructions reads/writes/accumulates and declare buffers "
                           "(docs/footprints.md) [no-footprints]\n";
    return 2;
  }
  const auto kernel = footprint::Kernel::of(spec->program, spec->index);
  footprint::DeriveOptions o;
  o.reduce = !a.no_reduce;
  const auto derived = footprint::derive(kernel, o);
  if (a.compare) {
    auto c = footprint::compare(kernel, spec->program.deps, derived);
    price_over_synchronized(c, derived, *spec);
    if (a.json) std::cout << comparison_json(c).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else std::cout << comparison_text(c);
    return comparison_status(c);
  }
  auto p = spec->program;
  p.deps = derived.graph();
  std::string content = a.json ? formats::write_json(p) : formats::write_text(p);
  if (!a.json) content = with_reasons(content, derived);
  const std::string report = a.json && a.out.empty() ? std::string() : derivation_text(derived);
  if (a.out.empty() || a.out == "-") {
    std::cout << content;
    std::cerr << report;
  } else {
    if (auto s = formats::write_file_atomically(a.out, content); !s) return input_error(s.error());
    std::cout << report;
  }
  // An incomplete derivation is no graph to trust: inconclusive.
  return derived.undecided.empty() ? 0 : 3;
}

}  // namespace

void add_deps(CLI::App& app, Context& ctx) {
  auto a = std::make_shared<DepsArgs>();
  auto* cmd = app.add_subcommand(
      "deps", "Derive the dependency graph from the spec's footprints (reads/writes/accumulates), or judge the written one");
  cmd->add_option("SPEC", a->spec, "spec program with footprints (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", a->out, "write the spec with the derived graph here (atomically); the report goes to stdout");
  auto* json = cmd->add_flag("--json", a->json, "write JSON (the spec, or with --compare the report)");
  auto* text = cmd->add_flag("--text", a->text, "write the text format (the default)");
  json->excludes(text);
  cmd->add_flag("--compare", a->compare,
                "set the written graph beside the derived one: races (exit 1), unjustified, over-synchronizing and "
                "implied dependencies; exit 3 when not shown for every trip count");
  cmd->add_flag("--no-reduce", a->no_reduce, "keep dependencies that others imply for every trip count");
  cmd->callback([a, &ctx] { ctx.status = deps(*a); });
}

}  // namespace syncbisim::cli
