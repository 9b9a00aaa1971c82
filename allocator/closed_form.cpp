#include "allocator/closed_form.h"

#include <cstdint>

#include "allocator/allocate.h"

namespace syncbisim::allocator {

std::vector<std::string> per_loop_closed_forms(const model::Program& spec, const model::ProgramIndex& ix) {
  std::vector<std::string> out(spec.deps.size());
  Options o;
  o.strategy = Strategy::PerLoop;
  // No budget: the closed form is what the dependency asks for, not what a budget left of it.
  o.max_semaphores = SIZE_MAX;
  o.max_registers = SIZE_MAX;
  const auto a = allocate(spec, ix, o);
  if (!a) return out;
  for (const auto& d : a->decisions) {
    const bool closed =
        d.scheme == Scheme::PerLoop || d.scheme == Scheme::PerInstruction || d.scheme == Scheme::PerEngine;
    if (!closed || !d.wait || d.dep >= out.size()) continue;
    // The decision line without its label: the label is the dependency the report already names.
    out[d.dep] = d.to_string().substr(d.label.size() + 2);
  }
  return out;
}

}  // namespace syncbisim::allocator
