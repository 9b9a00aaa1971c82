// paper §5.3: one semaphore per producer, +1 at its retirement, so s_p = R(p) and the wait is
// s_p >= isgt(rh_S, k) * expr (eq. (3)); beyond §5.2, s_p >= mask * count (target_count.h).
#include "allocator/strategies.h"
#include "allocator/wait_value.h"

namespace syncbisim::allocator {

void allocate_per_instruction(const SpecFacts& facts, Draft& draft, const std::vector<std::size_t>& deps) {
  std::vector<std::string> sem_of(facts.ix.instrs.size());
  for (auto d : deps) {
    const auto count = binding_count(facts, draft, d);
    if (!count) continue;
    const auto& info = facts.dep(d);
    auto& sem = sem_of[info.producer];
    if (sem.empty()) {
      sem = draft.semaphore("s_", facts.ix.instrs[info.producer].name);
      draft.signal(info.producer, sem);
    }
    const auto value = draft.add_wait(info.consumer, sem, count->value);
    draft.decide(d, Scheme::PerInstruction, sem, value, count->how, count->exact);
  }
}

}  // namespace syncbisim::allocator
