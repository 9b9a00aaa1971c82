// syncbisim deps SPEC: the dependency graph derived from the spec's footprints (docs/footprints.md),
// written as the spec with that graph; with --compare, the written graph judged against it. The
// reports are the library's (footprint/report.h, latency/graph_price.h), which the public API's
// derive_dependencies() and compare_dependencies() give too.
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/inputs.h"
#include "footprint/report.h"
#include "formats/json_format.h"
#include "formats/json_text.h"
#include "formats/text_format.h"
#include "latency/graph_price.h"

namespace syncbisim::cli {

namespace {

struct DepsArgs {
  std::string spec, out;
  bool json = false, text = false, compare = false, no_reduce = false;
};

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
    latency::price_over_synchronized(c, derived, spec->program);
    if (a.json)
      std::cout << formats::json_text(footprint::comparison_json(c));
    else std::cout << footprint::comparison_text(c);
    return footprint::comparison_status(c);
  }
  auto p = spec->program;
  p.deps = derived.graph();
  std::string content = a.json ? formats::write_json(p) : formats::write_text(p);
  if (!a.json) content = footprint::with_reasons(content, derived);
  const std::string report = a.json && a.out.empty() ? std::string() : footprint::derivation_text(derived);
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

void add_deps(CLI::App& app, Context& ctx, const std::string& name) {
  auto a = std::make_shared<DepsArgs>();
  auto* cmd = app.add_subcommand(
      name, "Derive the dependency graph from the spec's footprints (reads/writes/accumulates), or judge the written one");
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
