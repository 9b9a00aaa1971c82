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

// `check` with its seconds cut to `left` (a check with no limit of its own gets `left`).
CaseOptions within(CaseOptions check, double left) {
  check.max_seconds = check.max_seconds > 0 ? std::min(check.max_seconds, left) : left;
  return check;
}

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
  AllocatorReply reply;  // derive mode: the allocator's answer for `spec`
  std::string what;      // the failure's message on this subject
};

class Shrinker {
 public:
  Shrinker(Subject start, const DerivedImpl* derive, Failure target, const ShrinkOptions& options)
      : cur_(std::move(start)),
        derive_(derive),
        target_(std::move(target)),
        violation_(std::get_if<ViolationAt>(&target_)),
        options_(options),
        t0_(Clock::now()) {
    if (const auto ix = model::ProgramIndex::build(cur_.spec)) kinds_ = dependency_kinds(cur_.spec, *ix);
  }

  ShrinkResult run() {
    ShrinkResult out;
    out.before = size_of(cur_.spec);
    out.impl_before = size_of(cur_.impl);
    remember(cur_);
    bool progress = true;
    while (options_.keep_spec && progress && stopped_.empty()) progress = drop_impl_items();
    while (!options_.keep_spec && progress && stopped_.empty()) {
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
          if (!violation_ || id != violation_->instr) units.push_back(Removal{{}, {id}, {}});
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
    out.reply = std::move(cur_.reply);
    out.what = std::move(cur_.what);
    out.failure = target_;
    out.after = size_of(out.spec);
    out.impl_after = size_of(out.impl);
    out.steps = steps_;
    out.accepted = accepted_;
    out.cache_hits = cache_hits_;
    out.kind_changes = kind_changes_;
    out.kinds_before = of_target(kinds_);
    if (const auto ix = model::ProgramIndex::build(out.spec))
      out.kinds_after = of_target(dependency_kinds(out.spec, *ix));
    out.seconds = elapsed();
    out.stopped = stopped_;
    return out;
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

  // The dependencies the summary shows: those of the failing instruction, else all of them.
  std::vector<DependencyKind> of_target(const std::vector<DependencyKind>& all) const {
    if (!violation_ || violation_->instr.empty()) return all;
    std::vector<DependencyKind> out;
    for (const auto& k : all)
      if (k.consumer == violation_->instr) out.push_back(k);
    return out;
  }

  std::uint64_t key(const Subject& s) const {
    // With an allocation function the impl is a function of the spec.
    const auto h = fnv1a(formats::write_json(s.spec));
    return derive_ ? h : fnv1a(formats::write_json(s.impl), h);
  }
  void remember(const Subject& s) { cache_.insert(key(s)); }

  bool out_of_budget() {
    if (!stopped_.empty()) return true;
    if (options_.stop && options_.stop->load(std::memory_order_relaxed)) stopped_ = "interrupted";
    else if (options_.max_steps > 0 && steps_ >= options_.max_steps)
      stopped_ = "max-steps " + std::to_string(options_.max_steps);
    else if (options_.max_seconds > 0 && elapsed() >= options_.max_seconds)
      stopped_ = "max-seconds " + std::to_string(options_.max_seconds);
    return !stopped_.empty();
  }

  // The check options of a candidate: no check outlives the shrinker's own seconds (issue 43:
  // `shrink --max-seconds 5` ran 131 s, its candidates' checks unbounded).
  CaseOptions bounded_check() const {
    return options_.max_seconds > 0 ? within(options_.check, std::max(0.01, options_.max_seconds - elapsed()))
                                    : options_.check;
  }

  // Checks a candidate; adopts it if it shows the target failure.
  bool attempt(Subject c) {
    if (out_of_budget()) return false;
    if (!cache_.insert(key(c)).second) {
      ++cache_hits_;
      return false;
    }
    const auto ix = model::ProgramIndex::build(c.spec);
    if (!ix) return false;
    if (!options_.free &&
        !keeps_kinds(kinds_, dependency_kinds(c.spec, *ix), violation_ ? violation_->instr : std::string())) {
      ++kind_changes_;
      return false;
    }
    ++steps_;
    if (derive_) {
      auto judged = allocate_and_check(derive_->allocate, c.spec, *ix,
                                       JudgeOptions{bounded_check(), derive_->declined_is_failure}, &target_);
      if (judged.reply.stopped || !judged.target_shown) return false;  // stopped, another failure, or none
      if (const auto* a = std::get_if<Allocated>(&judged.reply.answer)) c.impl = a->impl;
      else c.impl = model::Program{};
      c.what = judged.what;
      c.reply = std::move(judged.reply);
    } else {
      const auto r = check_case(c.spec, c.impl, bounded_check(), violation_);
      if (!r.target_shown) return false;
      c.what = to_string(target_);
    }
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
      const bool failing = violation_ && e == violation_->engine;
      if (!failing && attempt(edited([&](model::Program& p) { drop_engine(p, e); }))) any = true;
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
    if (!violation_ || violation_->instr.empty()) return p;
    std::vector<const model::Stream*> streams;
    model::for_each_stream(cur_.impl.body, [&](const model::Stream& st) {
      if (st.engine == violation_->engine) streams.push_back(&st);
    });
    for (const auto* st : streams)
      for (const auto& item : st->items)
        if (const auto* in = std::get_if<model::Instr>(&item); in && in->id == violation_->instr)
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
    if (!violation_) return false;
    switch (m.kind) {
      case MutationKind::DropWait: return m.engine == violation_->engine && m.instr == violation_->instr;
      case MutationKind::DropRegOp: return m.engine == violation_->engine && p.registers.count(m.reg) > 0;
      case MutationKind::DropSignal: return p.semaphores.count(m.sem) > 0;
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
      if (attempt(Subject{cur_.spec, std::move(ms[i].impl), {}, {}}))
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
  const DerivedImpl* derive_;  // null: the impl is given (GivenImpl)
  Failure target_;
  const ViolationAt* violation_;  // the target, when it is a violation (else an allocator fault)
  const ShrinkOptions& options_;
  Clock::time_point t0_;
  std::unordered_set<std::uint64_t> cache_;
  std::uint64_t steps_ = 0, accepted_ = 0, cache_hits_ = 0, kind_changes_ = 0;
  std::vector<DependencyKind> kinds_;  // of the input's dependencies
  std::string pass_, stopped_;
};

}  // namespace

model::Result<ShrinkResult> shrink(const model::Program& spec, const ShrinkMode& mode,
                                   const std::optional<Failure>& target, const ShrinkOptions& options) {
  Subject start{spec, {}, {}, {}};
  const auto* derive = std::get_if<DerivedImpl>(&mode);
  if (derive && options.keep_spec)
    return model::make_error("", "usage", "keep-spec needs an impl: a derived impl cannot shrink on its own");
  std::optional<Failure> found;
  // The first check too stays within the shrinker's seconds.
  const auto first_check = options.max_seconds > 0 ? within(options.check, options.max_seconds) : options.check;
  if (derive) {
    const auto ix = model::ProgramIndex::build(spec);
    if (!ix) return ix.error();
    auto judged =
        allocate_and_check(derive->allocate, spec, *ix, JudgeOptions{first_check, derive->declined_is_failure},
                           target ? &*target : nullptr);
    if (target && !judged.target_shown)
      return model::make_error("", "no-failure", "the case does not show " + to_string(*target));
    if (!judged.failure) {
      if (judged.declined)
        return model::make_error(
            "", "no-failure",
            "the allocator declined the spec (" + std::get<Declined>(judged.reply.answer).reason + ")");
      return model::make_error(
          "", "no-failure",
          std::string("the case shows no failure to keep (verdict ") +
              checker::to_string(judged.check ? judged.check->check.verdict : checker::Verdict::Inconclusive) + ")");
    }
    found = target ? *target : *judged.failure;
    if (const auto* a = std::get_if<Allocated>(&judged.reply.answer)) start.impl = a->impl;
    start.what = judged.what;
    start.reply = std::move(judged.reply);
  } else {
    start.impl = std::get<GivenImpl>(mode).impl;
    const auto r = check_case(start.spec, start.impl, first_check);
    if (!r.invalid.empty()) return model::make_error("", "invalid-case", r.invalid);
    if (target) {
      const auto* v = std::get_if<ViolationAt>(&*target);
      if (!v || !check_case(start.spec, start.impl, first_check, v).target_shown)
        return model::make_error("", "no-failure", "the case does not show " + to_string(*target));
      found = *target;
    } else if (r.failure) {
      found = *r.failure;
    } else {
      return model::make_error(
          "", "no-failure",
          std::string("the case shows no failure to keep (verdict ") + checker::to_string(r.check.verdict) + ")");
    }
    start.what = to_string(*found);
  }
  return Shrinker(std::move(start), derive, std::move(*found), options).run();
}

}  // namespace syncbisim::fuzz
