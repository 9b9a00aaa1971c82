#include "allocator/draft.h"

#include "allocator/tail_thresholds.h"

namespace syncbisim::allocator {

Draft::Draft(const SpecFacts& facts)
    : facts_(facts), regs_(facts.ix, reg_names_), plan_(facts.ix), decisions_(facts.spec.deps.size()) {}

std::string Draft::semaphore(const std::string& prefix, const std::string& raw) {
  auto n = sem_names_.fresh(prefix, raw);
  plan_.semaphores.push_back(n);
  return n;
}

void Draft::barrier_before_stmt(model::LoopId l, std::uint32_t stmt, const model::Barrier& b) {
  auto [it, fresh] = plan_.stmt_barriers.emplace(std::make_pair(l, stmt), b);
  if (!fresh) it->second = merge(it->second, b);
}

void Draft::signal(model::InstrId instr, const std::string& sem) { plan_.instrs[instr].signal = model::Signal{sem, 1}; }

model::Expr Draft::add_wait(model::InstrId consumer, const std::string& sem, const WaitValue& wv) {
  const auto engine = facts_.ix.instrs[consumer].engine;
  if (wv.mask) regs_.record_reads(*wv.mask, engine);
  regs_.record_reads(wv.count, engine);
  auto value = wv.threshold();
  plan_.instrs[consumer].wanted.push_back(WantedWait{sem, value});
  return value;
}

void Draft::decide(std::size_t dep, Scheme scheme, std::string semaphore, std::optional<model::Expr> wait,
                   std::string detail, bool exact) {
  decisions_[dep] = Decision{
      dep, dep_label(facts_.spec.deps[dep]), scheme, std::move(semaphore), std::move(wait), std::move(detail), exact};
}

model::Status Draft::close_decisions() {
  if (closed_yet_) return model::Ok{};
  closed_.reserve(decisions_.size());
  for (auto& d : decisions_) {
    if (!d)
      return model::make_error("", "allocator-bug",
                               "dependency " + std::to_string(closed_.size()) + " was given no synchronization");
    closed_.push_back(std::move(*d));
  }
  decisions_.clear();
  closed_yet_ = true;
  return model::Ok{};
}

model::Result<Allocation> Draft::finish(bool prune, const Reductions& reductions) {
  if (auto s = close_decisions(); !s) return s.error();
  regs_.finalize(prune);
  if (reductions.tail_thresholds)
    if (const auto n = tail_thresholds(facts_, regs_, reg_names_, plan_); n > 0)
      note(std::to_string(n) + " wait thresholds in registers updated once per iteration at a loop's tail (expert)");
  lower_waits(facts_, regs_, reg_names_, plan_, reductions);
  return Allocation{emit_impl(facts_.spec, facts_.ix, std::move(plan_), regs_), std::move(closed_), std::move(notes_)};
}

}  // namespace syncbisim::allocator
