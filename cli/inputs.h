#pragma once
// Loading the programs a command works on, with every input error turned into the one line
// formats.md asks for (FILE: PLACE: message [rule]) on stderr and exit status 2.
#include <optional>
#include <string>

#include "formats/load.h"
#include "semantics/compiled_program.h"

namespace syncbisim::cli {

// Prints the diagnostic and returns 2.
int input_error(const model::Diagnostic& d);

std::optional<formats::LoadedProgram> load_spec(const std::string& path, int& status);
std::optional<formats::LoadedProgram> load_impl(const std::string& path, int& status);

// A spec and an impl that structurally correspond (analysis::check_correspondence).
struct ProgramPair {
  formats::LoadedProgram spec;
  formats::LoadedProgram impl;
  semantics::CompiledProgram spec_code;
  semantics::CompiledProgram impl_code;
};
std::optional<ProgramPair> load_pair(const std::string& spec_path, const std::string& impl_path, int& status);

}  // namespace syncbisim::cli
