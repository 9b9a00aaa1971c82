#pragma once
// Mutations of valid program files, for the loader fuzz property: raw bytes, lines of the text
// format, and the nlohmann::json tree of the JSON format. Each mutation is plain data (picks
// resolved modulo the input's size) so RapidCheck generates and shrinks it like any value.
#include <cstdint>
#include <string>
#include <vector>

namespace syncbisim::test {

enum class ByteOp : std::uint8_t { Flip, Insert, Delete, Duplicate, Truncate };
struct ByteMutation {
  ByteOp op = ByteOp::Flip;
  std::uint32_t pos = 0;
  std::uint32_t len = 0;
  std::uint8_t byte = 0;
};

enum class LineOp : std::uint8_t { Delete, Duplicate, Swap, Join };
struct LineMutation {
  LineOp op = LineOp::Delete;
  std::uint32_t line = 0;
};

enum class TreeOp : std::uint8_t { DeleteKey, ChangeType, DuplicateElement, RenameKey, DeepNest };
struct TreeMutation {
  TreeOp op = TreeOp::DeleteKey;
  std::uint32_t node = 0;    // which node, modulo the nodes the operation applies to
  std::uint32_t choice = 0;  // which replacement value, key name, element or depth
};

std::string apply(std::string text, const ByteMutation& m);
std::string apply(const std::string& text, const LineMutation& m);
// `json` must parse; the tree mutations are applied in order, then the tree is written compactly
// (deep nesting is spliced in as text so that building the input needs no deep recursion).
std::string apply(const std::string& json, const std::vector<TreeMutation>& ms);

// The input made readable for a failure message: non-printable bytes escaped, long inputs cut.
std::string printable(const std::string& input);

}  // namespace syncbisim::test
