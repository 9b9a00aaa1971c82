// Loading at the edge (formats/load.h): read, sniff JSON vs text, parse, validate names.
#include "formats/load.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "formats/detail/text_places.h"
#include "formats/json_format.h"
#include "formats/text_format.h"

namespace syncbisim::formats {

using namespace model;

namespace {

// A text program: its declarations' places, so that the index's pointers become line:col.
struct Parsed {
  Result<Program> program;
  std::optional<detail::TextPlaces> text;
};

bool is_json(std::string_view content) {
  std::size_t i = content.substr(0, 3) == "\xEF\xBB\xBF"
                      ? 3
                      : 0;  // a UTF-8 BOM (docs/formats.md "Encoding, line endings, trailing content")
  while (i < content.size() && std::isspace(static_cast<unsigned char>(content[i]))) ++i;
  // docs/formats.md: the first non-blank character '{' means JSON, anything else the text format.
  // '[' cannot start a text program either: send it to the JSON reader for a better error.
  return i < content.size() && (content[i] == '{' || content[i] == '[');
}

Parsed parse(std::string_view content, std::optional<ProgramKind> headerless) {
  if (is_json(content)) return Parsed{read_json(content), std::nullopt};
  detail::TextPlaces places;
  auto program = detail::read_text_with_places(content, headerless, places);
  return Parsed{std::move(program), std::move(places)};
}

}  // namespace

Result<LoadedProgram> load_program_text(std::string_view content, const std::string& name,
                                        std::optional<ProgramKind> headerless) {
  auto parsed = parse(content, headerless);
  if (!parsed.program) {
    parsed.program.error().file = name;
    return parsed.program.error();
  }
  auto index = ProgramIndex::build(*parsed.program);
  if (!index) {
    index.error().file = name;
    if (parsed.text) index.error().place = detail::text_place(*parsed.text, index.error().place);
    return index.error();
  }
  return LoadedProgram{std::move(*parsed.program), std::move(*index), !parsed.text.has_value()};
}

Result<std::string> read_input_file(const std::string& path, std::uint64_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostic{path, "", "io", "cannot open the file for reading"};
  // Read in blocks and stop one byte past the limit: the size a file system reports is not to be
  // trusted (/dev/zero and pipes report 0).
  std::string out;
  std::string block(std::size_t{1} << 16, '\0');
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (out.size() + got > max_bytes)
      return Diagnostic{path, "", "too-large",
                        "the file is larger than " + std::to_string(max_bytes >> 20) +
                            " MiB, the input size limit (docs/formats.md, \"Input size\")"};
    out.append(block.data(), got);
  }
  if (in.bad()) return Diagnostic{path, "", "io", "cannot read the file"};
  return out;
}

namespace {

// A program file's text: not a directory, at most the input size limit.
Result<std::string> read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Diagnostic{path, "", "io", "is a directory, not a program file"};
  return read_input_file(path);
}

}  // namespace

Result<LoadedProgram> load_program_file(const std::string& path) {
  auto content = read_file(path);
  if (!content) return content.error();
  return load_program_text(*content, path);
}

Result<LoadedProgram> load_program_file(const std::string& path, ProgramKind kind) {
  auto content = read_file(path);
  if (!content) return content.error();
  auto loaded = load_program_text(*content, path);
  if (!loaded) return loaded;
  if (auto wrong = kind_error(*loaded, kind, path)) return *wrong;
  return loaded;
}

std::optional<Diagnostic> kind_error(const LoadedProgram& p, ProgramKind kind, const std::string& path) {
  if (p.program.kind == kind) return std::nullopt;
  const char* want = kind == ProgramKind::Spec ? "a spec/1" : "an impl/1";
  const char* got = kind == ProgramKind::Spec ? "impl/1" : "spec/1";
  // The version tag's place: a pointer in JSON, the header line in text.
  return Diagnostic{path, p.json ? "/syncbisim" : "1:1", "wrong-kind",
                    std::string("expected ") + want + " program, found " + got};
}

namespace {

// Writes straight into `path` (a device, a FIFO, standard output): no temporary, no rename.
Status write_in_place(const std::string& path, const std::string& content) {
  std::FILE* f = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!f) return Diagnostic{path, "", "io", "cannot open it for writing: " + std::string(std::strerror(errno))};
  const bool wrote = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  const bool flushed = std::fflush(f) == 0;
  const int err = errno;
  const bool closed = path == "-" ? true : std::fclose(f) == 0;
  if (!wrote || !flushed || !closed)
    return Diagnostic{path, "", "io", "cannot write it: " + std::string(std::strerror(err ? err : EIO))};
  return Ok{};
}

}  // namespace

Status write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  // docs/formats.md "Output files": `-` is standard output; a symlink is followed to what it
  // names; anything that exists and is not a regular file (/dev/null, a FIFO, a terminal) is
  // written into, never replaced; a regular file (or a new one) through a temporary and a rename.
  if (path == "-") return write_in_place(path, content);
  fs::path target(path);
  std::error_code ec;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    if (hops > 40) return Diagnostic{path, "", "io", "too many levels of symbolic links"};
    const auto next = fs::read_symlink(target, ec);
    if (ec) return Diagnostic{path, "", "io", "cannot read the symbolic link: " + ec.message()};
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  const auto st = fs::status(target, ec);
  if (fs::exists(st) && fs::is_directory(st)) return Diagnostic{path, "", "io", "is a directory"};
  if (fs::exists(st) && !fs::is_regular_file(st)) return write_in_place(target.string(), content);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // The temporary lives next to the target so the rename stays on one file system (atomic).
  fs::path tmp;
  for (int attempt = 0;; ++attempt) {
    tmp = dir / ("." + target.filename().string() + ".tmp" + std::to_string(attempt));
    if (!fs::exists(fs::symlink_status(tmp, ec))) break;
    if (attempt > 1000) return Diagnostic{path, "", "io", "cannot find a free temporary file name"};
  }
  if (auto s = write_in_place(tmp.string(), content); !s) {
    fs::remove(tmp, ec);
    auto d = s.error();
    d.file = path;
    d.message = "cannot write the file (" + d.message + "); the old one is left as it was";
    return d;
  }
  // Keep an existing file's permissions.
  if (fs::exists(st)) fs::permissions(tmp, st.permissions(), ec);
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return Diagnostic{path, "", "io", "cannot rename the temporary file into place: " + ec.message()};
  }
  return Ok{};
}

}  // namespace syncbisim::formats
