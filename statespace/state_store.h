#pragma once
// How a search keeps its visited set (docs/checker.md "State storage"): flat tuples of part ids,
// or each tuple as the pair of its halves' ids (fewer bytes a state). The same states, in the same
// order, either way; every search takes either (statespace/visited_set.h on one thread or one MPI
// rank, shared_states.h with shared_halves.h on several threads).
namespace syncbisim::statespace {

enum class StateStore { Flat, Tree };

}  // namespace syncbisim::statespace
