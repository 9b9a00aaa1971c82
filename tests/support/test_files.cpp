#include "support/test_files.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace syncbisim::test {

std::filesystem::path source_dir() { return SYNCBISIM_SOURCE_DIR; }

std::vector<std::filesystem::path> files_in(const std::string& dir, const std::string& ext) {
  std::vector<std::filesystem::path> out;
  const auto root = source_dir() / dir;
  if (!std::filesystem::exists(root)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    const auto name = e.path().filename().string();
    if (e.is_regular_file() && name.size() >= ext.size() &&
        name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace syncbisim::test
