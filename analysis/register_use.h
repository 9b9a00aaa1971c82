#pragma once
// Registers an impl reads on an engine that writes them nowhere on that engine: they are always 0
// there (registers are per engine, docs/semantics.md §4), which is almost always a mistake — a name
// typed wrong, or a counter maintained on another engine only (docs/formats.md "Warnings").
#include <vector>

#include "analysis/dependency_analysis.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::analysis {

std::vector<Warning> unwritten_registers(const model::Program& impl, const model::ProgramIndex& ix);

}  // namespace syncbisim::analysis
