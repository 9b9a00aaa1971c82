#pragma once
// Random spec programs (docs/formats.md "Versions") for property tests: valid by construction
// (model::ProgramIndex::build succeeds), normalized (model::normalize), small enough to explore.
// Sizes grow with RapidCheck's size parameter; shrinking removes engines, then statements,
// then dependencies, before it simplifies what is left.
#include <rapidcheck.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "generators/dep_gen.h"
#include "generators/trip_gen.h"
#include "model/program.h"

namespace syncbisim::generators {

struct SpecGenOptions {
  std::uint32_t min_engines = 1;
  std::uint32_t max_engines = 5;     // at most 5: the names are PE ACT DVE POOL SP or E0..E4
  std::uint32_t max_depth = 3;       // loop nesting; a cond branch counts as a loop
  std::uint32_t max_trip = 3;        // largest iteration count of any trip rule
  std::uint32_t max_top_stmts = 5;   // statements of the program body, at full size
  std::uint32_t max_body_stmts = 3;  // statements of a loop body or cond branch
  std::uint32_t max_items = 2;       // instructions of one engine in one block statement
  std::uint32_t max_deps = 8;        // dependency picks (some may resolve to the same one)
  // Which dependencies are drawn: allocatable only, acyclic, live, which shapes, the largest
  // offset (generators/dep_gen.h). Its max_trip is this max_trip: gen_spec sets it.
  DepMode deps;
  // Some loops and conds get per-engine (divergent) rules.
  bool divergent = true;
  // Some instructions get extra fields (model::Instr::extra).
  bool extras = true;
  // Conds beside loops, and the kinds of trip rule (generators/trip_gen.h).
  bool conds = true;
  TripKinds trips;
  std::uint32_t block_weight = 3;  // of a block against a loop (2) and a cond (1)
};

rc::Gen<model::Program> gen_spec(SpecGenOptions options = {});

// Specs whose allocations a search explores in milliseconds: two or three engines, loops two deep,
// trips of at most 3, acyclic and uniform (no spec deadlock), no extra fields. A fuzz campaign's
// specs (fuzz/campaign.h) and the property tests' starting point.
SpecGenOptions checkable_spec_options();

// Parts, for other generators.
// 1..5 distinct engine names in one of the two naming styles.
rc::Gen<std::vector<std::string>> gen_engine_names(std::uint32_t min_engines, std::uint32_t max_engines);
// Extra fields of a spec instruction: key -> compact JSON text (as nlohmann::json::dump()).
rc::Gen<std::map<std::string, std::string>> gen_extras();

}  // namespace syncbisim::generators
