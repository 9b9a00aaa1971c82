// syncbisim demo: the tool's main job on the examples that ship with it. The paper's Figure 1 is
// allocated with every strategy and each result checked against the spec; then a known bug is
// caught and explained; then every spec of the corpus goes through `auto`, and every hand-written
// pair of the corpus is checked as a batch against the verdict it must get.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "allocator/allocate.h"
#include "allocator/stats.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/report.h"
#include "cli/check_batch.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/text_format.h"

namespace syncbisim::cli {

namespace {

namespace fs = std::filesystem;

struct Checked {
  checker::CheckResult result;
  std::string text;  // the full report
};

// Checks an impl against its spec (both already validated by their loaders or the allocator).
Checked check_pair(const formats::LoadedProgram& spec, const model::Program& impl) {
  auto pair = checker::ProgramPair::make(spec.program, impl);
  if (!pair) return Checked{{}, pair.error().to_string()};
  Checked c{checker::check(**pair, checker::CheckOptions{}), {}};
  c.text = checker::render_text((*pair)->lockstep(), spec.program, c.result);
  return c;
}

int demo(const fs::path& corpus) {
  int status = 0;
  auto fig1 = load_spec((corpus / "figures/fig1_motivating.json").string(), status);
  if (!fig1) return status;
  std::cout << "== The paper's Figure 1: three engines, one loop-carried dependency at offset 2\n\n"
            << formats::write_text(fig1->program) << "\n";
  std::printf("%-16s %-18s %8s %5s %5s %5s %6s\n", "strategy", "verdict", "states", "sems", "regs", "alu", "bytes");
  std::unique_ptr<allocator::Allocation> per_loop;
  for (auto strategy : allocator::all_strategies()) {
    auto alloc = allocator::allocate(fig1->program, fig1->index, allocator::Options{strategy, false});
    if (!alloc) return input_error(alloc.error());
    const auto c = check_pair(*fig1, alloc->impl);
    const auto st = allocator::compute_stats(alloc->impl, {});
    std::printf("%-16s %-18s %8llu %5zu %5zu %5u %6llu\n", allocator::to_string(strategy),
                checker::to_string(c.result.verdict), static_cast<unsigned long long>(c.result.states),
                st ? st->semaphores : 0, st ? st->registers_max : 0, st ? st->alu_max : 0,
                static_cast<unsigned long long>(st ? st->code_bytes : 0));
    if (strategy == allocator::Strategy::PerLoop) per_loop = std::make_unique<allocator::Allocation>(std::move(*alloc));
  }
  if (per_loop) {
    std::cout << "\nThe per-loop allocation (paper §5.5):\n\n" << formats::write_text(per_loop->impl);
    for (const auto& d : per_loop->decisions) std::cout << "  # " << d.to_string() << "\n";
  }

  std::cout << "\n== A known bug: Figure 8 with N-K off by one (corpus/bugs/fig8_nk_off_by_one.sb)\n\n";
  auto fig7 = load_spec((corpus / "figures/fig7_fig8.json").string(), status);
  auto bug = load_impl((corpus / "bugs/fig8_nk_off_by_one.sb").string(), status);
  if (!fig7 || !bug) return status;
  std::cout << check_pair(*fig7, bug->program).text;

  std::cout << "\n== Every spec of the corpus, allocated with auto and checked\n\n";
  std::vector<fs::path> specs;
  for (const char* dir : {"figures", "kernels", "nonallocatable"})
    for (const auto& f : fs::directory_iterator(corpus / dir))
      if (f.path().extension() == ".json" && f.path().string().find(".impl.") == std::string::npos)
        specs.push_back(f.path());
  std::sort(specs.begin(), specs.end());
  for (const auto& path : specs) {
    auto spec = load_spec(path.string(), status);
    if (!spec) return status;
    auto alloc = allocator::allocate(spec->program, spec->index, allocator::Options{});
    if (!alloc) return input_error(alloc.error());
    const auto c = check_pair(*spec, alloc->impl);
    std::printf("  %-50s %-18s %8llu states %7.3f s\n", fs::relative(path, corpus).string().c_str(),
                checker::to_string(c.result.verdict), static_cast<unsigned long long>(c.result.states),
                c.result.seconds);
    if (c.result.verdict == checker::Verdict::UnderSynchronized) status = 1;  // never expected
  }

  std::cout << "\n== Every hand-written pair of the corpus, with the verdict it must get (check --batch)\n\n";
  std::vector<BatchEntry> entries;
  for (const auto& source : {corpus / "good", corpus / "bugs", corpus / "pairs.manifest"}) {
    auto some = read_batch(source.string());
    if (!some) return input_error(some.error());
    entries.insert(entries.end(), some->begin(), some->end());
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto results = run_batch(entries, BatchOptions{{}, {}, 2});
  std::cout << batch_text(results, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (batch_status(results) != 0) status = 1;
  return status;
}

}  // namespace

void add_demo(CLI::App& app, Context& ctx, const std::string& name) {
  auto corpus = std::make_shared<std::string>(SYNCBISIM_SOURCE_DIR "/corpus");
  auto* cmd = app.add_subcommand(name, "Allocate and check the paper's examples and the corpus kernels");
  cmd->add_option("--corpus", *corpus, "the corpus folder")->capture_default_str()->check(CLI::ExistingDirectory);
  cmd->callback([corpus, &ctx] { ctx.status = demo(*corpus); });
}

}  // namespace syncbisim::cli
