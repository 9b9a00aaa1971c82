#pragma once
// The enumerator (docs/footprints.md "Two analyses"): at concrete trips, every instruction
// instance in program order, every conflicting pair of instances with an element as witness,
// and which of them a dependency graph orders (the producer instance retired before the consumer
// instance issues, through dependencies and in-order issue and retirement on each engine). It
// shares nothing with the all-trips analysis (derive.h) but the kernel table, so each checks the
// other in the tests.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "footprint/kernel.h"

namespace syncbisim::footprint {

// One execution's trips: loop k (Kernel::loops) runs trip[k] iterations at every entry.
struct TripPlan {
  std::vector<std::uint32_t> trip;
  std::string to_string(const Kernel& k) const;  // "i=2, j=3"
};

// Small plans that reach every loop's least trip, its next values and its largest when small:
// at most `max_plans`, each at most `max_trip` per loop (docs/footprints.md "Two analyses").
std::vector<TripPlan> small_plans(const Kernel& k, std::uint32_t max_trip = 4, std::size_t max_plans = 64);

struct Instance {
  std::size_t statement = 0;
  std::vector<std::int64_t> iter;  // per loop of the statement, 0-based
  std::size_t engine_position = 0;  // among its engine's instances
};

struct Conflict {
  std::size_t earlier = 0, later = 0;                // instances, earlier in program order first
  std::size_t earlier_access = 0, later_access = 0;  // indices into Statement::accesses
  Hazard hazard = Hazard::RAW;
  std::vector<std::int64_t> element;                 // one element both touch
};

struct Execution {
  TripPlan plan;  // with all_executions(): each loop's largest trip in this execution
  std::vector<Instance> instances;  // program order
  std::vector<Conflict> conflicts;
};

// Nothing when the execution would have more than `max_instances` instances.
std::optional<Execution> enumerate(const Kernel& k, const TripPlan& plan, std::size_t max_instances = 200000);

// Every execution of the kernel (docs/footprints.md "Two analyses"): each loop entry runs any trip
// its rule allows there (a range any value, a sequence its k-th value), so a loop's trips may
// differ between its entries. Nothing when there are more than `max_executions`, or one has more
// than `max_instances` instances.
std::optional<std::vector<Execution>> all_executions(const Kernel& k, std::size_t max_executions = 256,
                                                     std::size_t max_instances = 20000);

// A dependency as the semantics reads it (docs/semantics.md §2): over the common loops
// (outermost first, @top left out) a distance, and the first starred position (= size if none).
struct GraphDependency {
  std::size_t producer = 0, consumer = 0;  // statements
  std::vector<std::uint32_t> distance;
  std::size_t whole_from = 0;
};
// model::Program::deps as GraphDependency (every named instruction is a statement).
std::vector<GraphDependency> graph_of(const Kernel& k, const std::vector<model::Dependency>& deps);

struct Ordering {
  std::vector<std::size_t> unordered;  // indices into Execution::conflicts
  bool deadlock = false;               // the graph waits in a cycle at these trips
};
Ordering order_conflicts(const Kernel& k, const Execution& x, const std::vector<GraphDependency>& graph);

// "load (i=1) writes t[1, 0, 0] ... mm (i=3) reads ...": a conflict for a person.
std::string describe(const Kernel& k, const Execution& x, const Conflict& c);
std::string iteration_text(const Kernel& k, const Instance& in);  // "(i=1, j=0)"

}  // namespace syncbisim::footprint
