#include "generators/trip_gen.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "generators/sized.h"
#include "generators/slots.h"

namespace syncbisim::generators {

using model::Choice;

rc::Gen<Choice> gen_loop_choice(std::uint32_t max_trip, TripKinds kinds) {
  const std::uint32_t least = kinds.zero ? 0 : std::min<std::uint32_t>(1, max_trip);
  const auto value = rc::gen::inRange<std::uint32_t>(least, max_trip + 1);
  auto constant = rc::gen::map(value, [](std::uint32_t n) { return Choice{model::ConstTrip{n}}; });
  // Narrow ranges: every value is a branch an exhaustive checker has to explore.
  auto range = rc::gen::apply(
      [max_trip](std::uint32_t lo, std::uint32_t width) {
        return Choice{model::RangeTrip{lo, std::min(max_trip, lo + width)}};
      },
      value, rc::gen::inRange<std::uint32_t>(0, 3));
  auto seq = rc::gen::map(bounded_vector(1, 4, value),
                          [](std::vector<std::uint32_t> v) { return Choice{model::SeqTrip{std::move(v)}}; });
  // Constants first so that shrinking turns ranges and sequences into constants.
  return weighted_one_of<Choice>(
      {{4, constant}, {kinds.ranges ? 2u : 0u, range}, {kinds.sequences ? 2u : 0u, seq}});
}

rc::Gen<Choice> gen_branch_choice(TripKinds kinds) {
  const auto branch = rc::gen::inRange<std::uint32_t>(0, 2);
  auto constant = rc::gen::map(branch, [](std::uint32_t n) { return Choice{model::ConstTrip{n}}; });
  auto any = rc::gen::just(Choice{model::RangeTrip{0, 1}});
  auto seq = rc::gen::map(bounded_vector(1, 4, branch),
                          [](std::vector<std::uint32_t> v) { return Choice{model::SeqTrip{std::move(v)}}; });
  return weighted_one_of<Choice>({{3, constant}, {kinds.ranges ? 2u : 0u, any}, {kinds.sequences ? 2u : 0u, seq}});
}

rc::Gen<model::TripRule> gen_trip_rule(rc::Gen<Choice> choice, bool allow_divergent, std::uint32_t engine_slots) {
  auto uniform = rc::gen::map(choice, [](Choice c) { return model::TripRule{std::move(c), {}, false}; });
  if (!allow_divergent || engine_slots == 0) return uniform;
  using Entry = std::pair<std::string, Choice>;
  const auto entry = rc::gen::apply(
      [](std::uint32_t slot, Choice c) {
        return Entry{slot_name(slot), std::move(c)};
      },
      rc::gen::inRange<std::uint32_t>(0, engine_slots), choice);
  auto divergent = rc::gen::apply(
      [](Choice fallback, std::vector<Entry> entries) {
        return model::TripRule{std::move(fallback), std::move(entries), true};
      },
      choice, bounded_vector(0, 3, entry));
  return weighted_one_of<model::TripRule>({{3, uniform}, {1, divergent}});
}

}  // namespace syncbisim::generators
