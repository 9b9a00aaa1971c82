#pragma once
// Parses a footprint's access `buf[i1, i2, ...]` (docs/footprints.md): one subscript per
// dimension, each an index expression, a half-open range `lo : hi` (either end may be left out),
// or `?`. Index expressions are quasi-affine: integers, loop names, + - *, unary minus, and
// `mod` / `//` by a positive constant; a product of two loop-dependent factors is refused.
// Shared by the JSON and text readers.
#include <string_view>

#include "model/footprint.h"
#include "model/result.h"

namespace syncbisim::formats {

// `place` is where the access starts ("line:col" or a JSON pointer); errors in a text access
// report the column of the offending character when `place` is "line:col".
model::Result<model::Access> parse_access(std::string_view text, const std::string& place);

}  // namespace syncbisim::formats
