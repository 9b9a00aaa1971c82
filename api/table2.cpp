// table2() of the public API: the paper's Table 2 on the timing model (docs/timing.md "Table 2",
// `syncbisim table2`), its rows made by the library calls the command makes (latency/table2_rows.h).
#include "formats/json_text.h"
#include "api/detail/options.h"
#include "api/detail/program_data.h"
#include "latency/table2.h"
#include "latency/table2_json.h"
#include "latency/table2_rows.h"

namespace syncbisim {

namespace {

VariantFigures variant_of(std::size_t v, const latency::Figures& f) {
  return VariantFigures{latency::to_string(static_cast<latency::Variant>(v)),
                        f.available,
                        f.why_not,
                        f.lat,
                        f.makespan,
                        f.code_bytes,
                        f.regs,
                        f.sema,
                        f.deadlock};
}

PaperFigures paper_of(const char* variant, const latency::PaperFigures& f) {
  return PaperFigures{variant, f.available, f.lat, f.code, f.regs, f.sema};
}

Table2Row row_of(const latency::Row& r) {
  Table2Row out{r.key, r.title, r.loops, r.offsets, r.trips, {}, "", {}};
  for (std::size_t v = 0; v < latency::kVariants; ++v) out.ours.push_back(variant_of(v, r.ours[v]));
  if (r.paper) {
    out.paper_benchmark = r.paper->benchmark;
    out.paper = {paper_of("barrier", r.paper->barrier), paper_of("barrier-free", r.paper->barrier_free),
                 paper_of("manual", r.paper->manual), paper_of("unrolled", r.paper->unrolled)};
  }
  return out;
}

}  // namespace

Table2Result table2(const std::vector<Program>& specs, const Table2Options& options) {
  latency::Table2Options o;
  o.max_unroll = options.max_unroll;
  o.costs = api::detail::cost_table(options.costs_file, options.costs_json);
  if (specs.empty() && options.corpus.empty())
    throw Error("", "", "usage", "give specs, or the corpus directory whose kernels make the default rows");
  std::vector<latency::Row> rows;
  const auto add = [&](const Program& spec, const latency::Table2Job& job) {
    api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
    auto row = latency::table2_job_row(spec.data().program, spec.data().index, job, options.derived, o);
    if (!row) api::detail::raise(row.error());
    if (*row) rows.push_back(std::move(**row));
  };
  if (specs.empty()) {
    for (const auto& job : latency::default_table2_jobs(options.corpus)) add(Program::from_file(job.path), job);
  } else {
    // The jobs the command makes for a spec, named by its file (Program::Data::name) as on the
    // command line.
    for (const auto& spec : specs)
      for (const auto& job : latency::given_table2_jobs({spec.data().name}, options.unroll)) add(spec, job);
  }
  Table2Result out;
  for (const auto& r : rows) out.rows.push_back(row_of(r));
  out.text = latency::render_text(rows);
  out.json = formats::json_text(latency::render_json(rows));
  return out;
}

}  // namespace syncbisim
