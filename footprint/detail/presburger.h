#pragma once
// Integer sets by Presburger formulas, on ISL (Debian libisl-dev): the one file that includes ISL
// (presburger.cpp), as prover/detail/smt.cpp is for Z3. Sets are written in ISL's notation,
// `{ [a, b] : 0 <= a < 4 and exists (e : b = 2e) }`, `;` between the parts of a union. Every
// question can come back undecided (ISL's operation limit, a formula it cannot read): an
// undecided answer is never taken for a yes or a no.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace syncbisim::footprint::detail {

enum class Decided : std::uint8_t { Yes, No, Unknown };

class Presburger {
 public:
  // `max_operations`: ISL's own work limit per question (0: none).
  explicit Presburger(unsigned long max_operations = 20000000);
  ~Presburger();
  Presburger(const Presburger&) = delete;
  Presburger& operator=(const Presburger&) = delete;

  Decided empty(const std::string& set);
  Decided subset(const std::string& a, const std::string& b);
  // A point of the set (empty optional: the set is empty, or undecided: see last_error()).
  std::optional<std::vector<std::int64_t>> sample(const std::string& set);
  // The lexicographically least point.
  std::optional<std::vector<std::int64_t>> lexmin(const std::string& set);
  std::optional<std::vector<std::int64_t>> lexmax(const std::string& set);
  // Per dimension, the least value any point takes (bounded sets).
  std::optional<std::vector<std::int64_t>> dim_min(const std::string& set);
  Decided singleton(const std::string& set);
  // The lexicographically least point of `a` outside `b` (same space).
  std::optional<std::vector<std::int64_t>> lexmin_outside(const std::string& a, const std::string& b);
  // Why the last question was undecided ("" when it was decided).
  const std::string& last_error() const { return error_; }

 private:
  struct Ctx;
  std::unique_ptr<Ctx> ctx_;
  std::string error_;
};

}  // namespace syncbisim::footprint::detail
