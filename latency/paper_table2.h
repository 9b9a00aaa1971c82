#pragma once
// The paper's own Table 2 (§8.2), as printed, to set beside ours (docs/timing.md "Table 2").
// Figures are as the paper gives them: normalized latency (barrier-based = 1.00), code size as
// printed ("2.5 KB"), registers added per engine, semaphores. A column the paper leaves out
// (Unrolled for Dropless MoE) has `available` false.
#include <optional>
#include <string>
#include <vector>

namespace syncbisim::latency {

struct PaperFigures {
  bool available = true;
  double lat = 0;
  std::string code;
  int regs = 0;
  int sema = 0;
};

struct PaperRow {
  std::string benchmark;  // the paper's name, "tiled_matmul 2048^3 (K-unrolled)"
  int loops = 0;          // L: hardware loops
  std::string offsets;    // "0, 1, 2"
  PaperFigures barrier, barrier_free, manual, unrolled;
};

// Our kernel's key (the corpus file stem, "+k" for a row unrolled on k first) to the paper's row.
std::optional<PaperRow> paper_row(const std::string& key);
const std::vector<std::pair<std::string, PaperRow>>& paper_rows();

}  // namespace syncbisim::latency
