// Each consumer is first asked on its thread's shared Z3 solver, in scopes, and kept only when
// every query is unsatisfiable; anything else is proved again on a fresh solver (docs/prover.md
// "Complexity"); consumers run on ProveOptions::jobs threads. None of it may change an answer, a
// reason, a model or a witness: the rendered outputs are compared with those of fresh solvers on
// one thread, on the corpus pairs and on a long block whose one wrong wait sits among hundreds of
// consumers proved on the shared solver before and after it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "prover/detail/smt.h"
#include "prover/prove_support.h"
#include "prover/report.h"

using namespace syncbisim;
using prover::Answer;

namespace {

nlohmann::json without_seconds(const nlohmann::json& j) {
  if (j.is_object()) {
    auto out = nlohmann::json::object();
    for (const auto& [k, v] : j.items())
      if (k != "seconds") out[k] = without_seconds(v);
    return out;
  }
  if (j.is_array()) {
    auto out = nlohmann::json::array();
    for (const auto& v : j) out.push_back(without_seconds(v));
    return out;
  }
  return j;
}

// Everything prove prints and writes but its timings.
struct Rendered {
  std::string text, json, traces;
  bool operator==(const Rendered&) const = default;
};

Rendered render(const prover::ProveResult& r) {
  return {prover::render_text(r), without_seconds(prover::render_json(r)).dump(1), prover::traces_json(r)};
}

prover::ProveOptions variant(bool shared, unsigned jobs) {
  prover::ProveOptions o;
  o.shared_solver = shared;
  o.jobs = jobs;
  return o;
}

// The pair proved on fresh solvers on one thread (the reference), on the shared solver on one
// thread, and on it on three threads: the same outputs. Returns the reference result.
prover::ProveResult same_outputs(const formats::LoadedProgram& spec, const model::Program& impl,
                                 const std::string& what) {
  INFO(what);
  auto reference = test::prove_pair(spec, impl, variant(false, 1));
  const auto want = render(reference);
  for (const unsigned jobs : {1u, 3u}) {
    INFO("shared solver, jobs ", jobs);
    const auto got = render(test::prove_pair(spec, impl, variant(true, jobs)));
    CHECK(got.text == want.text);
    CHECK(got.json == want.json);
    CHECK(got.traces == want.traces);
  }
  return reference;
}

}  // namespace

TEST_CASE("prover smt: what a scope adds is gone after it, though the next scope's names repeat") {
  prover::smt::Context ctx;
  prover::smt::Solver solver(ctx, 10000);
  {
    const prover::smt::Context::Scope terms(ctx);
    const prover::smt::Solver::Scope facts(solver);
    const auto x = ctx.var("x");
    solver.add(x >= 5);
    CHECK(solver.check({x < 3}).status == prover::smt::Status::Unsat);
  }
  // The fresh names start again where the scope began: this x is the same Z3 constant as the one
  // above, so a fact of the scope left behind would make this unsatisfiable.
  const prover::smt::Context::Scope terms(ctx);
  const auto x = ctx.var("x");
  const auto out = solver.check({x < 3});
  REQUIRE(out.status == prover::smt::Status::Sat);
  CHECK(out.model->value(x) < 3);
}

TEST_CASE("prover: the shared solver and --jobs change no output on the corpus pairs") {
  int pairs = 0, refuted = 0;
  for (const auto* dir : {"corpus/bugs", "corpus/good", "tests/inputs/prover/ended_loops",
                          "tests/inputs/prover/outside", "tests/inputs/prover/rings"})
    for (const auto& f : test::files_in(dir, ".sb")) {
      const auto text = test::read_text(f);
      if (text.find("# spec: ") == std::string::npos) continue;
      const auto rel = std::filesystem::relative(f, test::source_dir()).string();
      const auto spec = test::load_corpus(test::spec_of(f), model::ProgramKind::Spec);
      const auto impl = test::load_corpus(rel, model::ProgramKind::Impl);
      refuted += same_outputs(spec, impl.program, rel).verdict == Answer::Refuted;
      ++pairs;
    }
  CHECK(pairs >= 60);
  CHECK(refuted >= 25);  // refutations, with their models and witnesses, are compared too
}

TEST_CASE("prover: one wrong wait among 300 consumers of a long block: refuted the same way on every variant") {
  // I1_j waits for j + 1 signals of E0's block (exactly when I0_j, its producer, has retired); the
  // wait of I1_150 asks for one fewer or one more. The consumers before it are proved on the
  // shared solver, it fails there and is proved again on its own, and those after it share the
  // solver again: each must keep its own answer.
  constexpr int n = 300, bad = 150;
  std::string s = "syncbisim spec/1\nengines E0 E1\nE0:", deps;
  for (int j = 0; j < n; ++j) s += " I0_" + std::to_string(j);
  s += "\nE1:";
  for (int j = 0; j < n; ++j) s += " I1_" + std::to_string(j);
  for (int j = 0; j < n; ++j) deps += "dep I0_" + std::to_string(j) + " -> I1_" + std::to_string(j) + "\n";
  const auto spec = test::load_inline(s + "\n" + deps);
  for (const int off : {0, -1, 1}) {
    std::string t = "syncbisim impl/1\nengines E0 E1\nsemaphores s\nE0:";
    for (int j = 0; j < n; ++j) t += " I0_" + std::to_string(j) + " {s += 1}";
    t += "\nE1:";
    for (int j = 0; j < n; ++j)
      t += " {s >= " + std::to_string(j + 1 + (j == bad ? off : 0)) + "} I1_" + std::to_string(j);
    const auto impl = test::load_inline(t + "\n");
    const auto r = same_outputs(spec, impl.program, "off by " + std::to_string(off));
    REQUIRE(r.consumers.size() == n);
    for (int j = 0; j < n; ++j) {
      const auto& c = r.consumers[j];
      CAPTURE(test::describe(c));
      CHECK(c.instr == "I1_" + std::to_string(j));
      if (j != bad || off == 0) {
        CHECK(c.answer == Answer::Proved);
        continue;
      }
      const auto& wrong = off < 0 ? c.safe : c.exact;
      CHECK(wrong.answer == Answer::Refuted);
      REQUIRE(wrong.witness);
      CHECK(wrong.witness->kind == (off < 0 ? "under-sync" : "over-sync"));
      CHECK(test::witness_holds(r, c.instr, c.engine, *wrong.witness));
    }
  }
}
