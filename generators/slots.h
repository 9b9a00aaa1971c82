#pragma once
// Generated trees are built before the engine list is final (RapidCheck shrinks the engine count
// on its own), so they name engines by slot: "#3" stands for engines[3 % engines.size()].
// Folding slots modulo the count keeps every shrink valid: removing an engine moves its streams
// onto another engine instead of leaving dangling names. The impl generator names semaphores
// the same way. "#" can never start a real name (model/index.cpp), so slots cannot be confused
// with names.
#include <cstdint>
#include <string>
#include <vector>

#include "model/program.h"

namespace syncbisim::generators {

std::string slot_name(std::uint32_t slot);
// The name for a slot, or the text unchanged if it is not a slot. `names` must not be empty.
std::string resolve_slot(const std::string& text, const std::vector<std::string>& names);

// Replaces engine slots in streams and per-engine trip rules by p.engines; merges streams that
// land on the same engine (items in stream order) and keeps the first per-engine rule for an
// engine, so the result has each engine at most once per block and per rule.
void resolve_engine_slots(model::Program& p);

}  // namespace syncbisim::generators
