#include "fuzz/shrink.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>
#include <unordered_set>

#include "formats/json_format.h"
#include "generators/mutations.h"
#include "model/index.h"
#include "model/walk.h"

namespace syncbisim::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

// FNV-1a: a fixed hash, so the cache (and hence the result) is the same on every platform.
std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 1469598103934665603ULL) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

struct Subject {
  model::Program spec, impl;
};

class Shrinker {
 public:
  Shrinker(Subject start, const AllocateFn* derive, Failure target, const ShrinkOptions& options)
      : cur_(std::move(start)), derive_(derive), target_(std::move(target)), options_(options), t0_(Clock::now()) {}

  ShrinkResult run() {
    ShrinkResult out;
    out.before = size_of(cur_.spec);
    remember(cur_);
    bool progress = true;
    while (progress && stopped_.empty()) {
      progress = false;
      progress |= drop_engines();
      for (std::uint32_t depth = 0; depth < 64 && stopped_.empty(); ++depth) {
        if (statements_at(cur_.spec, depth).empty()) break;
        pass_ = "statements at depth " + std::to_string(depth);
        progress |= chunked([depth](const Subject& s) { return statements_at(s.spec, depth); });
      }
      progress |= unwrap_loops();
      pass_ = "instructions";
      progress |= chunked([this](const Subject& s) {
        std::vector<Removal> units;
        for (auto& id : instr_ids(s.spec))
          if (id != target_.instr) units.push_back(Removal{{}, {id}, {}});
        return units;
      });
      pass_ = "dependencies";
      progress |= chunked([](const Subject& s) {
        std::vector<Removal> units;
        for (std::size_t i = 0; i < s.spec.deps.size(); ++i) units.push_back(Removal{{}, {}, {i}});
        return units;
      });
      if (!derive_) progress |= drop_impl_items();
      progress |= lower_trips();
      progress |= lower_offsets();
    }
    out.spec = std::move(cur_.spec);
    out.impl = std::move(cur_.impl);
    out.failure = target_;
    out.after = size_of(out.spec);
    out.steps = steps_;
    out.accepted = accepted_;
    out.cache_hits = cache_hits_;
    out.seconds = elapsed();
    out.stopped = stopped_;
    return out;
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

  std::uint64_t key(const Subject& s) const {
    // With an allocation function the impl is a function of the spec.
    const auto h = fnv1a(formats::write_json(s.spec));
    return derive_ ? h : fnv1a(formats::write_json(s.impl), h);
  }
  void remember(const Subject& s) { cache_.insert(key(s)); }

  bool out_of_budget() {
    if (!stopped_.empty()) return true;
    if (options_.max_steps > 0 && steps_ >= options_.max_steps)
      stopped_ = "max-steps " + std::to_string(options_.max_steps);
    else if (options_.max_seconds > 0 && elapsed() >= options_.max_seconds)
      stopped_ = "max-seconds " + std::to_string(options_.max_seconds);
    return !stopped_.empty();
  }

  // Checks a candidate; adopts it if it shows the target failure.
  bool attempt(Subject c) {
    if (out_of_budget()) return false;
    if (!cache_.insert(key(c)).second) {
      ++cache_hits_;
      return false;
    }
    ++steps_;
    if (derive_) {
      const auto ix = model::ProgramIndex::build(c.spec);
      if (!ix) return false;
      auto impl = (*derive_)(c.spec, *ix);
      if (!impl) return false;  // an allocator error is another failure
      c.impl = std::move(*impl);
    }
    const auto r = check_case(c.spec, c.impl, options_.check, &target_);
    if (!r.target_shown) return false;
    cur_ = std::move(c);
    ++accepted_;
    if (options_.progress) options_.progress(ShrinkProgress{steps_, accepted_, size_of(cur_.spec), pass_, elapsed()});
    return true;
  }

  // Applies an edit to the spec and, when the impl is given rather than derived, to the impl.
  template <class Edit>
  Subject edited(const Edit& edit) const {
    Subject c = cur_;
    edit(c.spec);
    if (!derive_) edit(c.impl);
    return c;
  }

  bool drop_engines() {
    pass_ = "engines";
    bool any = false;
    for (std::size_t i = 0; i < cur_.spec.engines.size() && cur_.spec.engines.size() > 1 && !out_of_budget();) {
      const auto e = cur_.spec.engines[i];
      if (e != target_.engine && attempt(edited([&](model::Program& p) { drop_engine(p, e); }))) any = true;
      else ++i;
    }
    return any;
  }

  // Delta debugging over a list of units: remove chunks of halving size; the units are
  // recomputed from the current subject after each success.
  bool chunked(const std::function<std::vector<Removal>(const Subject&)>& units_of) {
    bool any = false;
    auto units = units_of(cur_);
    std::size_t chunk = std::max<std::size_t>(1, units.size() / 2);
    for (;;) {
      for (std::size_t start = 0; start < units.size() && !out_of_budget();) {
        Removal r;
        for (std::size_t k = start; k < std::min(start + chunk, units.size()); ++k) r.merge(units[k]);
        if (attempt(edited([&](model::Program& p) { apply(p, r); }))) {
          any = true;
          units = units_of(cur_);
        } else {
          start += chunk;
        }
      }
      if (chunk <= 1 || !stopped_.empty()) break;
      chunk /= 2;
    }
    return any;
  }

  bool unwrap_loops() {
    pass_ = "unwrap loops";
    bool any = false;
    const auto ids = loop_ids(cur_.spec);
    for (const auto& id : ids) {
      for (int branch = 0; branch < 2 && !out_of_budget(); ++branch) {
        Subject c = cur_;
        if (!unwrap(c.spec, id, branch)) break;
        if (!derive_) unwrap(c.impl, id, branch);
        if (attempt(std::move(c))) {
          any = true;
          break;
        }
      }
    }
    return any;
  }

  // The impl items the failure's identity rests on: the failing instruction's waits, the register
  // operations that compute their thresholds (transitively, on its engine), and the signals of
  // the semaphores it waits on. Dropping one of these would trade the bug for a trivially
  // missing (or starved) synchronization at the same instruction: same kind, another cause.
  struct Protected {
    std::set<std::string> registers, semaphores;
  };
  Protected protected_items() const {
    Protected p;
    if (target_.instr.empty()) return p;
    std::vector<const model::Stream*> streams;
    model::for_each_stream(cur_.impl.body, [&](const model::Stream& st) {
      if (st.engine == target_.engine) streams.push_back(&st);
    });
    for (const auto* st : streams)
      for (const auto& item : st->items)
        if (const auto* in = std::get_if<model::Instr>(&item); in && in->id == target_.instr)
          for (const auto& w : in->waits) {
            p.semaphores.insert(w.sem);
            if (const auto* r = std::get_if<std::string>(&w.ge)) p.registers.insert(*r);
          }
    for (std::size_t before = 0; before != p.registers.size();) {
      before = p.registers.size();
      for (const auto* st : streams)
        for (const auto& item : st->items)
          if (const auto* r = std::get_if<model::RegOp>(&item); r && p.registers.count(r->dst))
            for (const auto& x : r->expr.registers()) p.registers.insert(x);
    }
    return p;
  }

  bool is_protected(const generators::Mutation& m, const Protected& p) const {
    using generators::MutationKind;
    const auto first_word = m.from.substr(0, m.from.find(' '));
    switch (m.kind) {
      case MutationKind::DropWait:
        return m.engine == target_.engine && m.where.substr(0, m.where.find(' ')) == target_.instr;
      case MutationKind::DropRegOp: return m.engine == target_.engine && p.registers.count(first_word) > 0;
      case MutationKind::DropSignal: return p.semaphores.count(first_word) > 0;
      default: return false;
    }
  }

  // Impl only: the waits, signals, register operations and barriers that do not make the failure.
  bool drop_impl_items() {
    pass_ = "impl items";
    using generators::MutationKind;
    bool any = false;
    for (std::size_t i = 0; !out_of_budget();) {
      const auto prot = protected_items();
      auto ms = generators::mutants(cur_.impl);
      ms.erase(std::remove_if(ms.begin(), ms.end(),
                              [&](const generators::Mutant& m) {
                                const auto k = m.mutation.kind;
                                return (k != MutationKind::DropWait && k != MutationKind::DropSignal &&
                                        k != MutationKind::DropRegOp && k != MutationKind::DropBarrier) ||
                                       is_protected(m.mutation, prot);
                              }),
               ms.end());
      if (i >= ms.size()) break;
      if (attempt(Subject{cur_.spec, std::move(ms[i].impl)}))
        any = true;  // the list shrank by one: the same index is the next item
      else ++i;
    }
    return any;
  }

  bool lower_trips() {
    pass_ = "trips";
    bool any = false;
    for (const auto& id : loop_ids(cur_.spec)) {
      for (bool lowered = true; lowered && !out_of_budget();) {
        lowered = false;
        const auto rule = trip_of(cur_.spec, id);
        if (!rule) break;
        for (const auto& simpler : simpler_trips(*rule)) {
          Subject c = cur_;
          set_trip(c.spec, id, simpler, false);
          if (!derive_) set_trip(c.impl, id, simpler, true);
          if (attempt(std::move(c))) {
            lowered = any = true;
            break;
          }
        }
      }
    }
    return any;
  }

  bool lower_offsets() {
    pass_ = "offsets";
    bool any = false;
    for (std::size_t d = 0; d < cur_.spec.deps.size(); ++d) {
      const auto distance = cur_.spec.deps[d].distance;
      for (const auto& [loop, k] : distance) {
        if (k == 0) continue;
        for (std::uint32_t lower : {0u, k - 1}) {
          if (out_of_budget()) return any;
          Subject c = cur_;
          if (lower == 0) c.spec.deps[d].distance.erase(loop);
          else c.spec.deps[d].distance[loop] = lower;
          if (attempt(std::move(c))) {
            any = true;
            break;
          }
        }
      }
    }
    return any;
  }

  Subject cur_;
  const AllocateFn* derive_;
  Failure target_;
  const ShrinkOptions& options_;
  Clock::time_point t0_;
  std::unordered_set<std::uint64_t> cache_;
  std::uint64_t steps_ = 0, accepted_ = 0, cache_hits_ = 0;
  std::string pass_, stopped_;
};

}  // namespace

model::Result<ShrinkResult> shrink(const model::Program& spec, const std::optional<model::Program>& impl,
                                   const AllocateFn* derive, const std::optional<Failure>& target,
                                   const ShrinkOptions& options) {
  Subject start{spec, {}};
  if (impl) {
    start.impl = *impl;
  } else if (derive) {
    const auto ix = model::ProgramIndex::build(spec);
    if (!ix) return ix.error();
    auto derived = (*derive)(spec, *ix);
    if (!derived) return derived.error();
    start.impl = std::move(*derived);
  } else {
    return model::make_error("", "usage", "shrink needs an impl or an allocation strategy");
  }
  const auto r = check_case(start.spec, start.impl, options.check);
  if (!r.invalid.empty()) return model::make_error("", "invalid-case", r.invalid);
  Failure t;
  if (target) {
    if (!check_case(start.spec, start.impl, options.check, &*target).target_shown)
      return model::make_error("", "no-failure", "the case does not show " + target->to_string());
    t = *target;
  } else if (r.failure) {
    t = *r.failure;
  } else {
    return model::make_error(
        "", "no-failure",
        std::string("the case shows no failure to keep (verdict ") + checker::to_string(r.check.verdict) + ")");
  }
  return Shrinker(std::move(start), impl ? nullptr : derive, std::move(t), options).run();
}

}  // namespace syncbisim::fuzz
