#pragma once
// Memory footprints of spec instructions (docs/footprints.md): the buffers a kernel declares and
// what each instruction reads, writes and accumulates into. From them the dependency graph is
// derived and a written graph judged (footprint/). The semantics ignore footprints.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace syncbisim::model {

// An index expression: quasi-affine over integers and loop names (a loop name is its iteration
// number within the current trip, counted from 0, as in NKI's ranges), with + - *, and `mod` /
// `//` by a positive constant, both rounding toward minus infinity (Python's meaning). Stored as
// a flat node array (children before parents, root last), like Expr: a plain value.
enum class IndexOp : std::uint8_t { Const, Loop, Add, Sub, Mul, Mod, FloorDiv, Neg };

struct IndexNode {
  IndexOp op = IndexOp::Const;
  std::int64_t value = 0;          // Const
  std::string loop;                // Loop
  std::uint32_t lhs = 0, rhs = 0;  // operands (Neg uses lhs only)
  bool operator==(const IndexNode&) const = default;
};

struct IndexExpr {
  std::vector<IndexNode> nodes;  // root is nodes.back(); never empty once built

  static IndexExpr constant(std::int64_t v);
  static IndexExpr loop(std::string name);
  static IndexExpr binary(IndexOp op, const IndexExpr& a, const IndexExpr& b);
  static IndexExpr negate(const IndexExpr& a);

  // Loop names read, in first-use order, without repeats.
  std::vector<std::string> loops() const;
  // The value with each loop at `iter(name)`; empty if an intermediate value passes 2^62.
  std::optional<std::int64_t> eval(const std::function<std::int64_t(const std::string&)>& iter) const;
  // The value if it reads no loop.
  std::optional<std::int64_t> constant_value() const;
  // Canonical text that parses back to the identical tree.
  std::string to_string() const;
  bool operator==(const IndexExpr&) const = default;
};

// Python's floor division and modulo (toward minus infinity) by a positive divisor.
std::int64_t floor_div(std::int64_t a, std::int64_t b);
std::int64_t floor_mod(std::int64_t a, std::int64_t b);

// One subscript of an access: a single index, a half-open range `lo : hi` (an absent end is 0 or
// the dimension's size; `:` alone is the whole dimension), or `?`, a data-dependent index that may
// touch any element of the dimension (gathers and scatters).
struct IndexPoint {
  IndexExpr at;
  bool operator==(const IndexPoint&) const = default;
};
struct IndexRange {
  std::optional<IndexExpr> lo, hi;
  bool operator==(const IndexRange&) const = default;
};
struct AnyIndex {
  bool operator==(const AnyIndex&) const = default;
};
using Subscript = std::variant<IndexPoint, IndexRange, AnyIndex>;

std::string to_string(const Subscript& s);

// buf[i1, i2, ...]: one subscript per dimension of the buffer.
struct Access {
  std::string buffer;
  std::vector<Subscript> index;
  std::string where;  // "line:col" or a JSON pointer; never part of equality
  std::string to_string() const;
  bool operator==(const Access& o) const { return buffer == o.buffer && index == o.index; }
};

enum class AccessKind : std::uint8_t { Read, Write, Accumulate };
const char* to_string(AccessKind k);  // "reads", "writes", "accumulates"

// What one instruction touches. Two accumulates of one element commute (PSUM accumulation);
// every other pair of accesses to one element conflicts unless both are reads.
struct Footprint {
  std::vector<Access> reads, writes, accumulates;
  bool empty() const { return reads.empty() && writes.empty() && accumulates.empty(); }
  const std::vector<Access>& of(AccessKind k) const;
  std::vector<Access>& of(AccessKind k);
  bool operator==(const Footprint&) const = default;
};

enum class Memory : std::uint8_t { Hbm, Sbuf, Psum };
const char* to_string(Memory m);  // "hbm", "sbuf", "psum"
std::optional<Memory> memory_named(const std::string& s);

// buffer NAME MEMORY [d1, d2, ...]
struct Buffer {
  std::string name;
  Memory memory = Memory::Sbuf;
  std::vector<std::uint64_t> shape;
  std::string where;
  bool operator==(const Buffer& o) const { return name == o.name && memory == o.memory && shape == o.shape; }
};

}  // namespace syncbisim::model
