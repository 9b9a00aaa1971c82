#pragma once
// The text format for people (docs/formats.md "Text format"), shaped like the paper's figures.
// Errors carry "line:col". See docs/formats.md for the grammar.
#include <string>
#include <string_view>

#include "model/program.h"
#include "model/result.h"

namespace syncbisim::formats {

model::Result<model::Program> read_text(std::string_view text);

// read_text(write_text(p)) == p for every normalized program.
std::string write_text(const model::Program& p);

}  // namespace syncbisim::formats
