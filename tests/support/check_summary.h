#pragma once
// A check's result as text, so that two searches that must agree (threads and one thread, trees of
// pairs and flat tuples) are compared on everything they report but their time and their bytes,
// and a difference shows in the failure message.
#include <sstream>
#include <string>

#include "checker/explorer.h"

namespace syncbisim::test {

// The verdict, whether the search was whole and what cut it, the counts, and every violation with
// its engine, instruction, whether the spec deadlocks too, the engines stuck, and its trace.
inline std::string summary(const checker::CheckResult& r) {
  std::ostringstream out;
  out << checker::to_string(r.verdict) << " exhaustive=" << r.exhaustive << " limit=[" << r.limit
      << "] states=" << r.states << " transitions=" << r.transitions << "\n";
  for (const auto& v : r.violations) {
    out << checker::to_string(v.kind) << " engine " << v.engine << " instr " << (v.instr ? int(*v.instr) : -1)
        << " spec-deadlocks " << v.spec_deadlocks_too << " stuck";
    for (auto e : v.stuck) out << " " << e;
    out << " trace";
    for (const auto& st : v.trace)
      out << " " << static_cast<int>(st.kind) << ":" << st.engine << ":" << st.arg << ":" << st.aux;
    out << "\n";
  }
  return out.str();
}

}  // namespace syncbisim::test
