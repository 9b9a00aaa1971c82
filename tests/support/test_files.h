#pragma once
// Input files that carry their expected result (tests/inputs, corpus/).
#include <filesystem>
#include <string>
#include <vector>

namespace syncbisim::test {

std::filesystem::path source_dir();
// Files below `dir` (relative to the source tree) whose name ends with `ext`, sorted.
std::vector<std::filesystem::path> files_in(const std::string& dir, const std::string& ext);
std::string read_text(const std::filesystem::path& p);

}  // namespace syncbisim::test
