#pragma once
// The paper's Table 2 on the timing model (docs/timing.md "Table 2"): per kernel, each variant's
// latency normalized to the barrier-based baseline, code size, registers per engine and
// semaphores, beside the paper's own figures. A composition of the allocator (every strategy,
// and unrolling) and the timing model, above both.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/unroll.h"
#include "latency/paper_table2.h"
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"
#include "timing/cost_table.h"

namespace syncbisim::latency {

enum class Variant : std::uint8_t { Barrier, PerLoop, PerInstruction, PerEngine, Unrolled };
inline constexpr std::size_t kVariants = 5;
const char* to_string(Variant v);

struct Figures {
  bool available = false;
  std::string why_not;  // when not available
  double lat = 0;       // makespan / the barrier-based makespan
  std::uint64_t makespan = 0;
  std::uint64_t code_bytes = 0;
  std::size_t regs = 0;  // registers per engine, the largest (allocator::Stats)
  std::size_t sema = 0;
  bool deadlock = false;  // the simulation deadlocked (a wrong program; never expected)
};

struct Row {
  std::string key;    // corpus file stem, "+k" when k was unrolled first
  std::string title;  // what the row is
  std::size_t loops = 0;
  std::string offsets;
  std::vector<std::string> trips;
  std::array<Figures, kVariants> ours;
  std::optional<PaperRow> paper;
};

// The program a variant runs, checked at the spec's own (small) trips by the tests: the impl and
// the spec it belongs to (the unrolled spec for Variant::Unrolled).
struct VariantProgram {
  model::Program spec, impl;
};

inline constexpr std::uint64_t kTable2MaxUnroll = 100000;

struct Table2Options {
  timing::CostTable costs = timing::default_cost_table();
  // Unroll at the spec's own (small) trip counts instead of at its sim_trips: what the tests check
  // exhaustively. table2 itself unrolls at the real kernel's scale.
  bool at_spec_trips = false;
  // The barrier-free variants share common subexpressions of their wait values (paper §6.2),
  // as the paper's figures do ("the ALU-reduction passes ... keep these counts low", §8.2).
  bool share_wait_values = true;
  // Instructions and dependencies an unrolled program may have (analysis::unroll); past it the
  // unrolled column says why it is empty (`table2 --max-unroll`). Larger than allocate's default:
  // the paper's add_many_loop unrolls to 40,000 instructions, the code-size blow-up Table 2 shows.
  std::uint64_t max_unroll = kTable2MaxUnroll;
};

// `unroll_first`: loops unrolled before anything else (the K-unrolled row). `key` names the row
// and finds the paper's figures.
model::Result<Row> table2_row(const model::Program& spec, const std::string& key,
                              const std::vector<std::string>& unroll_first, const Table2Options& o = {});

// The programs behind the row's figures, in Variant order (an empty optional where a variant is
// not available, and why).
struct VariantPrograms {
  std::array<std::optional<VariantProgram>, kVariants> programs;
  std::string unrolled_why_not;
};
model::Result<VariantPrograms> variant_programs(const model::Program& spec,
                                                const std::vector<std::string>& unroll_first,
                                                const Table2Options& o = {});

// Every constant-trip loop that carries a sim_trip runs the sim_trip instead (the kernel at its
// real scale, for unrolling).
model::Program at_scale(const model::Program& spec);

// The default rows: corpus kernel file stems (relative to corpus/kernels/) and the loops unrolled
// first, in the paper's order.
struct KernelRow {
  std::string file;  // e.g. "tiled_matmul.json"
  std::vector<std::string> unroll_first;
};
const std::vector<KernelRow>& default_kernel_rows();

std::string render_text(const std::vector<Row>& rows);

}  // namespace syncbisim::latency
