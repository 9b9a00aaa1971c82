#pragma once
// The text format for people (docs/formats.md "Text format"), shaped like the paper's figures.
// Errors carry "line:col". See docs/formats.md for the grammar.
#include <optional>
#include <string>
#include <string_view>

#include "model/program.h"
#include "model/result.h"

namespace syncbisim::formats {

// Without a header the kind is `headerless` when given (a caller that knows it wants an impl),
// else decided by the content (formats.md "Versions").
model::Result<model::Program> read_text(std::string_view text,
                                        std::optional<model::ProgramKind> headerless = std::nullopt);

// read_text(write_text(p)) == p for every normalized program.
std::string write_text(const model::Program& p);

}  // namespace syncbisim::formats
