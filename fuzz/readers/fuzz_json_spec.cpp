// libFuzzer target: the JSON reader on spec programs (seeds: the spec files of corpus/ and
// tests/inputs, docs/fuzzing.md "Fuzzing the readers"). Any byte string goes to the loader; the
// harness checks messages and round trips (oracles.h). The input is read as JSON whatever its
// first byte, so the fuzzer spends its time in this reader.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/json_format.h"
#include "model/index.h"
#include "oracles.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto r = syncbisim::formats::read_json(input);
  if (!r.ok()) {
    syncbisim::fuzz_readers::check_message(r.error());
    return 0;
  }
  auto ix = syncbisim::model::ProgramIndex::build(*r);
  if (!ix.ok()) syncbisim::fuzz_readers::check_message(ix.error());
  else syncbisim::fuzz_readers::check_round_trips(*r);
  // And the loader's own path (format sniffing, BOM, places) on the same bytes.
  syncbisim::fuzz_readers::check_load(input);
  return 0;
}
