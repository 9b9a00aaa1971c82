#pragma once
// Loading the programs a command works on, with every input error turned into the one line
// docs/formats.md asks for (FILE: PLACE: message [rule]) on stderr and exit status 2.
#include <memory>
#include <optional>
#include <string>

#include "analysis/dependency_analysis.h"
#include "checker/program_pair.h"
#include "checker/trace_replay.h"
#include "formats/load.h"

namespace syncbisim::cli {

// Prints the diagnostic and returns 2.
int input_error(const model::Diagnostic& d);

// A spec's warnings on stderr, each with `path`: dependencies that never bind or repeat, certain
// deadlocks (analysis::analyze_dependencies). load_spec gives them; `show` too. Returns the
// analysis they came from, for a command that needs it next (allocate: the allocator's facts).
analysis::DependencyAnalysis warn_spec(const std::string& path, const model::Program& spec,
                                       const model::ProgramIndex& ix);
std::optional<formats::LoadedProgram> load_spec(const std::string& path, int& status);
// The same, with the analysis its warnings came from.
struct AnalyzedSpec {
  formats::LoadedProgram loaded;
  analysis::DependencyAnalysis analysis;
};
std::optional<AnalyzedSpec> load_analyzed_spec(const std::string& path, int& status);
std::optional<formats::LoadedProgram> load_impl(const std::string& path, int& status);

// A spec and an impl as loaded, and set up as a pair by checker::ProgramPair::make (which checks
// that they correspond); its diagnostics get the impl's file name.
struct LoadedPair {
  formats::LoadedProgram spec;
  formats::LoadedProgram impl;
  std::unique_ptr<checker::ProgramPair> checked;
  const semantics::CompiledProgram& spec_code() const { return checked->spec_code(); }
  const semantics::CompiledProgram& impl_code() const { return checked->impl_code(); }
  const semantics::Lockstep& lockstep() const { return checked->lockstep(); }
};
std::optional<LoadedPair> load_pair(const std::string& spec_path, const std::string& impl_path, int& status,
                                    checker::PairOptions options = {});
// The pair of two programs already loaded, without printing: the spec unrolled to match an impl
// that unrolls its constant-trip loops (analysis/unroll.h), then ProgramPair::make. A diagnostic
// names the file it is about; `note` gets what the unrolling says, if it unrolled.
model::Result<LoadedPair> make_pair(formats::LoadedProgram spec, formats::LoadedProgram impl,
                                    const std::string& spec_path, const std::string& impl_path,
                                    checker::PairOptions options, std::string& note);

// A trace file of any command (checker/trace_replay.h), its `which`-th trace (0: the first).
std::optional<checker::TraceSteps> load_trace(const std::string& path, std::size_t which, int& status);

}  // namespace syncbisim::cli
