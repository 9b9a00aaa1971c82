#pragma once
// The program array of write_json's document dumped from one nlohmann tree, compact: the
// reference the direct writer is held to (tests/formats), not used by the tool.
#include <string>

#include "model/program.h"

namespace syncbisim::formats::detail {

std::string program_by_tree(const model::Program& p);

}  // namespace syncbisim::formats::detail
