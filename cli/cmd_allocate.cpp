// syncbisim allocate SPEC [--strategy S] [-o IMPL] [--text] [--prune-registers] [--barrier-fallback]
//                        [--no-licm] [--no-cse] [--share-waits] [--unroll LOOP]... [--spec-out FILE]
//                        [--max-semaphores N] [--max-registers N]:
// writes the impl program an allocation strategy gives (docs/allocator.md); one line per
// dependency on stderr saying what it got and why. With --unroll the spec is unrolled first
// (analysis/unroll.h) and the impl belongs to the unrolled spec, which --spec-out writes so that
// `check` can verify the pair.
#include <iostream>
#include <memory>
#include <optional>

#include "allocator/allocate.h"
#include "allocator/spec_facts.h"
#include "analysis/unroll.h"
#include "cli/command_setup.h"
#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/json_format.h"
#include "formats/text_format.h"
#include "latency/judge.h"
#include "parallel/cores.h"

namespace syncbisim::cli {

namespace {

struct AllocateArgs {
  std::string spec, out, strategy = "auto", spec_out, reuse = "auto";
  std::vector<std::string> unroll;
  std::uint64_t max_unroll = analysis::kDefaultMaxUnroll;
  bool text = false, prune = false, barrier_fallback = false, no_licm = false, no_cse = false, share = false;
  std::size_t max_semaphores = allocator::Options{}.max_semaphores, max_registers = allocator::Options{}.max_registers;
  unsigned jobs = 0;  // 0: every core
};

int run_allocate(const AllocateArgs& a) {
  int status = 0;
  const auto strategy = allocator::parse_strategy(a.strategy);
  if (!strategy) {
    std::cerr << "syncbisim allocate: unknown strategy '" << a.strategy << "' (" << allocator::strategy_names()
              << ")\n";
    return 2;
  }
  auto analyzed = load_analyzed_spec(a.spec, status);
  if (!analyzed) return status;
  auto* spec = &analyzed->loaded;
  // The analysis the spec's warnings came from, for the allocator's facts (a kernel of 10,000
  // nests spent a fifth of a second making it twice); an unrolled spec is analyzed anew.
  std::optional<analysis::DependencyAnalysis> analysis = std::move(analyzed->analysis);
  if (!a.unroll.empty()) {
    analysis.reset();
    auto u = analysis::unroll(spec->program, spec->index, a.unroll, a.max_unroll);
    if (!u) {
      auto d = u.error();
      d.file = a.spec;
      return input_error(d);
    }
    auto ix = model::ProgramIndex::build(*u);
    if (!ix) return input_error(ix.error());
    spec->program = std::move(*u);
    spec->index = std::move(*ix);
  }
  allocator::Options o;
  o.strategy = *strategy;
  o.prune_registers = a.prune;
  o.barrier_fallback = a.barrier_fallback;
  o.licm = !a.no_licm;
  o.cse = !a.no_cse;
  o.share_wait_values = a.share;
  o.max_semaphores = a.max_semaphores;
  o.max_registers = a.max_registers;
  o.reuse = *allocator::parse_reuse(a.reuse);  // CLI11 checked it is one of the three
  o.jobs = parallel::given_or_every_core(a.jobs);
  o.judge = latency::timing_judge();  // the expert's (allocator/expert.h)
  if (!analysis) analysis = analysis::analyze_dependencies(spec->program, spec->index);
  const allocator::SpecFacts facts(spec->program, spec->index, std::move(*analysis));
  auto r = allocator::allocate(facts, o);
  if (!r) {
    auto d = r.error();
    d.file = a.spec;
    return input_error(d);
  }
  // The spec allocated, only now that the run produced an impl (issue 43: it was written before a
  // refusal, exit 2).
  if (!a.spec_out.empty()) {
    const auto text = a.text ? formats::write_text(spec->program) : formats::write_json(spec->program);
    if (auto s = formats::write_file_atomically(a.spec_out, text); !s) {
      auto d = s.error();
      if (d.file.empty()) d.file = a.spec_out;
      return input_error(d);
    }
  }
  const auto content = a.text ? formats::write_text(r->impl) : formats::write_json(r->impl);
  // One write: std::cerr is unbuffered, and a kernel of 10,000 nests has 70,000 decision lines.
  std::string lines;
  for (const auto& d : r->decisions) lines += d.to_string() + "\n";
  for (const auto& n : r->notes) lines += "note: " + n + "\n";
  std::cerr << lines;
  if (a.out.empty() || a.out == "-") {
    std::cout << content;
    return 0;
  }
  if (auto s = formats::write_file_atomically(a.out, content); !s) {
    auto d = s.error();
    if (d.file.empty()) d.file = a.out;
    return input_error(d);
  }
  return 0;
}

}  // namespace

void add_allocate(CLI::App& app, Context& ctx, const std::string& name) {
  auto [cmd, args] =
      add_command<AllocateArgs>(app, ctx, name, "Allocate semaphores for a spec: write the impl program", run_allocate);
  add_spec_argument(cmd, args->spec);
  cmd->add_option("--strategy", args->strategy,
                  "barrier | per-instruction | per-loop | per-engine | auto | mixed | expert")
      ->capture_default_str();
  cmd->add_option("-o,--output", args->out, "write the impl here (atomically) instead of stdout");
  cmd->add_flag("--text", args->text, "write the text format instead of JSON");
  cmd->add_flag("--prune-registers", args->prune, "keep only registers some wait reads");
  cmd->add_flag("--barrier-fallback", args->barrier_fallback,
                "dependencies outside paper §5.2 get the paper's barrier fallback, not the extended closed forms");
  cmd->add_flag("--no-licm", args->no_licm, "no loop-invariant code motion of wait values (paper §6.2)");
  cmd->add_flag("--no-cse", args->no_cse, "no common-subexpression elimination of wait values (paper §6.2)");
  cmd->add_flag("--share-waits", args->share, "share common subexpressions of wait values in a stream (paper §6.2)");
  cmd->add_option("--unroll", args->unroll, "unroll this constant-trip loop first (repeatable; docs/formats.md names)");
  cmd->add_option("--max-unroll", args->max_unroll,
                  "with --unroll: the most instructions, and dependencies, the unrolled spec may have (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--spec-out", args->spec_out, "write the spec allocated (the unrolled one with --unroll) here");
  cmd->add_option("--max-semaphores", args->max_semaphores, "at most this many semaphores (Trainium 2: 256 per core)")
      ->capture_default_str();
  cmd->add_option("--max-registers", args->max_registers,
                  "at most this many registers on any engine (Trainium 2: 64 per engine)")
      ->capture_default_str();
  cmd->add_option("--reuse", args->reuse,
                  "reuse registers and semaphores by liveness: auto (when over the budget), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_option("--jobs", args->jobs,
                  "threads for the independent parts (each engine's register liveness, the expert's statements; "
                  "default: every core; the same output for any number)");
  // The decision lines speak the allocator's notation; a user reads them without the paper
  // (issue 42), so it is defined where they look first.
  cmd->footer(
      "Stderr: one decision line per dependency, \"P -> C {L: k}: scheme semaphore N=.. K=.., wait s >= value\".\n"
      "  r_L     counts every iteration of loop L ever started on the engine (never reset)\n"
      "  rh_L    counts the iterations of L's current trip (reset to 0 each time L is entered)\n"
      "  isgt(a, k)  1 if a > k, else 0: no wait while the dependency's target lies before the start\n"
      "  N       how many instructions signal the semaphore in one iteration of the producer's loop\n"
      "  K       the producer's place among them (1..N): the wait is N*r - (N-K) (paper §5.4)\n"
      "  v       the consumer's iteration; a loop name stands for the loop of your kernel\n"
      "  r_B_at_A_j  r_B as it was when A's iteration j-1 before the current one started (j=1: the current one)\n"
      "docs/allocator.md \"Reading the decision lines\" says more.");
}

}  // namespace syncbisim::cli
