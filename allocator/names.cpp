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
  // Every suffix below next_suffix_[base] was handed out or already used, and names are never
  // released: starting there gives the same name as trying "_2", "_3", ... from the start, without
  // the square of the count (a long body asks for thousands of names of one base).
  auto& next = next_suffix_[base];
  if (next == 0) {
    next = 2;
    if (!used(base)) {
      used_.insert(base);
      return base;
    }
  }
  std::string name;
  do name = base + "_" + std::to_string(next++);
  while (used(name));
  used_.insert(name);
  return name;
}

}  // namespace syncbisim::allocator
