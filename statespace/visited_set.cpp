#include "statespace/visited_set.h"

namespace syncbisim::statespace {

namespace {
std::variant<StateSet, TreeStates> make_store(std::size_t parts, StateStore store) {
  if (store == StateStore::Tree) return std::variant<StateSet, TreeStates>(std::in_place_type<TreeStates>, parts);
  return std::variant<StateSet, TreeStates>(std::in_place_type<StateSet>, parts);
}
}  // namespace

VisitedSet::VisitedSet(std::size_t parts, StateStore store)
    : parts_(parts), store_(make_store(parts, store)), unfolded_(store == StateStore::Tree ? parts : 0) {}

std::size_t VisitedSet::bytes() const {
  const auto* t = tree();
  return (t ? t->bytes() : flat().bytes()) + unfolded_.capacity() * sizeof(std::uint32_t);
}

}  // namespace syncbisim::statespace
