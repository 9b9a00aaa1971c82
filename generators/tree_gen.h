#pragma once
// The statement tree shared by spec and impl programs: blocks of per-engine streams, loops and
// conds, nested up to a depth. Streams name engines by slot (slots.h); ids are left empty for
// assign_ids() (places.h).
#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "generators/trip_gen.h"
#include "model/program.h"

namespace syncbisim::generators {

struct TreeShape {
  std::uint32_t engine_slots = 5;
  std::uint32_t max_depth = 3;  // loop nesting below @top; a cond branch counts as a loop
  std::uint32_t max_trip = 3;
  std::uint32_t max_top_stmts = 5;
  std::uint32_t max_body_stmts = 3;
  std::uint32_t max_items = 3;  // items of one engine in one block
  bool divergent = true;        // some per-engine trip rules
  bool optional_trips = false;  // impl programs may leave trips and branch rules out
  bool conds = true;            // conds beside loops
  TripKinds trips;
  std::uint32_t block_weight = 3;  // against 2 for a loop and 1 for a cond: lower, more nesting
};

rc::Gen<std::vector<model::Stmt>> gen_tree(const TreeShape& shape, const rc::Gen<model::Item>& item);

}  // namespace syncbisim::generators
