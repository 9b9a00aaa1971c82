#pragma once
// Names the allocator invents (registers, semaphores) must be identifiers the expression parser
// and the text format accept ([A-Za-z_][A-Za-z0-9_]*), and must not collide: loop ids such as
// "C.then" become "C_then", and "A.b" vs "A_b" get a numeric suffix.
#include <map>
#include <set>
#include <string>

namespace syncbisim::allocator {

// Replaces every character outside [A-Za-z0-9_] by '_'; "@top" becomes "top".
std::string sanitize(const std::string& raw);

// Hands out unique identifiers within one namespace (registers, or semaphores).
class NameTable {
 public:
  // `prefix + sanitize(raw)`, with "_2", "_3", ... appended until unused.
  std::string fresh(const std::string& prefix, const std::string& raw);
  void reserve(const std::string& name) { used_.insert(name); }
  bool used(const std::string& name) const { return used_.count(name) != 0; }

 private:
  std::set<std::string> used_;
  std::map<std::string, unsigned> next_suffix_;  // per base: the first suffix not yet tried
};

}  // namespace syncbisim::allocator
