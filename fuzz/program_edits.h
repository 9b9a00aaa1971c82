#pragma once
// Edits of a program's tree for the shrinker (docs/fuzzing.md). Every edit works on a spec and
// on an impl alike and addresses things by name (engines, loop and cond ids, instruction ids),
// which the two programs share, so applying one edit to both keeps them corresponding. The
// result is normalized; validity (model::ProgramIndex) is the caller's to check.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "model/program.h"

namespace syncbisim::fuzz {

// Loops and conds (by id) and instructions (by id) to remove, and dependencies (by index into
// the spec's deps) to drop.
struct Removal {
  std::set<std::string> loops;
  std::set<std::string> instrs;
  std::set<std::size_t> deps;
  void merge(const Removal& other);
};

void apply(model::Program& p, const Removal& r);

// Removes an engine: its name, its streams, its per-engine trip entries.
void drop_engine(model::Program& p, const std::string& engine);

// Replaces the loop `id` by its body, or the cond `id` by one branch (`branch` 0 then, 1 else).
// Returns false if no such statement exists.
bool unwrap(model::Program& p, const std::string& id, int branch);

// Simpler trip rules for the loop or cond `id`, most aggressive first (divergent -> uniform,
// range -> its minimum, a smaller maximum, a shorter sequence, a constant one lower, not below 1).
std::vector<model::TripRule> simpler_trips(const model::TripRule& rule);
// Sets the trip rule of the loop or cond `id` (where the program gives one: an impl usually
// takes trips from its spec).
void set_trip(model::Program& p, const std::string& id, const model::TripRule& rule, bool only_if_given);
// The loop or cond `id`'s trip rule, if it is in the tree and has one.
std::optional<model::TripRule> trip_of(const model::Program& p, const std::string& id);

// Drops dependencies whose ends are gone, and distance entries that no longer name a loop
// around both ends (after a loop was unwrapped or removed).
void tidy_dependencies(model::Program& spec);

// Statements at nesting depth `depth` (0: the program body), in pre-order, as removals. A
// cond's branches are one level below the cond.
std::vector<Removal> statements_at(const model::Program& p, std::uint32_t depth);
// Loop and cond ids in pre-order.
std::vector<std::string> loop_ids(const model::Program& p);
// Datapath instruction ids in pre-order.
std::vector<std::string> instr_ids(const model::Program& p);

// Sizes for "before and after".
struct ProgramSize {
  std::size_t engines = 0, statements = 0, instructions = 0, dependencies = 0;
  std::size_t synchronization = 0;  // an impl's waits, signals, register operations and barriers
  // "2 engines, 3 statements, 4 instructions, 1 dependency" (a spec);
  // "2 engines, 3 statements, 4 instructions, 7 synchronization items" (an impl)
  std::string to_string() const;
};
ProgramSize size_of(const model::Program& p);

}  // namespace syncbisim::fuzz
