#pragma once
// Lemmas at a cut of the top level (docs/prover.md "Complexity", whole statements of signals): a
// register of engine e holds, at the start of top-level statement t, exactly the count of the
// signals engine h gave semaphore s in the statements before t. A consumer whose semaphore chain
// is summed as `early` (runs.cpp) and whose threshold reads such a register then names one
// unknown for both, instead of two sums over every earlier loop nest that Z3 had to see equal.
//
// A lemma is decided once per program, on one Z3 context of its own that keeps each engine's
// walk and the register values and counts it built (so a chain of reused semaphores costs its
// length once, not once per consumer): both sides are built by an Encoder of e's walk, and the
// lemma holds when both are the same linear combination of the same atoms (smt::Context::
// same_linear, which keeps each subterm's combination, so a chain is read a step at a time). That
// is a proof, so using the lemma never makes `proved` wrong; not seeing it only
// leaves the consumer to the sums.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "analysis/dependency_analysis.h"
#include "prover/detail/smt.h"
#include "prover/places.h"

namespace syncbisim::prover::detail {

class Encoder;
struct ProgramTables;

class CutLemmas {
 public:
  CutLemmas(const Places& impl, const model::ProgramIndex& spec_ix, const analysis::DependencyAnalysis& analysis,
            const ProgramTables& tables);
  ~CutLemmas();
  CutLemmas(const CutLemmas&) = delete;
  CutLemmas& operator=(const CutLemmas&) = delete;
  // Whether register `reg` of engine `e` holds, at the start of top-level statement `t`, the sum
  // of the amounts of semaphore `sem`'s signals by engine `h` in the statements before t, every
  // instance of each (they all ran before t). Thread-safe; decided once.
  bool holds(model::EngineId e, const std::string& reg, std::uint32_t t, const std::string& sem, model::EngineId h);

 private:
  bool decide(model::EngineId e, const std::string& reg, std::uint32_t t, const std::string& sem, model::EngineId h);
  Encoder& walk_of(model::EngineId e);

  const Places& impl_;
  const model::ProgramIndex& spec_ix_;
  const analysis::DependencyAnalysis& analysis_;
  const ProgramTables& tables_;
  std::mutex mutex_;
  smt::Context ctx_;
  std::map<model::EngineId, std::unique_ptr<Encoder>> walks_;
  std::map<std::tuple<model::EngineId, std::string, std::uint32_t, std::string, model::EngineId>, bool> known_;
};

}  // namespace syncbisim::prover::detail
