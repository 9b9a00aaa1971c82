#pragma once
// Numbers in reports and pictures: `v` with `digits` digits after the point, as printf's "%.*f"
// writes it ("0.125" for fixed(0.125, 3), "12" for fixed(11.6, 0)).
#include <string>

namespace syncbisim::model {

std::string fixed(double v, int digits);

}  // namespace syncbisim::model
