// libFuzzer target: the expression parser (seeds: the expressions of corpus/ impls, one per
// file, docs/fuzzing.md "Fuzzing the readers"). A parsed expression prints back to the same
// tree (docs/formats.md "Expressions"); a rejected one gets one clean message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "formats/expr_parser.h"
#include "model/quote.h"
#include "oracles.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto e = syncbisim::formats::parse_expr(input, "1:1");
  if (!e.ok()) {
    syncbisim::fuzz_readers::check_message(e.error());
    return 0;
  }
  const auto printed = e->to_string();
  auto again = syncbisim::formats::parse_expr(printed, "1:1");
  if (!again.ok() || !(*again == *e)) {
    std::fprintf(stderr, "broken promise: an expression prints back to itself\n%s\n",
                 syncbisim::model::printable(printed).c_str());
    std::abort();
  }
  return 0;
}
