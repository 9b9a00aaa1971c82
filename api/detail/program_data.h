#pragma once
// What a syncbisim::Program and a StopToken hold, and the conversions every file of the public
// API needs. Not installed: outside code sees only include/syncbisim/syncbisim.h.
#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "allocator/allocate.h"
#include "checker/program_pair.h"
#include "model/index.h"
#include "model/program.h"
#include "model/result.h"
#include "model/value_width.h"
#include "syncbisim/syncbisim.h"

namespace syncbisim {

struct Program::Data {
  model::Program program;
  model::ProgramIndex index;
  std::string name;  // the file, or what stands for it in messages
};

struct StopToken::State {
  std::atomic<bool> flag{false};
};

namespace api::detail {

[[noreturn]] void raise(const model::Diagnostic& d);
// The same for a diagnostic of a program that came without a file name: it gets `name`.
[[noreturn]] void raise(model::Diagnostic d, const std::string& name);
Program wrap(model::Program program, model::ProgramIndex index, std::string name);
// Indexes a program the tool made (an allocation, a shrunk case) and wraps it.
Program wrap(model::Program program, const std::string& name);
// Throws Error (rule "wrong-kind") unless `p` is of that kind.
void require_kind(const Program& p, model::ProgramKind kind, const char* role);
// Throws Error (rule "wrong-order") when `spec` is an impl and `impl` a spec.
void require_order(const Program& spec, const Program& impl);
// The pair of `spec` (where the impl unrolls constant-trip loops of it, unrolled to match:
// analysis::unrolled_to_match, docs/formats.md "Unrolled programs") and `impl`, made of the indexes they
// were loaded with (checker::ProgramPair::from_loaded, as the command line makes it); `spec` is
// the spec the pair was made of, which must outlive it. Throws Error when they do not correspond.
struct PairOf {
  Program spec;
  std::unique_ptr<checker::ProgramPair> pair;
};
PairOf pair_of(const Program& spec, const Program& impl, checker::PairOptions options);
allocator::Strategy strategy_of(Strategy s);
Strategy strategy_from(allocator::Strategy s);
// The widths of CheckOptions and ProveOptions (docs/semantics.md "Widths"); throws Error (rule
// "bad-width") outside registers of 1..64 bits and signed semaphores of 2..64.
model::ValueWidths widths(unsigned register_bits, unsigned semaphore_bits);
// Trace steps in the one JSON encoding (docs/schema/trace.schema.json) as the API's TraceStep.
std::vector<TraceStep> trace_steps(const nlohmann::json& steps);

}  // namespace api::detail
}  // namespace syncbisim
