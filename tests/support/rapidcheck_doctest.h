#pragma once
// RapidCheck inside doctest (Debian's rapidcheck ships no doctest header). The seed comes from
// RC_PARAMS (fixed by CTest) and is printed with every failure so it can be replayed.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <sstream>
#include <string>
#include <utility>

namespace syncbisim::test {

// `max_success` > 0 overrides RC_PARAMS' max_success for an expensive property.
template <class Testable>
void rc_check(const std::string& name, Testable&& testable, int max_success = 0) {
  auto params = rc::detail::configuration().testParams;
  if (max_success > 0) params.maxSuccess = max_success;
  rc::detail::TestMetadata metadata;
  metadata.id = name;
  metadata.description = name;
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  INFO("property: ", name);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream msg;
    rc::detail::printResultMessage(result, msg);
    msg << "\nreplay with RC_PARAMS=\"seed=" << params.seed << "\"";
    FAIL(msg.str());
  } else {
    std::ostringstream msg;
    rc::detail::printResultMessage(result, msg);
    MESSAGE(msg.str());
    CHECK(true);
  }
}

}  // namespace syncbisim::test
