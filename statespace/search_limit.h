#pragma once
// For the searches (the checker's and syncbisim-mpi's ranks): the exceptions that are limits, not
// errors. A search that meets one in the middle of a step stops there, inconclusive, keeps what
// it found and names the limit (docs/checker.md "Search"); anything else is passed on.
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "semantics/lockstep.h"
#include "statespace/stopwatch.h"

namespace syncbisim::statespace {

// The limit `e` names, if it is one: an allocation failed, or an engine ran
// Lockstep::kMaxInternalSteps internal steps within one step. Nothing for any other exception.
inline std::optional<std::string> limit_named_by(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return allocation_limit();
  } catch (const semantics::InternalStepLimit& l) {
    return std::string(l.what());
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace syncbisim::statespace
