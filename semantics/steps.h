#pragma once
// The steps enabled at a state, in order, where a range trip's choices (any value in [min, max],
// up to 2^32 of them) are held as one run, never one Step per value (docs/semantics.md "Steps";
// issue 18: a range must never be enumerated into memory up front).
// A run is a Step and a count: its i-th step is the Step with `arg + i` (a Choose step's arg is
// the value). Every other step is a run of one. Searches iterate the steps or pick the k-th;
// both cost a walk over the runs, of which a state has a handful.
#include <cstdint>
#include <iterator>
#include <vector>

#include "semantics/step.h"

namespace syncbisim::semantics {

class Steps {
 public:
  // 16 bytes: a range has at most 2^32 values, so the values after the first fit in 32 bits.
  struct Run {
    Step first;
    std::uint32_t more = 0;  // the steps after `first`
    std::uint64_t count() const { return std::uint64_t{more} + 1; }
  };

  void clear() {
    runs_.clear();
    size_ = 0;
  }
  void push_back(const Step& st) {
    runs_.push_back(Run{st, 0});
    ++size_;
  }
  // Choose steps of engine e at loop l, one per value in [min, max], ascending.
  void push_choices(EngineId e, LoopId l, std::uint32_t min, std::uint32_t max) {
    runs_.push_back(Run{Step{StepKind::Choose, e, min, l}, max - min});
    size_ += std::uint64_t{max} - min + 1;
  }
  // Removes the runs (whole) for which `drop(run.first)` holds.
  template <class Pred>
  void erase_if_from(std::size_t first_run, Pred drop) {
    std::size_t kept = first_run;
    for (std::size_t k = first_run; k < runs_.size(); ++k) {
      if (drop(runs_[k].first)) {
        size_ -= runs_[k].count();
        continue;
      }
      runs_[kept++] = runs_[k];
    }
    runs_.resize(kept);
  }

  // How many steps, every value of a range counted.
  std::uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The k-th step (k < size()).
  Step operator[](std::uint64_t k) const {
    for (const auto& r : runs_) {
      if (k < r.count()) return at(r, k);
      k -= r.count();
    }
    return Step{};
  }
  const std::vector<Run>& runs() const { return runs_; }
  // Is `st` one of the steps?
  bool contains(const Step& st) const {
    for (const auto& r : runs_) {
      const Step& f = r.first;
      if (r.more == 0 ? f == st
                      : st.kind == f.kind && st.engine == f.engine && st.aux == f.aux && st.arg >= f.arg &&
                            st.arg - f.arg <= r.more)
        return true;
    }
    return false;
  }
  // The place in the order of the step `first`, the first step of one of runs() (as a reducer
  // returns it).
  std::uint64_t index_of(const Step* first) const {
    std::uint64_t k = 0;
    for (const auto& r : runs_) {
      if (&r.first == first) return k;
      k += r.count();
    }
    return k;
  }

  // Every step in turn, without building them all.
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Step;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Step;

    const_iterator() = default;
    const_iterator(const Run* run, std::uint64_t offset) : run_(run), offset_(offset) {}
    Step operator*() const { return at(*run_, offset_); }
    const_iterator& operator++() {
      if (offset_++ == run_->more) {
        ++run_;
        offset_ = 0;
      }
      return *this;
    }
    const_iterator operator++(int) {
      auto old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator&) const = default;

   private:
    const Run* run_ = nullptr;
    std::uint64_t offset_ = 0;
  };
  const_iterator begin() const { return const_iterator(runs_.data(), 0); }
  const_iterator end() const { return const_iterator(runs_.data() + runs_.size(), 0); }

  // Every step appended to `out`, one per value: only for callers that know the ranges are small
  // (tests, tools that print every step).
  void expand_into(std::vector<Step>& out) const {
    for (const Step st : *this) out.push_back(st);
  }

 private:
  static Step at(const Run& r, std::uint64_t i) {
    Step st = r.first;
    st.arg += static_cast<std::uint32_t>(i);
    return st;
  }

  std::vector<Run> runs_;
  std::uint64_t size_ = 0;
};

// The steps a system (SpecSystem, ImplSystem) enables at `s`, of every engine or of the one
// engine given, with every choice its own step: only where ranges are known to be small (tests).
template <class System, class State, class... Engine>
std::vector<Step> expanded(const System& system, const State& s, Engine... engine) {
  static_assert(sizeof...(Engine) <= 1, "at most one engine");
  Steps steps;
  system.enabled(s, engine..., steps);
  std::vector<Step> out;
  steps.expand_into(out);
  return out;
}

}  // namespace syncbisim::semantics
