// The syncbisim command: a thin layer over the libraries. Every subcommand lives in
// cli/cmd_<name>.cpp; this file only wires them up and maps CLI11's errors to exit status 2.
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "cli/commands.h"
#include "cli/malloc_choice.h"
#include "cli/number_options.h"
#include "model/quote.h"
#include "parallel/threads_refused.h"
#include "semantics/lockstep.h"

namespace {

constexpr char kOutOfMemory[] =
    "syncbisim: out of memory: an allocation failed (limit the work with --max-states, --max-memory or --max-trip) "
    "[memory]\n";

// An allocation that fails where it cannot be caught (RapidCheck's generators, drawing a fuzz
// spec, free memory in destructors, and a destructor may not throw) ends in std::terminate. That
// is still out of memory: the same line and exit status 2 as below, written without allocating,
// never an abort (docs/formats.md). Anything else aborts as before.
[[noreturn]] void on_terminate() noexcept {
  if (const auto e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      [[maybe_unused]] const auto n = ::write(2, kOutOfMemory, sizeof kOutOfMemory - 1);
      std::_Exit(2);
    } catch (...) {
    }
  }
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  syncbisim::cli::choose_malloc(argc, argv);  // may start the run again, tuned for large inputs
  std::set_terminate(on_terminate);
  CLI::App app{"syncbisim: check semaphore synchronization of multi-engine accelerator programs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "syncbisim 0.1");
  // CLI11 echoes arguments into its errors: escaped like every message (docs/formats.md "Messages").
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return syncbisim::model::printable(e.what()) + "\nRun with --help for more information.\n";
  });
  namespace cli = syncbisim::cli;
  cli::Context ctx;
  for (const cli::Command& command : cli::commands_to_register(argc, argv)) command.add(app, ctx, std::string(command.name));
  cli::refuse_wrapped_numbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // bad usage (docs/formats.md)
  } catch (const std::bad_alloc&) {
    // Searches turn an allocation failure into an inconclusive verdict (limit: memory); one met
    // anywhere else is still no abort: one line, exit status 2 (docs/formats.md).
    std::cerr << kOutOfMemory;
    return 2;
  } catch (const syncbisim::semantics::InternalStepLimit& e) {
    // Searches, runs and the prover end at this limit themselves; met anywhere else, it is the
    // same answer: nothing decided, the limit named (exit status 3, as an inconclusive check).
    std::cerr << "syncbisim: " << syncbisim::model::printable(std::string("stopped at the limit ") + e.what())
              << " [internal-steps]\n";
    return 3;
  } catch (const syncbisim::parallel::ThreadsRefused& e) {
    std::cerr << "syncbisim: could not start the threads asked for: "
              << syncbisim::model::printable(e.what()) << "; ask for fewer (--threads, --jobs) [threads]\n";
    return 2;
  } catch (const std::system_error& e) {
    // A resource the system refused (a thread, a pipe): one line, never an abort.
    std::cerr << "syncbisim: the system refused a resource: " << syncbisim::model::printable(e.what()) << " [system]\n";
    return 2;
  } catch (const std::length_error&) {
    std::cerr << "syncbisim: out of memory: a table would outgrow what can be allocated [memory]\n";
    return 2;
  }
  return ctx.status;
}
