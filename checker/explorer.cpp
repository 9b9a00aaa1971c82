#include "checker/explorer.h"

#include "checker/detail/exhaustive.h"

namespace syncbisim::checker {

namespace {
constexpr StateStore kStateStores[] = {StateStore::Flat, StateStore::Tree};
}  // namespace

const char* to_string(StateStore s) {
  switch (s) {
    case StateStore::Flat: return "flat";
    case StateStore::Tree: return "tree";
  }
  return "?";
}

std::optional<StateStore> parse_state_store(const std::string& name) {
  for (const auto s : kStateStores)
    if (name == to_string(s)) return s;
  return std::nullopt;
}

std::string unknown_state_store(const std::string& name) {
  std::string names;
  for (const auto s : kStateStores) names += (names.empty() ? "" : ", ") + std::string(to_string(s));
  return "unknown state store '" + name + "' (" + names + ")";
}

void shorten_traces(const semantics::Lockstep& both, const CheckOptions& options, CheckResult& r) {
  CheckOptions plain;
  plain.reduction = false;
  plain.max_states = 200000;
  plain.max_seconds = options.max_seconds > 0 ? options.max_seconds : 10.0;
  for (auto& v : r.violations) {
    detail::Exhaustive search(both, plain);
    search.target(key_of(v), v.trace.size());
    const auto found = search.run();
    for (const auto& w : found.violations)
      if (key_of(w) == key_of(v) && w.trace.size() < v.trace.size()) v.trace = w.trace;
  }
}

}  // namespace syncbisim::checker
