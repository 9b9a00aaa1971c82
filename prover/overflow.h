#pragma once
// The overflow questions of `prove` (docs/prover.md "Overflow"): for every trip count and history,
// can a register of an engine, or a semaphore, hold a value past what its hardware width holds
// (model::ValueWidths)? A register write's value and an engine's signals since a semaphore's last
// reset are read off that engine's walk (prover/detail/overflow.cpp); `refuted` names the trips
// Z3 found with every loop running one constant trip count, with a run of the pair to the
// overflow when that run is short enough.
#include <vector>

#include "analysis/dependency_analysis.h"
#include "checker/program_pair.h"
#include "prover/places.h"
#include "prover/prove.h"

namespace syncbisim::prover {

namespace detail {
struct ProgramTables;
}

// One result per register of an engine and per semaphore that the impl writes or signals, in
// that order (engines, then registers and semaphores by first use). `tables` are the encoders'
// tables of `places` (detail::ProgramTables::build), built once per program by prove().
std::vector<OverflowResult> prove_overflow(const model::ProgramIndex& spec_ix, const Places& places,
                                           const detail::ProgramTables& tables, const checker::ProgramPair& pair,
                                           const analysis::DependencyAnalysis& analysis, const ProveOptions& o);

}  // namespace syncbisim::prover
