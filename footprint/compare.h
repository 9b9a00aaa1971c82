#pragma once
// A written dependency graph set beside the footprints (docs/footprints.md "Judging a written
// graph"): races (conflicting instance pairs the graph leaves unordered, found by the enumerator
// at concrete trips, each with its witness and the dependency that would order it), written
// dependencies no conflict justifies, written distances smaller than the conflicts need (they
// over-synchronize), and written dependencies implied by others. Whether the graph orders every
// conflict for every trip count is decided by enumerating every execution when the kernel has
// few (each loop entry any trip its rule allows), else from the derived graph: each derived
// dependency must be implied by what the written graph orders (derive.h's rules); where that
// cannot be shown and no race was found, the answer is inconclusive, never a pass.
#include <string>
#include <vector>

#include "footprint/derive.h"
#include "footprint/enumerate.h"

namespace syncbisim::footprint {

struct Race {
  std::string description;  // the conflict: hazard, element, both instances and accesses
  std::string trips;        // the trips it was found at
  std::string producer, consumer;
  std::string fix;          // "add dep load -> mm distance i=1" (beside a written one that orders other conflicts)
  bool missing = true;      // no written dependency between the two
};

struct GraphFinding {
  std::string dependency;  // the written one, as text
  std::string message;
  std::size_t index = 0;   // into the written graph
};

enum class GraphVerdict : std::uint8_t { Ordered, Race, Inconclusive };
const char* to_string(GraphVerdict v);  // "ordered", "race", "inconclusive"

struct Comparison {
  GraphVerdict verdict = GraphVerdict::Ordered;
  std::vector<Race> races;                  // at most one per (producer, consumer) pair
  std::size_t race_pairs = 0;               // conflicting instance pairs left unordered, all plans
  std::vector<GraphFinding> unjustified;    // no conflict between the two (warning)
  std::vector<GraphFinding> over_synchronized;
  std::vector<GraphFinding> implied;        // implied by other written dependencies
  std::vector<std::string> not_shown;       // derived dependencies the written graph was not shown to imply
  std::vector<std::string> limits;          // what cut the analysis (plans too large, ISL undecided)
  std::vector<std::string> plans;           // the trips enumerated
  bool every_execution = false;             // every execution of the kernel was enumerated
  bool deadlock = false;                    // the written graph waits in a cycle at some trips tried
  std::string deadlock_at;                  // the first such trips
};

struct CompareOptions {
  std::size_t max_executions = 256;  // every execution when there are at most this many
  std::uint32_t max_trip = 4;        // else plans of one trip per loop: each loop up to this
  std::size_t max_plans = 32;
  std::size_t max_instances = 100000;
};

Comparison compare(const Kernel& k, const std::vector<model::Dependency>& written, const Derivation& derived,
                   const CompareOptions& options = {});

}  // namespace syncbisim::footprint
