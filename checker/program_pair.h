#pragma once
// A spec and an impl made ready to check: both indexed, the impl's correspondence to the spec
// verified (analysis::check_correspondence), both compiled (the impl against the spec's ids),
// their transition systems and the lock-step pair built. Every tool that checks a pair (the CLI,
// fuzzing, the prover's replay, the demo, tests, benchmarks) goes through this one sequence.
// The parts point at each other, so a pair lives behind a unique_ptr and is never moved.
#include <memory>

#include "model/index.h"
#include "model/program.h"
#include "model/result.h"
#include "semantics/lockstep.h"

namespace syncbisim::checker {

class ProgramPair {
 public:
  // Index errors carry the rule of model/index.cpp; a pair that does not correspond, the rule of
  // analysis/correspondence.h. `options` choose commit fusion (semantics::Options).
  static model::Result<std::unique_ptr<ProgramPair>> make(const model::Program& spec, const model::Program& impl,
                                                          semantics::Options options = {});

  ProgramPair(const ProgramPair&) = delete;
  ProgramPair& operator=(const ProgramPair&) = delete;

  const semantics::Lockstep& lockstep() const { return both_; }
  const semantics::CompiledProgram& spec_code() const { return spec_code_; }
  const semantics::CompiledProgram& impl_code() const { return impl_code_; }
  const model::ProgramIndex& spec_index() const { return spec_ix_; }
  const model::ProgramIndex& impl_index() const { return impl_ix_; }

 private:
  ProgramPair(model::ProgramIndex spec_ix, model::ProgramIndex impl_ix, semantics::CompiledProgram spec_code,
              semantics::CompiledProgram impl_code, semantics::Options options);

  model::ProgramIndex spec_ix_, impl_ix_;
  semantics::CompiledProgram spec_code_, impl_code_;
  semantics::SpecSystem spec_;
  semantics::ImplSystem impl_;
  semantics::Lockstep both_;
};

}  // namespace syncbisim::checker
