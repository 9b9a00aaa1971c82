// libFuzzer target: the JSON reader on impl programs (seeds: the impl files of corpus/ and
// tests/inputs, docs/fuzzing.md "Fuzzing the readers"). Any byte string goes to the loader; the
// harness checks messages and round trips (oracles.h). The input is read as JSON whatever its
// first byte, so the fuzzer spends its time in this reader.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/json_format.h"
#include "oracles.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  syncbisim::fuzz_readers::check_read(syncbisim::formats::read_json(input), input);
  return 0;
}
