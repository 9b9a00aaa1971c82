#include "distributed/detail/level_search.h"

#include <algorithm>
#include <bit>
#include <new>
#include <numeric>
#include <stdexcept>

#include "statespace/search_limit.h"
#include "statespace/stopwatch.h"

namespace syncbisim::distributed::detail {

namespace {
// A key is (place of the parent, index of the step) in one word: the places of a level take the
// bits they need, the steps the rest, up to 63 (a range trip's choices at one state can number
// 2^32 an engine: semantics/steps.h). A state with more steps than its level's keys hold stops the
// search, inconclusive, the limit named (docs/distributed.md "Limits"): only in a level of more
// than 2^31 states with a fan-out past 2^33.
constexpr unsigned kMaxStepBits = 63;
// The least successors a round builds on a rank (with a small --max-states).
constexpr std::uint64_t kLeastSlice = 1024;
std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }
}  // namespace

LevelSearch::LevelSearch(const semantics::Lockstep& both, const checker::CheckOptions& o, Communicator& comm,
                         std::size_t round_states)
    : both_(both),
      opt_(o),
      comm_(comm),
      round_states_(std::max<std::size_t>(round_states, 1)),
      codec_(both),
      classifier_(both),
      states_(codec_.parts(), o.state_store),
      expander_(both, codec_, parts_, o.reduction),
      wire_(codec_, parts_, comm.size()),
      out_(static_cast<std::size_t>(comm.size())),
      last_sent_(static_cast<std::size_t>(comm.size())),
      met_(codec_.parts()) {
  if (comm.size() > 65536) throw std::length_error("distributed: at most 65536 ranks");
}

int LevelSearch::owner(std::uint64_t hash) const {
  // The high half of the hash, scaled to the ranks (below 2^48: no overflow).
  return static_cast<int>(((hash >> 32) * static_cast<std::uint64_t>(comm_.size())) >> 32);
}

void LevelSearch::split_keys(std::uint64_t level_size) {
  // Places of the level are below level_size (at most 2^48: 2^32 states a rank, 2^16 ranks).
  step_bits_ = std::min<unsigned>(kMaxStepBits, 64 - static_cast<unsigned>(std::bit_width(level_size - 1)));
  step_mask_ = (std::uint64_t{1} << step_bits_) - 1;
}

void LevelSearch::set_parent(std::uint32_t id, std::uint32_t parent, int rank, std::uint64_t step) {
  Parent& p = parents_[id];
  p.state = parent;
  p.rank = static_cast<std::uint16_t>(rank);
  p.step = static_cast<std::uint16_t>(std::min<std::uint64_t>(step, kBigStep));
  if (step >= kBigStep) big_steps_[id] = step;
  else if (!big_steps_.empty()) big_steps_.erase(id);
}

void LevelSearch::accept(const std::vector<std::uint32_t>& tuple, std::uint64_t key, std::uint32_t parent, int rank,
                         std::uint64_t step) {
  const auto [id, fresh] = states_.insert(tuple.data());
  if (fresh) {
    parents_.emplace_back();
    keys_.push_back(key);
    set_parent(id, parent, rank, step);
  } else if (id >= next_begin_ && key < keys_[id - next_begin_]) {
    // Reached again in this level, earlier in the order: the one-process search met it here first.
    keys_[id - next_begin_] = key;
    set_parent(id, parent, rank, step);
  }
}

bool LevelSearch::expand(std::uint32_t id, std::uint64_t place, std::uint64_t& budget) {
  if (!started_) {
    if ((expanded_++ & 1023) == 0) expander_.memo().budget(states_.count() * statespace::kMemoBytesPerState);
    expander_.start(states_.tuple(id), [&](const semantics::LockstepState& s, const semantics::Steps& steps,
                                           std::vector<semantics::Mismatch>& mismatches) {
      // The trace is gathered later (path_to), from the candidate that wins over all ranks.
      const std::size_t before = classifier_.found().size();
      classifier_.classify(s, steps, mismatches, [] { return std::vector<semantics::Step>{}; });
      for (std::size_t k = before; k < classifier_.found().size(); ++k)
        candidates_.push_back({checker::key_of(classifier_.found()[k]), level_, place, k - before, id});
      if (classifier_.limits().size() != limits_seen_) {
        limits_seen_ = classifier_.limits().size();
        for (const auto& l : classifier_.limits()) limit_at_.try_emplace(l, level_, place);
      }
      return true;
    });
    first_ = expander_.first_index();
    last_ = first_ + expander_.count();
    if (last_ > first_ && last_ - 1 > step_mask_) {
      // Its steps do not fit a key: the search stops at this round's end, on every rank (run()).
      too_many_steps_ = std::max<std::uint64_t>(too_many_steps_, last_ - first_);
      return true;
    }
    transitions_[id - level_begin_] = last_ - first_;
    next_step_ = first_;
    started_ = true;
  } else {
    // A slice of a wide fan-out after an exchange: the same state again (its steps are kept).
    expander_.resume(states_.tuple(id));
  }
  const int me = comm_.rank();
  // The successors from next_step_ on, until the budget is spent.
  const auto sink = [&](const std::vector<std::uint32_t>& tuple, std::uint64_t k) {
    const std::uint64_t j = first_ + k;
    --budget;
    ++built_;
    const std::uint64_t key = place << step_bits_ | j;
    const std::uint64_t h = wire_.hash(tuple.data());
    if (met_.find(tuple.data(), h) != statespace::RowCache::kNone) return budget > 0;
    met_.put(tuple.data(), h, 0);
    const int to = owner(h);
    if (to == me) {
      accept(tuple, key, id, me, j);
    } else {
      // Places grow through a round and a parent's successors come together: each message
      // gives its parent's place and id as differences from the message before it to that rank.
      auto& out = out_[static_cast<std::size_t>(to)];
      auto& prev = last_sent_[static_cast<std::size_t>(to)];
      put_varint(out, place - prev.place);
      put_varint(out, j);
      put_varint(out, zigzag(static_cast<std::int64_t>(id) - static_cast<std::int64_t>(prev.state)));
      prev = {place, id};
      wire_.write(tuple.data(), to, out);
    }
    return budget > 0;
  };
  if (budget > 0) next_step_ = first_ + expander_.successors(next_step_ - first_, sink);
  if (next_step_ < last_) return false;
  started_ = false;
  return true;
}

std::uint64_t LevelSearch::progress(const std::vector<std::uint32_t>& order, std::size_t done) const {
  if (done >= order.size()) return UINT64_MAX;
  return place_[order[done] - level_begin_] << step_bits_ | (started_ ? next_step_ : 0);
}

void LevelSearch::receive(const std::vector<std::vector<std::uint8_t>>& in) {
  std::vector<std::uint32_t> tuple;
  for (std::size_t from = 0; from < in.size(); ++from) {
    const std::uint8_t* p = in[from].data();
    const std::uint8_t* end = p + in[from].size();
    Sent last;
    while (p < end) {
      last.place += get_varint(p);
      const auto step = get_varint(p);
      last.state = static_cast<std::uint32_t>(static_cast<std::int64_t>(last.state) + unzigzag(get_varint(p)));
      wire_.read(p, static_cast<int>(from), tuple);
      accept(tuple, last.place << step_bits_ | step, last.state, static_cast<int>(from), step);
    }
  }
}

void LevelSearch::rank_new_states(std::uint64_t level_size) {
  // Keys go to the rank that ranks their range of parent places; it sorts them, and an
  // exclusive sum of the counts makes its ranks global places.
  // A rank whose allocation fails still makes every collective call after it (`failed` makes
  // the next exchange fail on every rank), so none is left waiting; run() stops the search.
  bool failed = false;
  const auto local = [&](auto&& work) {
    if (failed) return;
    try {
      work();
    } catch (const std::bad_alloc&) {
      failed = true;
    }
  };
  const auto ranks = static_cast<unsigned>(comm_.size());
  std::vector<std::vector<std::uint64_t>> out;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> slot;  // (rank, index) sent to
  local([&] {
    out.resize(ranks);
    slot.resize(keys_.size());
    for (std::size_t k = 0; k < keys_.size(); ++k) {
      // Places are below 2^48 (2^32 states a rank, 2^16 ranks): the product does not overflow.
      const auto to = static_cast<std::uint32_t>((keys_[k] >> step_bits_) * ranks / level_size);
      slot[k] = {to, static_cast<std::uint32_t>(out[to].size())};
      out[to].push_back(keys_[k]);
    }
  });
  const auto in = comm_.exchange(out, failed);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> all;  // key, where it came from
  local([&] {
    for (std::size_t from = 0; from < in.size(); ++from)
      for (std::size_t i = 0; i < in[from].size(); ++i) all.emplace_back(in[from][i], from << 32 | i);
    std::sort(all.begin(), all.end());
  });
  ranked_offset_ = comm_.exclusive_sum(all.size());
  std::vector<std::vector<std::uint64_t>> reply;
  local([&] {
    ranked_keys_.resize(all.size());
    reply.resize(ranks);
    for (std::size_t from = 0; from < in.size(); ++from) reply[from].resize(in[from].size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      ranked_keys_[i] = all[i].first;
      reply[all[i].second >> 32][all[i].second & 0xffffffffU] = ranked_offset_ + i;
    }
  });
  const auto places = comm_.exchange(reply, failed);
  next_place_.resize(keys_.size());  // past the last collective: a failure here is run()'s to agree on
  for (std::size_t k = 0; k < keys_.size(); ++k) next_place_[k] = places[slot[k].first][slot[k].second];
}

std::uint64_t LevelSearch::count_at_most(std::uint64_t place) const {
  const std::uint64_t bound = place << step_bits_ | step_mask_;
  return static_cast<std::uint64_t>(std::upper_bound(ranked_keys_.begin(), ranked_keys_.end(), bound) -
                                    ranked_keys_.begin());
}

SearchOutcome LevelSearch::run() {
  const auto t0 = statespace::Clock::now();
  SearchOutcome r;
  const auto& initial = expander_.encode(both_.initial());
  if (owner(wire_.hash(initial.data())) == comm_.rank()) accept(initial, 0, kNoParent, 0, 0);
  // Level 0 is the initial state, at place 0.
  std::vector<std::uint32_t> order;  // this rank's states of the level, by place
  for (std::uint32_t id = 0; id < states_.count(); ++id) order.push_back(id);
  place_.assign(order.size(), 0);
  std::uint64_t level_size = 1, before_level = 0, transitions = 0;
  keys_.clear();
  for (;; ++level_) {
    split_keys(level_size);
    level_begin_ = next_begin_;
    next_begin_ = static_cast<std::uint32_t>(states_.count());
    transitions_.assign(next_begin_ - level_begin_, 0);
    keys_.clear();
    started_ = false;
    built_ = 0;
    // Rounds until the level is done or a limit stops it. A round builds at most `slice`
    // successors on each rank, so a wide fan-out takes several rounds and the limits are checked
    // between its slices. Ranks move through the level at their own pace; `frontier`, the least
    // key any rank has yet to expand, says how far the level is known: every state first reached
    // from a key below it has its least key (docs/distributed.md "Design").
    const std::uint64_t through_level = before_level + level_size;
    const std::uint64_t wanted = opt_.max_states > through_level ? opt_.max_states - through_level : 0;
    // Under --max-states a round need not build much more than the states still wanted.
    const std::uint64_t slice =
        std::min<std::uint64_t>(round_states_ * kSuccessorsPerRoundState,
                                opt_.max_states > 0 ? std::max<std::uint64_t>(wanted, kLeastSlice) : UINT64_MAX);
    std::string stop;         // the limit that stopped the level, if one did
    bool cut_inside = false;  // max-states decided before the level's end
    bool throttle = false;    // enough states found: only the rank at the frontier goes on
    std::uint64_t frontier = 0;
    for (std::size_t done = 0;;) {
      bool failed = false, internal = false;
      try {
        if (!throttle || progress(order, done) == frontier) {
          std::uint64_t budget = slice;
          const std::size_t end = std::min(order.size(), done + round_states_);
          while (done < end && budget > 0 && too_many_steps_ == 0)
            if (expand(order[done], place_[order[done] - level_begin_], budget)) ++done;
        }
      } catch (const std::bad_alloc&) {
        failed = true;
      } catch (const semantics::InternalStepLimit&) {  // a step that would not end (as one process)
        failed = internal = true;
      }
      if (failed)
        for (auto& o : out_) o.clear();  // nothing half-built is sent
      bool too_long = false;
      try {
        // A rank that failed above sends nothing (its messages are cleared) and still takes part;
        // the exchange fails on every rank at once when one cannot allocate its buffers. Either
        // way every rank stops at this round, as below.
        const auto in = comm_.exchange(out_);
        if (!failed) receive(in);
      } catch (const std::bad_alloc&) {
        failed = true;
      } catch (const std::length_error&) {
        too_long = true;  // on every rank (Communicator::exchange)
      }
      for (auto& o : out_) o.clear();
      std::fill(last_sent_.begin(), last_sent_.end(), Sent{});
      const bool late = opt_.max_seconds > 0 && statespace::since(t0) > opt_.max_seconds;
      const bool full = opt_.max_memory > 0 && comm_.sum(bytes()) > opt_.max_memory;
      const auto flags =
          comm_.max((late ? 2U : 0U) | (too_many_steps_ > 0 ? 4U : 0U) | (failed ? 8U : 0U) | (internal ? 16U : 0U));
      if (flags & 16U) stop = semantics::InternalStepLimit::name("");  // the rank that met it need not be this one
      else if (flags & 8U) stop = statespace::allocation_limit();
      else if (too_long)
        stop = "a round's messages past 2^31 bytes to one rank (a smaller --round-states sends less a round)";
      else if (flags & 4U)
        stop = "a state with " + std::to_string(comm_.max(too_many_steps_)) + " steps (syncbisim-mpi takes at most " +
               std::to_string(step_mask_ + 1) + " a state in this level)";
      else if (full) stop = statespace::memory_limit(opt_.max_memory);
      else if (flags & 2U) stop = statespace::seconds_limit(opt_.max_seconds);
      if (!stop.empty()) break;
      frontier = comm_.min(progress(order, done));
      if (frontier == UINT64_MAX) break;  // the level is done
      if (opt_.max_states > 0) {
        // Where max-states cuts is known once the states first reached below the frontier are
        // enough (or, when the states through this level are already enough, once the level's
        // first step is taken). Until then the ranks go on; past the count of every state
        // found, only the rank at the frontier does, so the states held stay near max-states.
        if (wanted == 0) {
          cut_inside = frontier > 0;
        } else if (comm_.sum(keys_.size()) >= wanted) {
          const auto below = static_cast<std::uint64_t>(
              std::count_if(keys_.begin(), keys_.end(), [&](std::uint64_t k) { return k < frontier; }));
          cut_inside = comm_.sum(below) >= wanted;
          throttle = true;
        }
        if (cut_inside) break;
      }
    }
    if (!stop.empty()) {
      // Where the clock or the memory stops the search differs from run to run (as in one process),
      // and the states expanded before a too wide fan-out differ with the ranks and --round-states:
      // inconclusive, the limit named, with the states held and the transitions built.
      r.limit = stop;
      r.states = comm_.sum(states_.count());
      r.transitions = transitions + comm_.sum(built_);
      break;
    }
    const std::uint64_t level_transitions =
        comm_.sum(std::accumulate(transitions_.begin(), transitions_.end(), std::uint64_t{0}));
    const std::uint64_t new_states = comm_.sum(keys_.size());
    unsigned failed = 0;  // 2: out of memory (on some rank), 1: a ranking message too long (on every rank)
    try {
      rank_new_states(level_size);
      // What the next level takes of these two, before the ranks agree, so that no allocation
      // is left between here and the next round's exchange.
      order.reserve(keys_.size());
      transitions_.reserve(keys_.size());
    } catch (const std::bad_alloc&) {
      failed = 2;
    } catch (const std::length_error&) {
      failed = 1;
    }
    if (const auto every = comm_.max(failed); every != 0) {
      r.limit = every == 2 ? statespace::allocation_limit()
                           : "a level of more than 2^31 new states to rank on one rank (more ranks share them)";
      r.states = comm_.sum(states_.count());
      r.transitions = transitions + level_transitions;
      break;
    }
    if (opt_.max_states > 0) {
      // The one-process search stops after expanding the first state at which it holds at least
      // max-states states and has more to expand (exhaustive.cpp): here the state at place g of
      // this level, when it holds the states up to this level and the new ones found from the
      // places up to g.
      std::uint64_t g = UINT64_MAX, cut = UINT64_MAX;  // cut: the key of the max-states-th state
      if (through_level >= opt_.max_states) {
        if (level_size > 1 || comm_.sum(count_at_most(0)) > 0) g = 0;
        cut = 0;  // the first step of the first state (max-states 1)
      } else if (const std::uint64_t k = opt_.max_states - through_level; k <= new_states) {
        const bool mine = k - 1 >= ranked_offset_ && k - 1 < ranked_offset_ + ranked_keys_.size();
        cut = comm_.min(mine ? ranked_keys_[k - 1 - ranked_offset_] : UINT64_MAX);
        g = cut >> step_bits_;
      }
      if (cut != UINT64_MAX) {
        // The one-process search stops at once when the state it expands has steps left
        // (Exhaustive::expand_all): with the states whose key is at most the cut's.
        std::uint64_t fanout = 0, t = 0;
        for (std::size_t i = 0; i < transitions_.size(); ++i) {
          if (place_[i] == (cut >> step_bits_)) fanout = transitions_[i];
          if (place_[i] < (cut >> step_bits_)) t += transitions_[i];
        }
        const std::uint64_t j = cut & step_mask_;
        if (j + 1 < comm_.max(fanout)) {
          g = cut >> step_bits_;
          const auto at_most_cut = static_cast<std::uint64_t>(
              std::upper_bound(ranked_keys_.begin(), ranked_keys_.end(), cut) - ranked_keys_.begin());
          r.limit = "max-states " + std::to_string(opt_.max_states);
          r.states = through_level + comm_.sum(at_most_cut);
          r.transitions = transitions + comm_.sum(t) + j + 1;
          const auto later = [&](std::uint64_t level, std::uint64_t place) { return level == level_ && place > g; };
          std::erase_if(candidates_, [&](const Candidate& c) { return later(c.level, c.place); });
          std::erase_if(limit_at_, [&](const auto& l) { return later(l.second.first, l.second.second); });
          break;
        }
      }
      if (g != UINT64_MAX) {
        std::uint64_t t = 0;
        for (std::size_t i = 0; i < transitions_.size(); ++i)
          if (place_[i] <= g) t += transitions_[i];
        r.limit = "max-states " + std::to_string(opt_.max_states);
        r.states = through_level + comm_.sum(count_at_most(g));
        r.transitions = transitions + comm_.sum(t);
        const auto later = [&](std::uint64_t level, std::uint64_t place) { return level == level_ && place > g; };
        std::erase_if(candidates_, [&](const Candidate& c) { return later(c.level, c.place); });
        std::erase_if(limit_at_, [&](const auto& l) { return later(l.second.first, l.second.second); });
        break;
      }
    }
    if (cut_inside) throw std::logic_error("distributed: max-states decided inside a level but not cut there");
    transitions += level_transitions;
    before_level += level_size;
    if (new_states == 0) {  // every state expanded
      r.states = before_level;
      r.transitions = transitions;
      break;
    }
    level_size = new_states;
    order.resize(keys_.size());
    std::iota(order.begin(), order.end(), next_begin_);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return next_place_[a - next_begin_] < next_place_[b - next_begin_];
    });
    place_ = std::move(next_place_);
    next_place_.clear();
  }
  r.candidates = std::move(candidates_);
  for (const auto& l : limit_at_) r.limits.push_back(l.first);
  return r;
}

std::vector<std::uint64_t> LevelSearch::path_to(int rank, std::uint32_t state) {
  std::vector<std::uint64_t> steps;
  std::vector<std::uint64_t> hop(3);
  for (;;) {
    if (comm_.rank() == rank) {
      const Parent& p = parents_[state];
      hop = {p.state, p.rank, p.step == kBigStep ? big_steps_.at(state) : p.step};
    }
    comm_.broadcast(hop, rank);
    if (hop[0] == kNoParent) break;
    steps.push_back(hop[2]);
    state = static_cast<std::uint32_t>(hop[0]);
    rank = static_cast<int>(hop[1]);
  }
  std::reverse(steps.begin(), steps.end());
  return steps;
}

std::uint64_t LevelSearch::bytes() const {
  return parts_.bytes() + states_.bytes() + parents_.capacity() * sizeof(Parent) + expander_.memo().bytes() +
         wire_.bytes() + met_.bytes() + big_steps_.size() * 32 +  // about a node of the map
         (keys_.capacity() + place_.capacity() + transitions_.capacity() + next_place_.capacity() +
          ranked_keys_.capacity()) *
             sizeof(std::uint64_t);
}

}  // namespace syncbisim::distributed::detail
