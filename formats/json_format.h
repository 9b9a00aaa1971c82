#pragma once
// The canonical JSON format of docs/formats.md ("spec/1" and "impl/1"). Places in errors are JSON
// pointers. The reader is strict: unknown fields are errors except on the object form of a
// spec block item, whose extra fields are kept (model::Instr::extra).
#include <cstdint>
#include <string>
#include <string_view>

#include "formats/load.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::formats {

// Parses and normalizes (model::normalize); does not build the index. Deeply nested input is
// rejected with a clear error (rule "too-deep") before any recursion.
model::Result<model::Program> read_json(std::string_view text);

// Canonical JSON; read_json(write_json(p)) == p for every normalized program. Indented, unless
// that passes `compact_past` bytes (the input size limit, so that what is written can be read
// back): then without whitespace.
std::string write_json(const model::Program& p, std::uint64_t compact_past = kMaxInputBytes);

}  // namespace syncbisim::formats
