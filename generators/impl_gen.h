#pragma once
// Random impl programs (docs/formats.md "Versions") of arbitrary structure, for format round trips and
// loader fuzzing: valid names and references (model::ProgramIndex::build succeeds), normalized,
// but with no relation to any spec and no meaning as a synchronization scheme.
#include <rapidcheck.h>

#include <cstdint>

#include "model/program.h"

namespace syncbisim::generators {

struct ImplGenOptions {
  std::uint32_t min_engines = 1;
  std::uint32_t max_engines = 5;
  std::uint32_t max_semaphores = 4;
  std::uint32_t max_depth = 3;
  std::uint32_t max_trip = 3;
  std::uint32_t max_top_stmts = 5;
  std::uint32_t max_body_stmts = 3;
  std::uint32_t max_items = 4;  // items (instructions, register operations, barriers)
  std::uint32_t max_expr_depth = 3;
};

rc::Gen<model::Program> gen_impl_shape(ImplGenOptions options = {});

}  // namespace syncbisim::generators
