#pragma once
// Drawing a Timeline as plain SVG 1.1 (docs/timing.md "Pictures"). Presentation only, so it is a
// file pair of its own: nothing else in the repository knows about SVG. It lives in timing/ and
// not in formats/ because it draws timing's value type, and formats/ sits below the timing model
// and must not know it (docs/: layers).
#include <string>

#include "timing/timeline.h"

namespace syncbisim::timing {

// Readable without a browser or JavaScript: no script, no style sheet, no external reference.
std::string render_svg(const Timeline& t);

}  // namespace syncbisim::timing
