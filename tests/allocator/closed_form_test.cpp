// The wait values of every dependency, the paper's and the extended closed forms of
// allocator/target_count.h, against the spec's condition computed from its definition
// (docs/semantics.md "The spec's condition"): walk one engine of the allocated impl through
// random trips, keep a literal record of every P-iteration that engine starts with the
// common-loop iteration vector it belongs to, and at every issue of a consumer compare the
// threshold the impl's registers give with
//     0                                   if some component of t = v - δ is <= 0
//     #{ recorded vectors i : i ⪯ t }    otherwise (Σ_{i ⪯ t} H_e(i, P)).
// Exact forms must give exactly that; Bound at least that (a stricter wait, safe). Nothing here
// uses the closed forms: the impl's own register operations are executed.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "allocator/allocate.h"
#include "allocator/registers.h"
#include "allocator/spec_facts.h"
#include "allocator/target_count.h"
#include "formats/text_format.h"
#include "generators/spec_gen.h"
#include "model/index.h"
#include "support/dep_shapes.h"
#include "support/rapidcheck_doctest.h"

using namespace syncbisim;
using allocator::TargetCount;

namespace {

struct Mismatch {
  std::string what;
};

// One engine's walk of the impl under random trips, with the spec's literal history beside it.
class EngineWalk {
 public:
  EngineWalk(const model::Program& spec, const model::ProgramIndex& ix, const allocator::Allocation& a,
             model::EngineId e, std::uint64_t seed)
      : spec_(spec), ix_(ix), a_(a), e_(e), rng_(seed), iter_(ix.loops.size(), 0), history_(spec.deps.size()) {
    iter_[model::kTop] = 1;
    // Which deps each consumer's waits belong to, in the order the allocator added them.
    for (std::size_t d = 0; d < spec.deps.size(); ++d) {
      const auto info = analysis_of(d);
      if (info.P == model::kTop && info.consumer_engine == e_) history_[d].push_back(vec_of(d));  // @top ran once
    }
  }

  // Returns how many non-underflowing issues were compared; throws Mismatch.
  std::size_t run() {
    walk(a_.impl.body);
    return compared_;
  }

  std::size_t issues = 0;

 private:
  analysis::DependencyInfo analysis_of(std::size_t d) {
    if (infos_.empty()) infos_ = analysis::analyze_dependencies(spec_, ix_).deps;
    return infos_[d];
  }
  std::vector<std::int64_t> vec_of(std::size_t d) {
    std::vector<std::int64_t> v;
    for (auto l : analysis_of(d).common) v.push_back(iter_[l]);
    return v;
  }

  std::uint32_t choose(model::LoopId l) {
    const auto& rule = *ix_.loops[l].trip;
    const auto& choice = rule.for_engine(ix_.engines[e_]);
    const auto k = trips_[ix_.loops[l].cond.empty() ? ix_.loops[l].name : ix_.loops[l].cond]++;
    const auto n = model::choice_count(choice, k);
    return model::choice_at(choice, k, std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_));
  }

  void enter(model::LoopId l, std::uint32_t it) {
    iter_[l] = it;
    for (std::size_t d = 0; d < spec_.deps.size(); ++d) {
      const auto info = analysis_of(d);
      if (info.P == l && info.consumer_engine == e_) history_[d].push_back(vec_of(d));
    }
  }

  void run_loop(model::LoopId l, const std::vector<model::Stmt>& body, std::uint32_t trip) {
    for (std::uint32_t it = 1; it <= trip; ++it) {
      enter(l, it);
      walk(body);
    }
    iter_[l] = 0;
  }

  void walk(const std::vector<model::Stmt>& body) {
    for (const auto& st : body) {
      if (const auto* b = std::get_if<model::Block>(&st.node)) {
        if (const auto* s = b->find(ix_.engines[e_]))
          for (const auto& item : s->items) step(item);
      } else if (const auto* lp = std::get_if<model::Loop>(&st.node)) {
        const auto l = *ix_.loop(lp->id);
        run_loop(l, lp->body, choose(l));
      } else {
        const auto& c = std::get<model::Cond>(st.node);
        const auto t = *ix_.loop(model::then_loop(c.id)), f = *ix_.loop(model::else_loop(c.id));
        if (choose(t) == 0) run_loop(t, c.then_body, 1);
        else run_loop(f, c.else_body, 1);
      }
    }
  }

  void step(const model::Item& item) {
    if (const auto* r = std::get_if<model::RegOp>(&item)) {
      const auto v = r->expr.eval([&](const std::string& n) { return regs_[n]; });
      REQUIRE(v.has_value());  // the corpus's counters stay far below 2^64
      regs_[r->dst] = *v;
      return;
    }
    const auto* in = std::get_if<model::Instr>(&item);
    if (!in) return;
    ++issues;
    std::size_t w = 0;
    for (std::size_t d = 0; d < spec_.deps.size(); ++d) {
      if (spec_.deps[d].consumer != in->id) continue;
      const auto& dec = a_.decisions[d];
      if (dec.semaphore.empty()) {  // no wait: the target must always underflow
        REQUIRE(dec.scheme == allocator::Scheme::NoWait);
        check(d, 0, true, *in);
        continue;
      }
      REQUIRE(w < in->waits.size());
      const auto& ge = in->waits[w++].ge;
      const std::uint64_t threshold =
          std::holds_alternative<std::uint64_t>(ge) ? std::get<std::uint64_t>(ge) : regs_[std::get<std::string>(ge)];
      check(d, threshold, dec.exact, *in);
    }
  }

  void check(std::size_t d, std::uint64_t threshold, bool exact, const model::Instr& in) {
    const auto info = analysis_of(d);
    auto t = vec_of(d);
    bool underflow = false;
    for (std::size_t j = 0; j < t.size(); ++j) {
      t[j] -= info.distance[j];
      underflow = underflow || t[j] <= 0;
    }
    std::uint64_t owed = 0;
    if (!underflow) {
      ++compared_;
      for (const auto& rec : history_[d]) owed += rec <= t;  // lexicographic: ⪯
    }
    const bool ok = exact || underflow ? threshold == owed : threshold >= owed;
    if (!ok) {
      std::string v;
      for (auto x : vec_of(d)) v += std::to_string(x) + " ";
      throw Mismatch{"dependency #" + std::to_string(d) + " (" + a_.decisions[d].to_string() + ") at " + in.id +
                     " v = ( " + v + "): threshold " + std::to_string(threshold) + ", spec owes " +
                     std::to_string(owed) + (underflow ? " (underflow)" : "")};
    }
  }

  const model::Program& spec_;
  const model::ProgramIndex& ix_;
  const allocator::Allocation& a_;
  model::EngineId e_;
  std::mt19937_64 rng_;
  std::vector<std::int64_t> iter_;  // by LoopId: the current iteration, 0 outside
  std::map<std::string, std::uint64_t> regs_, trips_;
  std::vector<std::vector<std::vector<std::int64_t>>> history_;  // per dep: P-entries' vectors
  std::vector<analysis::DependencyInfo> infos_;
  std::size_t compared_ = 0;
};

// Forms seen over the whole property run (the coverage check below).
std::map<TargetCount::Form, int>& forms_seen() {
  static std::map<TargetCount::Form, int> m;
  return m;
}

void property(allocator::Strategy strategy, bool prune, bool shapes) {
  test::rc_check(
      std::string("every wait value equals the spec's sum (") + allocator::to_string(strategy) +
          (prune ? ", pruned, " : ", ") + (shapes ? "one dependency of a random shape)" : "random programs)"),
      [=] {
        model::Program spec;
        if (shapes) {
          auto loaded = formats::read_text(test::gen_shape_text());
          RC_ASSERT(loaded.ok());
          spec = std::move(*loaded);
          model::normalize(spec);
        } else {
          generators::SpecGenOptions o{.min_engines = 2,
                                       .max_engines = 3,
                                       .max_depth = 4,
                                       .max_trip = 4,
                                       .max_body_stmts = 3,
                                       .max_deps = 6,
                                       .extras = false};
          spec = *generators::gen_spec(o);
        }
        const auto ix = model::ProgramIndex::build(spec);
        RC_ASSERT(ix.ok());
        allocator::Options options{strategy, prune};
        // With and without paper §6.2's reductions: hoisted and shared registers must give the
        // same thresholds.
        options.licm = options.cse = *rc::gen::arbitrary<bool>();
        const auto a = allocator::allocate(spec, *ix, options);
        RC_ASSERT(a.ok());
        {
          const allocator::SpecFacts facts(spec, *ix);
          allocator::NameTable names;
          allocator::Registers regs(*ix, names);
          for (const auto& info : facts.analysis.deps)
            if (!info.allocatable()) {
              const auto f = allocator::target_count(facts, regs, info).form;
              if (shapes) ++forms_seen()[f];
              RC_TAG(allocator::to_string(f));
            }
        }
        const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
        std::size_t compared = 0;
        for (model::EngineId e = 0; e < ix->engines.size(); ++e)
          for (int run = 0; run < 3; ++run) {
            EngineWalk w(spec, *ix, *a, e, seed * 7 + run * 3 + e);
            try {
              compared += w.run();
            } catch (const Mismatch& m) {
              RC_FAIL(m.what + "\n" + formats::write_text(spec) + "\n" + formats::write_text(a->impl));
            }
          }
        RC_CLASSIFY(compared > 0, "compared a non-underflowing issue");
      },
      shapes ? 1000 : 300);
}

}  // namespace

TEST_CASE("closed forms: per-instruction wait values against the spec's sum on random trips") {
  forms_seen().clear();
  property(allocator::Strategy::PerInstruction, false, true);
  property(allocator::Strategy::PerInstruction, true, true);
  property(allocator::Strategy::PerInstruction, false, false);
  // Every extended form was drawn (the generator reaches each shape).
  for (auto f : {TargetCount::Form::Live, TargetCount::Form::Flat, TargetCount::Form::Ring, TargetCount::Form::Window,
                 TargetCount::Form::Bound, TargetCount::Form::NeverBinds}) {
    INFO(std::string(allocator::to_string(f)));
    CHECK(forms_seen()[f] >= 30);
  }
}
