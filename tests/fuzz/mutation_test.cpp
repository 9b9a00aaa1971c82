// Mutation operators (GitHub issue 6): every mutant of an allocation is still a valid impl of the
// same spec, and each one is either caught by the checker or shown equivalent within a larger
// bound (every trip widened by one). Mutants of the paper's figures are mostly caught.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <set>

#include "formats/load.h"
#include "fuzz/allocate_fn.h"
#include "fuzz/case_check.h"
#include "generators/mutations.h"
#include "model/walk.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

model::Choice widened(const model::Choice& c) {
  if (const auto* k = std::get_if<model::ConstTrip>(&c)) return model::ConstTrip{k->n + 1};
  if (const auto* r = std::get_if<model::RangeTrip>(&c)) return model::RangeTrip{r->min, r->max + 1};
  auto s = std::get<model::SeqTrip>(c);
  for (auto& v : s.values) ++v;
  return s;
}

// Every loop runs one more iteration (cond branches are left alone: they are 0 or 1).
void widen(std::vector<model::Stmt>& body) {
  for (auto& stmt : body) {
    if (auto* l = std::get_if<model::Loop>(&stmt.node)) {
      if (l->trip) {
        l->trip->uniform = widened(l->trip->uniform);
        for (auto& [e, c] : l->trip->per_engine) c = widened(c);
      }
      widen(l->body);
    } else if (auto* c = std::get_if<model::Cond>(&stmt.node)) {
      widen(c->then_body);
      widen(c->else_body);
    }
  }
}

struct Tally {
  std::map<std::string, std::pair<int, int>> by_kind;  // kind -> (caught, equivalent within bound)
  int caught = 0, equivalent = 0;
  int waited_signals_missed = 0;  // dropped signals on a semaphore some wait reads, not caught
};

std::set<std::string> waited_semaphores(const std::vector<model::Stmt>& body) {
  std::set<std::string> out;
  model::for_each_stream(body, [&](const model::Stream& s) {
    for (const auto& item : s.items)
      if (const auto* in = std::get_if<model::Instr>(&item))
        for (const auto& w : in->waits) out.insert(w.sem);
  });
  return out;
}

void classify(const model::Program& spec, const model::Program& impl, Tally& t, const std::string& what) {
  fuzz::CaseOptions o;
  o.max_states = 200000;
  o.policy = fuzz::Counts::All;
  const auto waited = waited_semaphores(impl.body);
  for (const auto& m : generators::mutants(impl)) {
    INFO(what, ": ", m.mutation.to_string());
    auto r = fuzz::check_case(spec, m.impl, o);
    REQUIRE_MESSAGE(r.invalid.empty(), r.invalid);
    bool caught = r.failure.has_value();
    if (!caught) {
      REQUIRE(r.check.exhaustive);
      model::Program wspec = spec, wimpl = m.impl;
      widen(wspec.body);
      widen(wimpl.body);
      auto w = fuzz::check_case(wspec, wimpl, o);
      REQUIRE_MESSAGE(w.invalid.empty(), w.invalid);
      caught = w.failure.has_value();
    }
    auto& k = t.by_kind[generators::to_string(m.mutation.kind)];
    (caught ? k.first : k.second) += 1;
    (caught ? t.caught : t.equivalent) += 1;
    if (m.mutation.kind == generators::MutationKind::DropSignal && !caught &&
        waited.count(m.mutation.from.substr(0, m.mutation.from.find(' '))) > 0)
      ++t.waited_signals_missed;
  }
}

}  // namespace

TEST_CASE("mutants of the figures' allocations: caught or equivalent within the widened bound") {
  Tally t;
  for (const char* name :
       {"fig1_motivating", "fig5_offset_two", "fig6_nested_backward", "fig6_nested_forward", "fig7_fig8"}) {
    auto spec =
        formats::load_program_file((test::source_dir() / "corpus/figures" / (std::string(name) + ".json")).string());
    REQUIRE(spec.ok());
    for (auto strategy :
         {allocator::Strategy::PerLoop, allocator::Strategy::PerInstruction, allocator::Strategy::PerEngine}) {
      // Pruned registers: the paper's registers on every engine would give many dead-code mutants.
      auto impl = allocator::allocate(spec->program, spec->index, allocator::Options{strategy, true});
      REQUIRE(impl.ok());
      classify(spec->program, impl->impl, t, std::string(name) + " " + allocator::to_string(strategy));
    }
  }
  std::string table;
  for (const auto& [kind, n] : t.by_kind)
    table +=
        kind + ": " + std::to_string(n.first) + " caught, " + std::to_string(n.second) + " equivalent within bound\n";
  MESSAGE(t.caught, " caught, ", t.equivalent, " equivalent within the widened bound\n", table);
  CHECK(t.caught + t.equivalent > 100);
  // Every wait of the figures matters, and so does every signal some wait counts.
  CHECK(t.by_kind["drop-wait"].second == 0);
  CHECK(t.waited_signals_missed == 0);
  CHECK(t.caught > t.equivalent);
}

TEST_CASE("mutation values say what changed") {
  auto spec = formats::load_program_file((test::source_dir() / "corpus/figures/fig1_motivating.json").string());
  REQUIRE(spec.ok());
  const auto reply = fuzz::allocate_with(allocator::Strategy::PerLoop)(spec->program, spec->index);
  const auto* impl = fuzz::impl_of(reply);
  REQUIRE(impl);
  const auto ms = generators::mutants(*impl);
  REQUIRE(!ms.empty());
  bool saw_mask = false;
  for (const auto& m : ms) {
    CHECK(m.impl != *impl);
    if (m.mutation.kind == generators::MutationKind::ChangeMask) {
      saw_mask = true;
      CHECK(m.mutation.from.find("isgt(rh_A, 2)") != std::string::npos);
    }
  }
  CHECK(saw_mask);
  // Deterministic: the same program gives the same list.
  const auto again = generators::mutants(*impl);
  REQUIRE(again.size() == ms.size());
  for (std::size_t i = 0; i < ms.size(); ++i) CHECK(again[i].impl == ms[i].impl);
}
