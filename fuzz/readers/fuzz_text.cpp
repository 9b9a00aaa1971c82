// libFuzzer target: the text reader (seeds: the .sb files of corpus/ and tests/inputs,
// docs/fuzzing.md "Fuzzing the readers"). The input is read as text whatever its first byte,
// then by the loader; the harness checks messages and round trips (oracles.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/text_format.h"
#include "oracles.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  syncbisim::fuzz_readers::check_read(syncbisim::formats::read_text(input), input);
  return 0;
}
