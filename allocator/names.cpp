#include "allocator/names.h"

#include <cctype>

namespace syncbisim::allocator {

std::string sanitize(const std::string& raw) {
  std::string out;
  for (char c : raw) {
    if (c == '@') continue;
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  }
  if (out.empty()) out = "x";
  return out;
}

std::string NameTable::fresh(const std::string& prefix, const std::string& raw) {
  const std::string base = prefix + sanitize(raw);
  std::string name = base;
  for (int n = 2; used(name); ++n) name = base + "_" + std::to_string(n);
  used_.insert(name);
  return name;
}

}  // namespace syncbisim::allocator
