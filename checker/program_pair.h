#pragma once
// A spec and an impl made ready to check: both indexed, the impl's correspondence to the spec
// verified (analysis::check_correspondence), both compiled (the impl against the spec's ids),
// dynamic trip ranges capped if asked, their transition systems and the lock-step pair built.
// Programs read from files or given to the public API come in through from_loaded(), which
// takes the indexes their reader built and unrolls the spec where the impl unrolls loops; the
// programs the tool makes itself (fuzzing, the prover's replay, the demo, the tests and the
// benchmarks) through make().
// The parts point at each other, so a pair lives behind a unique_ptr and is never moved.
#include <cstdint>
#include <memory>
#include <string>

#include <optional>

#include "analysis/unroll.h"
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"
#include "semantics/lockstep.h"

namespace syncbisim::checker {

struct PairOptions {
  PairOptions(semantics::Options semantics = {}, std::uint32_t max_trip = 0)
      : semantics(semantics), max_trip(max_trip) {}
  semantics::Options semantics;  // commit fusion
  // `check --max-trip K`: every dynamic range trip capped at K (0: no cap). A capped pair runs
  // fewer executions than the programs allow: a search of it can find violations, never prove
  // the pair bisimilar (checker::check(const ProgramPair&, ...) says so in its verdict).
  std::uint32_t max_trip = 0;
};

class ProgramPair;

// "wrong-order" (naming `spec_name`) when the program given as the spec is an impl and the one
// given as the impl a spec: the slip people make most, said as such rather than as two kinds.
std::optional<model::Diagnostic> order_error(model::ProgramKind spec_kind, const std::string& spec_name,
                                             model::ProgramKind impl_kind, const std::string& impl_name);

// A pair made of two programs as loaded (ProgramPair::from_loaded).
struct MatchedPair {
  // The spec the pair was made of when the impl unrolls constant-trip loops of the given one
  // (analysis::unrolled_to_match): the caller keeps it, since the pair points into it.
  std::optional<analysis::UnrolledSpec> unrolled;
  std::unique_ptr<ProgramPair> pair;
};

class ProgramPair {
 public:
  // Index errors carry the rule of model/index.cpp; a pair that does not correspond, the rule of
  // analysis/correspondence.h.
  static model::Result<std::unique_ptr<ProgramPair>> make(const model::Program& spec, const model::Program& impl,
                                                          PairOptions options = {});
  // Two programs as loaded, each with the index its reader built, made a pair without indexing
  // either again: the one way in for the command line, the public API and syncbisim-mpi.
  //  * order_error() first;
  //  * where the impl unrolls constant-trip loops of the spec (docs/formats.md "Unrolled
  //    programs"), the pair is made of the spec with those loops unrolled, which owes exactly
  //    what the given one owes;
  //  * then as make(). Diagnostics name `spec_name` for the order and the unrolling, `impl_name`
  //    for how the impl fits its spec.
  // The programs (and the unrolled spec, if any) must outlive the pair.
  static model::Result<MatchedPair> from_loaded(const model::Program& spec, const model::ProgramIndex& spec_index,
                                                const std::string& spec_name, const model::Program& impl,
                                                const model::ProgramIndex& impl_index, const std::string& impl_name,
                                                PairOptions options = {});

  ProgramPair(const ProgramPair&) = delete;
  ProgramPair& operator=(const ProgramPair&) = delete;

  const semantics::Lockstep& lockstep() const { return both_; }
  const semantics::CompiledProgram& spec_code() const { return spec_code_; }
  const semantics::CompiledProgram& impl_code() const { return impl_code_; }
  const model::ProgramIndex& spec_index() const { return spec_ix_; }
  const model::ProgramIndex& impl_index() const { return impl_ix_; }
  // The limit that cut some trip range ("max-trip 3"), or "" if the pair runs every execution.
  const std::string& cut() const { return cut_; }

 private:
  // make() and from_loaded() once both indexes are there.
  static model::Result<std::unique_ptr<ProgramPair>> indexed(const model::Program& spec, model::ProgramIndex spec_index,
                                                             const model::Program& impl, model::ProgramIndex impl_index,
                                                             PairOptions options);
  ProgramPair(model::ProgramIndex spec_ix, model::ProgramIndex impl_ix, semantics::CompiledProgram spec_code,
              semantics::CompiledProgram impl_code, semantics::Options options, std::string cut);

  model::ProgramIndex spec_ix_, impl_ix_;
  semantics::CompiledProgram spec_code_, impl_code_;
  std::string cut_;
  semantics::SpecSystem spec_;
  semantics::ImplSystem impl_;
  semantics::Lockstep both_;
};

}  // namespace syncbisim::checker
