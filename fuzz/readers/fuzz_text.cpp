// libFuzzer target: the text reader (seeds: the .sb files of corpus/ and tests/inputs,
// docs/fuzzing.md "Fuzzing the readers"). The input is read as text whatever its first byte,
// then by the loader; the harness checks messages and round trips (oracles.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "formats/text_format.h"
#include "model/index.h"
#include "oracles.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto r = syncbisim::formats::read_text(input);
  if (!r.ok()) {
    syncbisim::fuzz_readers::check_message(r.error());
    return 0;
  }
  auto ix = syncbisim::model::ProgramIndex::build(*r);
  if (!ix.ok()) syncbisim::fuzz_readers::check_message(ix.error());
  else syncbisim::fuzz_readers::check_round_trips(*r);
  syncbisim::fuzz_readers::check_load(input);
  return 0;
}
