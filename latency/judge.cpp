#include "latency/judge.h"

#include "timing/simulate.h"

namespace syncbisim::latency {

std::function<std::optional<std::uint64_t>(const model::Program& spec, const model::ProgramIndex& spec_ix,
                                          const model::Program& impl)>
timing_judge(const timing::CostTable& costs) {
  return [costs](const model::Program& spec, const model::ProgramIndex& spec_ix,
                 const model::Program& impl) -> std::optional<std::uint64_t> {
    auto impl_ix = model::ProgramIndex::build(impl);
    if (!impl_ix) return std::nullopt;
    auto sim = timing::simulate_pair(spec, spec_ix, impl, *impl_ix, costs, {});
    if (!sim || sim->deadlock) return std::nullopt;
    return sim->makespan;
  };
}

}  // namespace syncbisim::latency
