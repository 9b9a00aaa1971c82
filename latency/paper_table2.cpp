#include "latency/paper_table2.h"

namespace syncbisim::latency {

namespace {

PaperFigures f(double lat, const char* code, int regs, int sema) { return PaperFigures{true, lat, code, regs, sema}; }
PaperFigures none() { return PaperFigures{false, 0, "", 0, 0}; }

}  // namespace

const std::vector<std::pair<std::string, PaperRow>>& paper_rows() {
  // Paper Table 2, row by row: Barrier-Based, Barrier-Free (per-loop), Manual, Unrolled.
  static const std::vector<std::pair<std::string, PaperRow>> rows = {
      {"add_many_loop",
       {"AddManyLoop", 1, "0", f(1.00, "2.5 KB", 0, 3), f(0.30, "1.7 KB", 4, 4), f(0.22, "1.8 KB", 0, 4),
        f(0.04, "1.2 MB", 0, 4)}},
      {"adamw",
       {"AdamW 1M", 1, "0, 2", f(1.00, "5.3 KB", 0, 4), f(0.74, "7.3 KB", 4, 10), f(0.76, "5.3 KB", 5, 4),
        f(0.76, "11.8 KB", 0, 4)}},
      {"flash_attention",
       {"flash_attn 8192^2", 2, "0, 1, 2", f(1.00, "22.5 KB", 0, 8), f(0.86, "37.1 KB", 8, 19),
        f(0.88, "23.5 KB", 0, 8), f(0.70, "1.2 MB", 0, 8)}},
      {"rmsnorm+col",
       {"rmsnorm 32768x8192", 1, "0, 2", f(1.00, "4.0 KB", 0, 4), f(0.57, "6.1 KB", 4, 6), f(0.56, "3.9 KB", 5, 4),
        f(0.56, "508.6 KB", 0, 4)}},
      {"tiled_matmul",
       {"tiled_matmul 2048^3", 3, "0, 1, 2", f(1.00, "4.7 KB", 0, 5), f(0.90, "6.3 KB", 11, 7), f(0.71, "3.7 KB", 7, 4),
        f(0.39, "177.5 KB", 0, 4)}},
      {"tiled_matmul+k",
       {"tiled_matmul 2048^3 (K-unrolled)", 2, "0, 1, 2", f(1.00, "6.9 KB", 0, 5), f(0.55, "9.3 KB", 8, 6),
        f(0.61, "6.1 KB", 7, 4), f(0.55, "177.5 KB", 0, 4)}},
      {"dropless_moe_384",
       {"MoE 384 (E=4, k=2)", 1, "0, 1", f(1.00, "10.3 KB", 0, 21), f(0.87, "9.3 KB", 4, 13), f(0.81, "9.8 KB", 4, 21),
        none()}},
      {"dropless_moe_2048",
       {"MoE 2048 (E=8, k=2)", 1, "0, 1", f(1.00, "10.3 KB", 0, 21), f(0.88, "9.3 KB", 4, 13), f(0.79, "6.1 KB", 4, 21),
        none()}},
      {"dropless_moe_4096",
       {"MoE 4096 (E=16, k=2)", 1, "0, 1", f(1.00, "10.3 KB", 0, 21), f(0.88, "9.3 KB", 4, 13),
        f(0.79, "6.1 KB", 4, 21), none()}},
  };
  return rows;
}

std::optional<PaperRow> paper_row(const std::string& key) {
  for (const auto& [k, r] : paper_rows())
    if (k == key) return r;
  return std::nullopt;
}

}  // namespace syncbisim::latency
