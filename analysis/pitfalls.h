#pragma once
// Warnings where a program relies on a rule of the semantics that compiler engineers get wrong
// first (docs/semantics.md §1, issue 42):
//   * lines of different engines in one region are unordered: an instruction written between two
//     instructions of another engine, with no dependency to or from either, is not ordered
//     between them, whatever the text suggests;
//   * a dependency between two instructions of one engine still needs a wait: an engine
//     pipelines, so issue order does not order retirements.
// (`distance @top=k` never binding is analyze_dependencies' "never binds" warning.)
#include <vector>

#include "analysis/dependency_analysis.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::analysis {

// A spec without footprints whose text interleaves engines in one region as if the written
// order meant something: one warning per instruction so placed. A spec with footprints needs
// none: its races are derived (docs/footprints.md).
std::vector<Warning> written_order_pitfalls(const model::Program& spec);

// Same-engine dependencies whose consumer has no wait in an impl with no barrier: nothing makes
// the consumer wait for the producer to retire.
std::vector<Warning> same_engine_pitfalls(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                          const model::Program& impl);

}  // namespace syncbisim::analysis
