#pragma once
// Loading programs at the edge: read a file, tell JSON from text (first non-blank character
// '{' means JSON), parse, normalize, validate names (model::ProgramIndex). Every Diagnostic
// returned has its `file` set.
#include <optional>
#include <string>
#include <string_view>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"

namespace syncbisim::formats {

struct LoadedProgram {
  model::Program program;
  model::ProgramIndex index;
};

// `headerless`: the kind of a text program without a header (formats/text_format.h).
model::Result<LoadedProgram> load_program_text(std::string_view content, const std::string& name,
                                               std::optional<model::ProgramKind> headerless = std::nullopt);
model::Result<LoadedProgram> load_program_file(const std::string& path);
// Like load_program_file but insists on a kind (rule "wrong-kind").
model::Result<LoadedProgram> load_program_file(const std::string& path, model::ProgramKind kind);

// Writes `content` to `path` through a temporary file and a rename: never a partial file.
model::Status write_file_atomically(const std::string& path, const std::string& content);

}  // namespace syncbisim::formats
