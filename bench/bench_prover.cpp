// The prover on every corpus kernel (docs/prover.md "Tests and figures"): seconds for all of a kernel's
// queries, per-instruction and per-loop allocations, plus the large-trip bug pair's refutation
// (query, constant-trip search and replay). Usage: bench_prover [REPEATS] (default 5; best of).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "prover/prove.h"

using namespace syncbisim;

namespace {

struct Timing {
  double seconds = 1e9;
  std::size_t consumers = 0, proved = 0;
};

Timing time_prove(const formats::LoadedProgram& spec, const model::Program& impl, int repeats) {
  Timing t;
  auto iix = model::ProgramIndex::build(impl);
  if (!iix) return t;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = prover::prove(spec.program, spec.index, impl, *iix);
    t.seconds = std::min(t.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    t.consumers = r.consumers.size();
    t.proved = static_cast<std::size_t>(std::count_if(
        r.consumers.begin(), r.consumers.end(), [](const auto& c) { return c.answer == prover::Answer::Proved; }));
  }
  return t;
}

model::Program read(const char* text) {
  auto p = formats::read_text(text);
  model::normalize(*p);
  return *p;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::stoi(argv[1]) : 5;
  std::vector<std::filesystem::path> kernels;
  for (const auto& e : std::filesystem::directory_iterator(SYNCBISIM_SOURCE_DIR "/corpus/kernels"))
    kernels.push_back(e.path());
  std::sort(kernels.begin(), kernels.end());
  std::printf("%-26s %-16s %9s %7s %10s\n", "kernel", "strategy", "consumers", "proved", "seconds");
  for (const auto& k : kernels) {
    auto spec = formats::load_program_file(k.string(), model::ProgramKind::Spec);
    if (!spec) continue;
    for (auto s : {allocator::Strategy::PerInstruction, allocator::Strategy::PerLoop}) {
      auto alloc = allocator::allocate(spec->program, spec->index, allocator::Options{s, false});
      if (!alloc) continue;
      const auto t = time_prove(*spec, alloc->impl, repeats);
      std::printf("%-26s %-16s %9zu %7zu %10.4f\n", k.filename().string().c_str(), allocator::to_string(s), t.consumers,
                  t.proved, t.seconds);
    }
  }
  // A refutation end to end: the wait wrong only from iteration 21 on (tests/prover).
  const auto spec_p =
      read("syncbisim spec/1\nengines E0 E1\nloop A trip 1..30 {\n  E0: P\n  E1: C\n}\ndep P -> C distance A=1\n");
  const auto impl_p = read(
      "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE1: [rh := 0]\nloop A {\n  E0: P {s += 1}\n"
      "  E1: [r := r + 1] [rh := rh + 1] [w := isgt(rh, 1) * isgt(21, rh) * (r - 1)] {s >= w} C\n}\n");
  auto six = model::ProgramIndex::build(spec_p);
  if (six) {
    const formats::LoadedProgram spec{spec_p, *six};
    const auto t = time_prove(spec, impl_p, repeats);
    std::printf("%-26s %-16s %9zu %7zu %10.4f  (refuted: query + replay at trip >= 21)\n", "large_trip_bug",
                "hand-written", t.consumers, t.proved, t.seconds);
  }
  return 0;
}
