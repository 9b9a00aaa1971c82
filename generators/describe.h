#pragma once
// A compact, one-program-per-paragraph rendering for failure messages of properties that do not
// link the formats module. Not a file format: nothing reads it back.
#include <string>

#include "model/program.h"

namespace syncbisim::generators {

std::string describe(const model::Program& p);

}  // namespace syncbisim::generators
