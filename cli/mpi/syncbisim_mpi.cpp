// syncbisim-mpi check SPEC IMPL: the exhaustive check of `syncbisim check` with the states
// partitioned over the ranks of an MPI job (docs/distributed.md). Run it under mpirun; rank 0
// prints the report, every rank exits with the check's status (docs/formats.md).
#include <cstdio>
#include <iostream>
#include <memory>
#include <new>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/check_report.h"
#include "cli/inputs.h"
#include "cli/number_options.h"
#include "cli/state_store_option.h"
#include "cli/width_options.h"
#include "distributed/check.h"

namespace {

using namespace syncbisim;

struct Args {
  std::string spec, impl, trace_out;
  bool json = false, no_reduction = false, quiet = false;
  std::uint64_t max_states = 0, max_memory = 0;
  double max_seconds = 0;
  std::uint32_t max_trip = 0;
  model::ValueWidths widths;  // --register-bits, --semaphore-bits, as for syncbisim check
  std::size_t round_states = distributed::kRoundStates;
  checker::StateStore state_store = checker::StateStore::Flat;
};

int check(const Args& a, distributed::Communicator& comm) {
  int status = 0;
  semantics::Options so;
  so.fuse_commit = !a.no_reduction;
  so.widths = a.widths;
  auto pair = cli::load_pair(a.spec, a.impl, status, checker::PairOptions{so, a.max_trip});
  if (comm.max(pair ? 0 : 1) != 0) return pair ? 2 : status;
  checker::CheckOptions o;
  o.reduction = !a.no_reduction;
  o.max_states = a.max_states;
  o.max_seconds = a.max_seconds;
  o.max_memory = a.max_memory;
  o.state_store = a.state_store;
  const auto d = distributed::check(*pair->checked, o, comm, a.round_states);
  if (comm.rank() != 0) return 0;  // rank 0 decides the status (main)
  return cli::print_check_result(
      *pair, d.result,
      cli::CheckReportOptions{a.trace_out, a.json, nullptr, cli::DistributedFigures{d.ranks, d.sent_bytes}});
}

}  // namespace

int main(int argc, char** argv) {
  distributed::Session session(argc, argv);
  distributed::Communicator comm;
  // Every rank loads and checks alike; only rank 0 speaks (warnings, input errors, usage).
  if (comm.rank() != 0) std::cerr.rdbuf(nullptr);
  CLI::App app{"syncbisim-mpi: syncbisim check with the state space spread over the ranks of an MPI job"};
  app.require_subcommand(1);
  Args a;
  auto* cmd = app.add_subcommand("check", "Check an impl against its spec (the exhaustive search of syncbisim check)");
  cmd->add_option("SPEC", a.spec, "spec program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_option("IMPL", a.impl, "impl program (JSON or text)")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--json", a.json, "print one JSON document");
  cmd->add_flag("-q,--quiet", a.quiet, "accepted for syncbisim check's sake: there are no progress lines");
  cmd->add_option("--max-states", a.max_states, "stop after this many states (inconclusive, exit 3)");
  cmd->add_option("--max-seconds", a.max_seconds, "stop after about this many seconds (inconclusive, exit 3)")
      ->check(cli::seconds());
  cmd->add_option("--max-memory", a.max_memory,
                  "stop when the state stores of all ranks pass SIZE bytes (512M, 4G; inconclusive, exit 3)")
      ->transform(CLI::AsSizeValue(false));
  cmd->add_option("--max-trip", a.max_trip, "cap every dynamic range trip at K (inconclusive unless a violation)");
  cli::add_width_options(cmd, a.widths);
  cmd->add_flag("--no-reduction", a.no_reduction, "explore every interleaving: no eager steps, commits kept");
  cli::add_state_store_option(cmd, a.state_store, "fewer bytes a state on every rank");
  cmd->add_option("--trace-out", a.trace_out, "write every violation's full trace as JSON to this file");
  cmd->add_option("--round-states", a.round_states,
                  "states a rank expands between two exchanges: memory for messages against exchanges")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
  cli::refuse_wrapped_numbers(app);
  int status = 0;
  try {
    app.parse(argc, argv);
    status = check(a, comm);
  } catch (const CLI::ParseError& e) {
    if (comm.rank() == 0) app.exit(e);
    status = e.get_exit_code() == 0 ? 0 : 2;
  } catch (const std::bad_alloc&) {
    // The search turns an allocation failure into an inconclusive verdict (limit: memory) on
    // every rank at once; one met elsewhere (reading, rebuilding a trace) is on this rank only,
    // while the others wait in a collective: one line, and the job ends with exit status 2.
    std::fprintf(stderr,
                 "syncbisim-mpi: out of memory on rank %d: an allocation failed (limit the work with --max-states, "
                 "--max-memory or --max-trip) [memory]\n",
                 comm.rank());
    comm.abort(2);
  }
  // Every rank exits with rank 0's status: mpirun passes a non-zero one on.
  std::vector<std::uint64_t> shared{static_cast<std::uint64_t>(status)};
  comm.broadcast(shared, 0);
  return static_cast<int>(shared[0]);
}
