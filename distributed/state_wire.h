#pragma once
// States as they travel between ranks (docs/distributed.md "Wire format"). A state is stored as
// the tuple of its parts' ids (statespace/state_codec.h), but ids are a rank's own: each rank interns
// parts in its own table. So a state goes over the wire as the words of its parts, each part
// LEB128-coded (most words are below 128: one byte), and the rank that owns a state is found
// from a hash of those words, never of ids. Both are cached per part id: the parts of a state
// repeat across its successors. Parts repeat across states far more than states do, so a part
// goes to a rank in words once; after that the sender names it by its own id, which the receiver
// keeps mapped to its id for the part.
#include <cstdint>
#include <vector>

#include "statespace/part_table.h"
#include "statespace/state_codec.h"

namespace syncbisim::distributed {

// Unsigned LEB128, the wire's one number format.
void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v);
std::uint64_t get_varint(const std::uint8_t*& p);

class StateWire {
 public:
  StateWire(const statespace::StateCodec& codec, statespace::PartTable& parts, int ranks)
      : codec_(codec), parts_(parts), sent_(static_cast<std::size_t>(ranks)), known_(static_cast<std::size_t>(ranks)) {}

  // The same on every rank for the same state: a function of the parts' words alone.
  std::uint64_t hash(const std::uint32_t* tuple);
  // Appends the state's parts for rank `to`. The messages to a rank must be read there in the
  // order they were written.
  void write(const std::uint32_t* tuple, int to, std::vector<std::uint8_t>& out);
  // Reads a state that rank `from` wrote, interning its parts here: its tuple.
  void read(const std::uint8_t*& p, int from, std::vector<std::uint32_t>& tuple);
  std::size_t bytes() const;

 private:
  // Hashes and wire bytes for every part interned so far.
  void cover(std::uint32_t id);

  const statespace::StateCodec& codec_;
  statespace::PartTable& parts_;
  std::vector<std::uint64_t> hash_;        // by part id
  std::vector<std::uint64_t> offsets_{0};  // part id's wire bytes: offsets_[id] .. offsets_[id + 1]
  std::vector<std::uint8_t> arena_;
  std::vector<std::vector<bool>> sent_;            // by rank, by part id here: sent there already
  std::vector<std::vector<std::uint32_t>> known_;  // by rank, by its part id: the id here
  statespace::PartWords words_;
};

}  // namespace syncbisim::distributed
