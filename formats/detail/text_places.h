#pragma once
// Where a text program declares its engines and semaphores. The model keeps no place for a
// declaration, so model::ProgramIndex names one by a JSON pointer ("/engines/1"); the loader
// turns that into the text's line:col (docs/formats.md: text errors report line:col).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/program.h"
#include "model/result.h"

namespace syncbisim::formats::detail {

struct TextPlaces {
  std::vector<std::string> engines;     // line:col of each name on the `engines` lines, in order
  std::vector<std::string> semaphores;  // likewise for `semaphores`
  std::string engines_line;             // the first `engines` line (empty: there is none)
};

// read_text (formats/text_format.h) that also says where the declarations are.
model::Result<model::Program> read_text_with_places(std::string_view text, std::optional<model::ProgramKind> headerless,
                                                    TextPlaces& places);

// The line:col for a place the index or the loader gave as a JSON pointer ("/engines/1",
// "/semaphores/0", "/engines", "/syncbisim"); any other place unchanged.
std::string text_place(const TextPlaces& places, const std::string& pointer);

}  // namespace syncbisim::formats::detail
