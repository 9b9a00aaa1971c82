#include "latency/table2.h"

#include <cstdio>
#include <set>

#include "allocator/allocate.h"
#include "allocator/stats.h"
#include "analysis/unroll.h"
#include "analysis/dependency_analysis.h"
#include "model/walk.h"
#include "timing/simulate.h"

namespace syncbisim::latency {

namespace {

// One constant trip, the same on every engine.
bool constant_trip(const model::Loop& l) {
  return l.trip && !l.trip->divergent && l.trip->per_engine.empty() &&
         std::holds_alternative<model::ConstTrip>(l.trip->uniform);
}

void scale(std::vector<model::Stmt>& body, const std::set<std::string>* only) {
  model::for_each_stmt(body, [&](model::Stmt& s, const model::LoopPath&) {
    if (auto* l = std::get_if<model::Loop>(&s.node); l && l->sim_trip && constant_trip(*l) && (!only || only->count(l->id)))
      l->trip = model::TripRule{model::ConstTrip{*l->sim_trip}};
  });
}

std::optional<std::string> dynamic_loop(const std::vector<model::Stmt>& body) {
  const auto* s = model::find_stmt(body, [](const model::Stmt& st, const model::LoopPath&) {
    const auto* l = std::get_if<model::Loop>(&st.node);
    return l && !constant_trip(*l);
  });
  if (!s) return std::nullopt;
  return std::get<model::Loop>(s->node).id;
}

std::vector<std::string> loop_ids(const model::ProgramIndex& ix) {
  std::vector<std::string> out;
  for (const auto& l : ix.loops)
    if (l.kind == model::LoopKind::Loop) out.push_back(l.name);
  return out;
}

model::Result<model::Program> base_of(const model::Program& spec, const std::vector<std::string>& unroll_first,
                                      const Table2Options& o) {
  if (unroll_first.empty()) return spec;
  model::Program s = spec;
  const std::set<std::string> only(unroll_first.begin(), unroll_first.end());
  if (!o.at_spec_trips) scale(s.body, &only);
  auto ix = model::ProgramIndex::build(s);
  if (!ix) return ix.error();
  return analysis::unroll(s, *ix, unroll_first, o.max_unroll);
}

const allocator::Strategy kStrategy[] = {allocator::Strategy::Barrier, allocator::Strategy::PerLoop,
                                         allocator::Strategy::PerInstruction, allocator::Strategy::PerEngine};

std::string kb(std::uint64_t bytes) {
  char b[32];
  if (bytes < 1024) std::snprintf(b, sizeof b, "%llu B", static_cast<unsigned long long>(bytes));
  else if (bytes < 1024 * 1024) std::snprintf(b, sizeof b, "%.1f KB", static_cast<double>(bytes) / 1024.0);
  else std::snprintf(b, sizeof b, "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return b;
}

}  // namespace

const char* to_string(Variant v) {
  switch (v) {
    case Variant::Barrier: return "barrier";
    case Variant::PerLoop: return "per-loop";
    case Variant::PerInstruction: return "per-instruction";
    case Variant::PerEngine: return "per-engine";
    case Variant::Unrolled: return "unrolled";
  }
  return "?";
}

model::Program at_scale(const model::Program& spec) {
  model::Program s = spec;
  scale(s.body, nullptr);
  return s;
}

model::Result<VariantPrograms> variant_programs(const model::Program& spec,
                                                const std::vector<std::string>& unroll_first, const Table2Options& o) {
  auto base = base_of(spec, unroll_first, o);
  if (!base) return base.error();
  auto ix = model::ProgramIndex::build(*base);
  if (!ix) return ix.error();
  VariantPrograms out;
  for (std::size_t v = 0; v < 4; ++v) {
    // the barrier-free strategies with the ALU reduction of paper §6.2 that the paper's own
    // figures include (docs/timing.md)
    // (the allocator's own LICM, which the paper's figures do not include, is off: docs/timing.md)
    allocator::Options ao{kStrategy[v], false, v != 0 && o.share_wait_values};
    ao.licm = ao.cse = false;
    auto a = allocator::allocate(*base, *ix, ao);
    if (!a) return a.error();
    out.programs[v] = VariantProgram{*base, std::move(a->impl)};
  }
  // Unrolled: every loop, at the kernel's scale; only where every trip is static (paper §8.1).
  model::Program u = o.at_spec_trips ? *base : at_scale(*base);
  if (auto d = dynamic_loop(u.body)) {
    out.unrolled_why_not = "loop " + *d + " has a dynamic trip count";
  } else {
    auto uix = model::ProgramIndex::build(u);
    if (!uix) return uix.error();
    auto unrolled = analysis::unroll(u, *uix, loop_ids(*uix), o.max_unroll);
    if (unrolled) {
      auto uix2 = model::ProgramIndex::build(*unrolled);
      if (!uix2) return uix2.error();
      allocator::Options ao{allocator::Strategy::PerLoop, false, o.share_wait_values};
      ao.licm = ao.cse = false;
      auto a = allocator::allocate(*unrolled, *uix2, ao);
      if (!a) return a.error();
      out.programs[4] = VariantProgram{std::move(*unrolled), std::move(a->impl)};
    } else {
      out.unrolled_why_not = unrolled.error().message;
    }
  }
  return out;
}

model::Result<Row> table2_row(const model::Program& spec, const std::string& key,
                              const std::vector<std::string>& unroll_first, const Table2Options& o) {
  Row row;
  row.key = key;
  row.paper = paper_row(key);
  row.title = key;
  if (!unroll_first.empty()) {
    row.title += " (";
    for (std::size_t i = 0; i < unroll_first.size(); ++i) row.title += (i ? ", " : "") + unroll_first[i];
    row.title += " unrolled)";
  }
  auto progs = variant_programs(spec, unroll_first, o);
  if (!progs) return progs.error();
  {
    const auto& base = progs->programs[0]->spec;
    auto ix = model::ProgramIndex::build(base);
    if (!ix) return ix.error();
    row.loops = loop_ids(*ix).size();
    std::set<std::uint32_t> offs;
    for (const auto& d : analysis::analyze_dependencies(base, *ix).deps) offs.insert(d.offset);
    for (auto k : offs) row.offsets += (row.offsets.empty() ? "" : ", ") + std::to_string(k);
  }
  for (std::size_t v = 0; v < kVariants; ++v) {
    auto& f = row.ours[v];
    const auto& p = progs->programs[v];
    if (!p) {
      f.why_not = progs->unrolled_why_not;
      continue;
    }
    auto six = model::ProgramIndex::build(p->spec);
    if (!six) return six.error();
    auto iix = model::ProgramIndex::build(p->impl);
    if (!iix) return iix.error();
    auto sim = timing::simulate_pair(p->spec, *six, p->impl, *iix, o.costs, {});
    if (!sim) return sim.error();
    if (v == 0) row.trips = sim->trips;
    auto st = allocator::compute_stats(p->impl, {});
    if (!st) return st.error();
    f.available = true;
    f.makespan = sim->makespan;
    f.deadlock = sim->deadlock;
    f.code_bytes = st->code_bytes;
    f.regs = st->registers_max;
    f.sema = st->semaphores;
  }
  const double base = static_cast<double>(row.ours[0].makespan);
  for (auto& f : row.ours)
    if (f.available && base > 0) f.lat = static_cast<double>(f.makespan) / base;
  return row;
}

const std::vector<KernelRow>& default_kernel_rows() {
  static const std::vector<KernelRow> rows = {
      {"add_many_loop.json", {}},     {"adamw.json", {}},
      {"flash_attention.json", {}},   {"rmsnorm.json", {"col"}},
      {"tiled_matmul.json", {}},      {"tiled_matmul.json", {"k"}},
      {"dropless_moe_384.json", {}},  {"dropless_moe_2048.json", {}},
      {"dropless_moe_4096.json", {}},
  };
  return rows;
}

std::string render_text(const std::vector<Row>& rows) {
  std::string out;
  char line[320];
  for (const auto& r : rows) {
    out += r.title + ": L=" + std::to_string(r.loops) + ", offsets " + r.offsets + "\n";
    out += "  trips:";
    for (const auto& t : r.trips) out += " " + t;
    out += "\n";
    std::snprintf(line, sizeof line, "  %-16s %6s %10s %5s %5s %14s   | %-13s %6s %10s %5s %5s\n", "variant", "lat",
                  "code", "regs", "sema", "makespan", "paper", "lat", "code", "regs", "sema");
    out += line;
    for (std::size_t v = 0; v < kVariants; ++v) {
      const auto& f = r.ours[v];
      std::string ours;
      if (f.available) {
        std::snprintf(line, sizeof line, "%6.2f %10s %5zu %5zu %14llu%s", f.lat, kb(f.code_bytes).c_str(), f.regs,
                      f.sema, static_cast<unsigned long long>(f.makespan), f.deadlock ? " DEADLOCK" : "");
        ours = line;
      } else {
        std::snprintf(line, sizeof line, "%6s %-40s", "N/A", f.why_not.c_str());
        ours = line;
      }
      // the paper's column beside ours: barrier, barrier-free (its per-loop), unrolled
      const PaperFigures* pf = nullptr;
      std::string pname;
      if (r.paper) {
        if (v == 0) pf = &r.paper->barrier, pname = "barrier";
        if (v == 1) pf = &r.paper->barrier_free, pname = "barrier-free";
        if (v == 4) pf = &r.paper->unrolled, pname = "unrolled";
      }
      std::string paper;
      if (pf && pf->available) {
        std::snprintf(line, sizeof line, "%-13s %6.2f %10s %5d %5d", pname.c_str(), pf->lat, pf->code.c_str(), pf->regs,
                      pf->sema);
        paper = line;
      } else if (pf) {
        std::snprintf(line, sizeof line, "%-13s %6s", pname.c_str(), "N/A");
        paper = line;
      }
      std::snprintf(line, sizeof line, "  %-16s %s   | %s\n", to_string(static_cast<Variant>(v)), ours.c_str(),
                    paper.c_str());
      out += line;
    }
    if (r.paper && r.paper->manual.available) {
      std::snprintf(line, sizeof line, "  %-16s %6s %10s %5s %5s %14s   | %-13s %6.2f %10s %5d %5d\n", "manual", "-",
                    "-", "-", "-", "-", "manual", r.paper->manual.lat, r.paper->manual.code.c_str(),
                    r.paper->manual.regs, r.paper->manual.sema);
      out += line;
    }
    out += "\n";
  }
  return out;
}

}  // namespace syncbisim::latency
