#pragma once
// The program model (docs/semantics.md §1, docs/formats.md): spec and impl programs share one statement
// tree; they differ in what a block item may be and in what sits beside the tree (a spec has
// dependencies, an impl declares semaphores). Names are kept as written; model/index.h maps
// them to dense ids once a program has been validated.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "model/boxed.h"
#include "model/expr.h"
#include "model/footprint.h"
#include "model/trip_rule.h"

namespace syncbisim::model {

// Where a node came from: a JSON pointer or "line:col". Never part of equality.
struct Loc {
  std::string where;
  bool operator==(const Loc&) const { return true; }
};

// The threshold of a wait: a register of the waiting engine or an integer.
using Operand = std::variant<std::string, std::uint64_t>;

// {sem >= ge}: issue requires the semaphore to be at least the operand (docs/semantics.md §4).
struct Wait {
  std::string sem;
  Operand ge = std::uint64_t{0};
  bool operator==(const Wait&) const = default;
};

// {sem += add}, applied when the instruction retires.
struct Signal {
  std::string sem;
  std::uint32_t add = 1;
  bool operator==(const Signal&) const = default;
};

// A datapath instruction. In a spec only `id`, `extra` and `footprint` are used.
struct Instr {
  std::string id;
  std::vector<Wait> waits;
  std::optional<Signal> signal;
  // Unknown fields of the JSON object form, kept for tools and ignored by the semantics:
  // key -> compact JSON text, sorted by key. Boxed: most instructions have none (model/boxed.h).
  Boxed<std::map<std::string, std::string>> extra;
  Loc loc;
  // What a spec instruction reads, writes and accumulates (docs/footprints.md); ignored by the
  // semantics. Last, so that aggregate initialisers written before it existed leave it empty.
  // Boxed: an impl's instructions have none.
  Boxed<Footprint> footprint;
  bool operator==(const Instr&) const = default;
};

// dst := expr, run atomically as a control step of its engine.
struct RegOp {
  std::string dst;
  Expr expr;
  Loc loc;
  bool operator==(const RegOp&) const = default;
};

// The paper's SYNC: drain, wait for every engine, reset `reset` (all semaphores if absent).
struct Barrier {
  std::optional<std::vector<std::string>> reset;
  Loc loc;
  bool operator==(const Barrier&) const = default;
};

using Item = std::variant<Instr, RegOp, Barrier>;

// One engine's items in one straight-line region.
struct Stream {
  std::string engine;
  std::vector<Item> items;
  bool operator==(const Stream&) const = default;
};

// A straight-line region: per-engine streams, in the order first written. An engine appears at
// most once; empty streams are dropped by normalize().
//
// Program order (docs/semantics.md §1): the semantics order a region's items per engine only,
// but the kernel's sequential meaning, which decides which of two accesses comes first
// (docs/footprints.md), is the order in which items were written across engines. `order` keeps
// it: the k-th item in program order is the next unread item of streams[order[k]]. Empty means
// the streams one after another, which normalize() writes as empty.
struct Block {
  std::vector<Stream> streams;
  Loc loc;
  std::vector<std::uint32_t> order;
  const Stream* find(const std::string& engine) const;
  // Every item as (stream index, item index) in program order.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> in_program_order() const;
  bool operator==(const Block&) const = default;
};

struct Stmt;

struct Loop {
  std::string id;
  std::optional<TripRule> trip;  // required in a spec; optional in an impl (taken from the spec)
  std::vector<Stmt> body;
  Loc loc;
  // The iterations per trip at the real kernel's scale, for the timing model only (docs/timing.md);
  // the semantics, the checker and the allocator ignore it. Last, so that aggregate
  // initialisers written before it existed leave it empty.
  std::optional<std::uint32_t> sim_trip;
  bool operator==(const Loop&) const = default;
};

// A two-way branch: the loops "<id>.then" and "<id>.else", each running 0 or 1 times, exactly one
// of them once. `taken` is a TripRule over {0 = then, 1 = else}; "any" is the range 0..1.
struct Cond {
  std::string id;
  std::optional<TripRule> taken;
  std::vector<Stmt> then_body;
  std::vector<Stmt> else_body;
  Loc loc;
  bool operator==(const Cond&) const = default;
};

struct Stmt {
  std::variant<Block, Loop, Cond> node;
  bool operator==(const Stmt&) const = default;
};

// producer -> consumer with a distance over the common loops (loop id -> offset, 0 if absent).
// `every` names common loops written `L=*` (docs/semantics.md §2, "Whole iterations"): below
// the last numeric entry, the consumer owes every producer instance whose iteration vector over
// the loops above them is at most its own minus the numeric distance, whatever the inner
// iterations. The loader checks that they are the common loops below the numeric ones.
struct Dependency {
  std::string producer;
  std::string consumer;
  std::map<std::string, std::uint32_t> distance;
  Loc loc;
  std::set<std::string> every;
  bool operator==(const Dependency&) const = default;
};

enum class ProgramKind : std::uint8_t { Spec, Impl };

struct Program {
  ProgramKind kind = ProgramKind::Spec;
  std::vector<std::string> engines;
  std::vector<std::string> semaphores;  // impl only
  std::vector<Stmt> body;               // the body of the implicit loop @top
  std::vector<Dependency> deps;         // spec only
  std::vector<Buffer> buffers;          // spec only: what footprints name (docs/footprints.md)
  bool operator==(const Program&) const = default;
  bool has_footprints() const;
};

// The name of the implicit top-level loop, and of a cond's branch loops.
inline constexpr const char* kTopLoop = "@top";
std::string then_loop(const std::string& cond_id);
std::string else_loop(const std::string& cond_id);

// Merges consecutive blocks (per engine the streams concatenate: docs/semantics.md §1) and drops
// empty streams and empty blocks, recursively. Loaders return normalized programs, so two
// programs that mean the same tree compare equal.
void normalize(Program& p);
void normalize(std::vector<Stmt>& body);

}  // namespace syncbisim::model
