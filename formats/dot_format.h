#pragma once
// Graphviz view: the loop tree as nested clusters, instructions as nodes (one colour per engine),
// dependencies as edges labelled with their distance.
#include <string>

#include "model/index.h"
#include "model/program.h"

namespace syncbisim::formats {

std::string write_dot(const model::Program& p, const model::ProgramIndex& ix);

}  // namespace syncbisim::formats
