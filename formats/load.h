#pragma once
// Loading programs at the edge: read a file, tell JSON from text (first non-blank character
// '{' means JSON), parse, normalize, validate names (model::ProgramIndex). Every Diagnostic
// returned has its `file` set.
#include <cstdint>
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
  bool json = false;  // read from JSON, else from the text format
};

// Input files larger than this are refused (rule "too-large", docs/formats.md "Input size"): the
// largest programs the tool is meant for (100,000 instructions per engine) take a few MiB, and an
// endless file (/dev/zero, a pipe that never ends) must not be read until memory runs out.
inline constexpr std::uint64_t kMaxInputBytes = std::uint64_t{64} << 20;
// The bytes of the file at `path`, read up to `max_bytes`; past that, the rule "too-large".
model::Result<std::string> read_input_file(const std::string& path, std::uint64_t max_bytes = kMaxInputBytes);

// `headerless`: the kind of a text program without a header (formats/text_format.h).
model::Result<LoadedProgram> load_program_text(std::string_view content, const std::string& name,
                                               std::optional<model::ProgramKind> headerless = std::nullopt);
model::Result<LoadedProgram> load_program_file(const std::string& path);
// Like load_program_file but insists on a kind (rule "wrong-kind").
model::Result<LoadedProgram> load_program_file(const std::string& path, model::ProgramKind kind);
// The "wrong-kind" diagnostic load_program_file(path, kind) gives, for a program loaded already;
// nothing when `p` is of that kind.
std::optional<model::Diagnostic> kind_error(const LoadedProgram& p, model::ProgramKind kind, const std::string& path);

// Writes `content` to `path` (docs/formats.md "Output files"): a regular file (or a new one)
// through a temporary file and a rename, never a partial file, the old one kept on failure; a
// symlink followed to its target first; a device, a FIFO or `-` (standard output) written into,
// never replaced. A failed write or close (a full disk, /dev/full) is an error (rule "io").
model::Status write_file_atomically(const std::string& path, const std::string& content);

}  // namespace syncbisim::formats
