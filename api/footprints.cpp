// derive_dependencies() and compare_dependencies() of the public API (docs/footprints.md,
// `syncbisim deps` and `deps --compare`), printed by the library calls the command makes
// (footprint/report.h, latency/graph_price.h).
#include "footprint/compare.h"
#include "footprint/derive.h"
#include "footprint/report.h"

#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "formats/json_format.h"
#include "formats/text_format.h"
#include "latency/graph_price.h"

namespace syncbisim {

namespace {
const model::Program& with_footprints(const Program& spec) {
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  const auto& d = spec.data();
  if (!d.program.has_footprints())
    api::detail::raise(model::make_error("", "no-footprints",
                                         "the spec has no footprints: declare buffers and give instructions "
                                         "reads/writes/accumulates (docs/footprints.md)"),
                       d.name);
  return d.program;
}
}  // namespace

int Derivation::exit_status() const { return undecided.empty() ? 0 : 3; }

int GraphComparison::exit_status() const { return verdict == "race" ? 1 : verdict == "inconclusive" ? 3 : 0; }

Derivation derive_dependencies(const Program& spec, bool reduce) {
  const auto& program = with_footprints(spec);
  const auto& d = spec.data();
  const auto k = footprint::Kernel::of(program, d.index);
  footprint::DeriveOptions o;
  o.reduce = reduce;
  const auto derived = footprint::derive(k, o);
  auto p = program;
  p.deps = derived.graph();
  Derivation out{api::detail::wrap(p, d.name + " (derived)"), {}, derived.undecided, {}, {}, {}};
  for (const auto& x : derived.deps) {
    DerivedDependency dd{footprint::dependency_text(x.dep), x.dep.producer, x.dep.consumer, x.carried_by, {},
                         x.distances, x.over_synchronizes, x.implied_by};
    for (const auto& w : x.why) dd.why.push_back(w.to_string(x.dep.producer, x.dep.consumer));
    out.dependencies.push_back(std::move(dd));
  }
  out.text = footprint::with_reasons(formats::write_text(p), derived);
  out.json = formats::write_json(p);
  out.report = footprint::derivation_text(derived);
  return out;
}

GraphComparison compare_dependencies(const Program& spec) {
  const auto& program = with_footprints(spec);
  const auto k = footprint::Kernel::of(program, spec.data().index);
  const auto derived = footprint::derive(k);
  auto c = footprint::compare(k, program.deps, derived);
  latency::price_over_synchronized(c, derived, program);  // as deps --compare: each over-synchronization's price
  GraphComparison out;
  out.verdict = footprint::to_string(c.verdict);
  for (const auto& r : c.races) out.races.push_back(Race{r.producer, r.consumer, r.description, r.trips, r.fix, r.missing});
  for (const auto& f : c.unjustified) out.unjustified.push_back(f.dependency + ": " + f.message);
  for (const auto& f : c.over_synchronized) out.over_synchronized.push_back(f.dependency + ": " + f.message);
  for (const auto& f : c.implied) out.implied.push_back(f.dependency + ": " + f.message);
  out.not_shown = c.not_shown;
  out.limits = c.limits;
  out.race_pairs = c.race_pairs;
  out.text = footprint::comparison_text(c);
  out.json = formats::json_text(footprint::comparison_json(c));
  return out;
}

}  // namespace syncbisim
