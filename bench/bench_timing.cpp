// The timing model's speed (GitHub issue 13, docs/timing.md "Speed"): AddManyLoop at its 10^4
// iterations simulated (per-loop and barrier impls; goal under 50 ms), a simulation recorded for
// a picture, and table2 on every default row (goal under 10 s). Usage: bench_timing [REPEATS]
// (default 5; best of).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "allocator/allocate.h"
#include "formats/load.h"
#include "latency/table2.h"
#include "timing/simulate.h"

using namespace syncbisim;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const std::string corpus = SYNCBISIM_SOURCE_DIR "/corpus/kernels/";
  auto spec = formats::load_program_file(corpus + "add_many_loop.json");
  if (!spec) {
    std::fprintf(stderr, "%s\n", spec.error().to_string().c_str());
    return 2;
  }
  for (auto strategy : {allocator::Strategy::PerLoop, allocator::Strategy::Barrier}) {
    auto a = allocator::allocate(spec->program, spec->index, {strategy, false});
    auto iix = model::ProgramIndex::build(a->impl);
    for (bool record : {false, true}) {
      double best = 1e9;
      timing::Simulation sim;
      for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        auto s = timing::simulate_pair(spec->program, spec->index, a->impl, *iix, timing::default_cost_table(), {},
                                       {record});
        best = std::min(best, seconds_since(t0));
        sim = std::move(*s);
      }
      std::printf("add_many_loop %-8s 10^4 iterations%s: %7.2f ms, %llu instructions, makespan %llu cycles\n",
                  allocator::to_string(strategy), record ? ", recorded" : "", best * 1000,
                  static_cast<unsigned long long>(sim.instrs_issued), static_cast<unsigned long long>(sim.makespan));
    }
  }
  double best = 1e9;
  std::size_t rows = 0;
  for (int i = 0; i < std::min(repeats, 3); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    rows = 0;
    for (const auto& k : latency::default_kernel_rows()) {
      auto s = formats::load_program_file(corpus + k.file);
      if (!s) return 2;
      auto row = latency::table2_row(s->program, std::filesystem::path(k.file).stem().string(), k.unroll_first);
      if (!row) {
        std::fprintf(stderr, "%s\n", row.error().to_string().c_str());
        return 2;
      }
      ++rows;
    }
    best = std::min(best, seconds_since(t0));
  }
  std::printf("table2, %zu rows (5 variants each, unrolled at scale): %.2f s\n", rows, best);
  return 0;
}
