#include "model/decimal.h"

#include <cstdio>

namespace syncbisim::model {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace syncbisim::model
