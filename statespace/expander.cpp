#include "statespace/expander.h"

namespace syncbisim::statespace {

Expander::Expander(const semantics::Lockstep& both, const StateCodec& codec, PartTable& parts, bool reduction)
    : both_(&both), reduction_(reduction), reducer_(both), builder_(both, codec, parts) {}

semantics::Steps::const_iterator Expander::at(std::uint64_t k) const {
  for (const auto& run : steps_.runs()) {
    if (k < run.count()) return semantics::Steps::const_iterator(&run, k);
    k -= run.count();
  }
  return steps_.end();
}

}  // namespace syncbisim::statespace
