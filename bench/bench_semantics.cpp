// Successor generation plus hashing on the spec and impl systems (issue 3): steps per second.
// Usage: bench_semantics [SPEC [IMPL]] (default: the largest corpus kernel and its per-loop impl
// if present, else the paper's Figure 5).
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "formats/load.h"
#include "semantics/lockstep.h"

using namespace syncbisim;

namespace {

template <class System, class State>
void measure(const char* name, const System& sys, State init, double seconds) {
  std::mt19937_64 rng(1);
  semantics::Steps steps;  // as the explorers hold them: a range trip's choices as one run
  std::uint64_t generated = 0, hash_mix = 0, walks = 0;
  const auto t0 = std::chrono::steady_clock::now();
  State s = init;
  for (;;) {
    steps.clear();
    sys.enabled(s, steps);
    if (steps.empty()) {  // a finished run: start over
      s = init;
      ++walks;
      continue;
    }
    // Expand every successor (what an explorer does), then follow one at random.
    for (const semantics::Step st : steps) {
      State next = s;
      sys.apply(next, st);
      hash_mix ^= next.hash();
      ++generated;
    }
    sys.apply(s, steps[std::uniform_int_distribution<std::uint64_t>(0, steps.size() - 1)(rng)]);
    if ((generated & 4095) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > seconds)
      break;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-6s %12.0f successor steps/s (generate + copy + apply + hash), %llu steps, %llu runs [%llx]\n", name,
              generated / secs, static_cast<unsigned long long>(generated), static_cast<unsigned long long>(walks),
              static_cast<unsigned long long>(hash_mix & 0xff));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string root = SYNCBISIM_SOURCE_DIR;
  std::string spec_path = argc > 1 ? argv[1] : root + "/corpus/kernels/stress_5engine.json";
  std::string impl_path = argc > 2 ? argv[2] : "";
  auto spec = formats::load_program_file(spec_path);
  if (!spec) {
    spec_path = root + "/corpus/figures/fig5_offset_two.json";
    spec = formats::load_program_file(spec_path);
  }
  if (!spec) {
    std::fprintf(stderr, "%s\n", spec.error().to_string().c_str());
    return 2;
  }
  const auto code = semantics::compile(spec->program, spec->index);
  std::printf("program %s: %zu engines, %zu instructions, %zu loops, %zu dependencies\n", spec_path.c_str(),
              code.engine_count(), code.instrs.size(), code.loop_count() - 1, code.deps.size());
  const semantics::SpecSystem sys(code);
  measure("spec", sys, sys.initial(), 3.0);
  if (!impl_path.empty()) {
    auto impl = formats::load_program_file(impl_path);
    if (!impl) {
      std::fprintf(stderr, "%s\n", impl.error().to_string().c_str());
      return 2;
    }
    const auto icode = semantics::compile(impl->program, impl->index, &spec->index);
    const semantics::ImplSystem isys(icode);
    measure("impl", isys, isys.initial(), 3.0);
  }
  return 0;
}
