// The corpus carries its own expectations (docs/corpus.md):
// * every impl in corpus/bugs and corpus/good starts with `# spec:`, `# expect:` and optional
//   `# violation: KIND ENGINE INSTR` lines; the exhaustive checker must give that verdict and
//   report every listed violation;
// * corpus/expected.jsonc says, per spec, whether all its dependencies are allocatable (checked
//   with the analysis) and whether the spec itself deadlocks (checked through the impls of it).
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/correspondence.h"
#include "analysis/dependency_analysis.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "semantics/compiled_program.h"
#include "semantics/impl_system.h"
#include "semantics/lockstep.h"
#include "semantics/spec_system.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

struct ExpectedViolation {
  std::string kind, engine, instr;  // instr may be empty (a deadlock at a barrier)
  std::string line;
};

struct Header {
  std::string spec, expect;
  std::vector<ExpectedViolation> violations;
};

// Reads the leading `# key: value` comment lines; stops at the first line that is not a comment.
Header read_header(const std::string& text) {
  Header h;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && !line.empty() && line[0] == '#') {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(1, colon - 1), value = line.substr(colon + 1);
    auto trim = [](std::string s) {
      const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
      return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    key = trim(key);
    value = trim(value);
    if (key == "spec") h.spec = value;
    if (key == "expect") h.expect = value;
    if (key == "violation") {
      std::istringstream words(value);
      ExpectedViolation v;
      words >> v.kind >> v.engine >> v.instr;
      v.line = value;
      h.violations.push_back(v);
    }
  }
  return h;
}

formats::LoadedProgram load_or_fail(const std::filesystem::path& p, model::ProgramKind kind) {
  auto r = formats::load_program_file(p.string(), kind);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  return std::move(*r);
}

// The engines stuck in a deadlock and the instruction each stands before (spec side), found by
// replaying the violation's trace; the checker itself names only the first stuck engine.
std::vector<std::pair<std::string, std::string>> stuck_at(const semantics::Lockstep& both,
                                                          const checker::Violation& v) {
  const auto& spec = both.spec().program();
  std::vector<std::pair<std::string, std::string>> out;
  auto name_of = [&](semantics::EngineId e, std::optional<semantics::InstrId> i) {
    out.emplace_back(spec.engines[e], i ? spec.instrs[*i].name : std::string());
  };
  name_of(v.engine, v.instr);
  auto s = both.initial();
  for (const auto& st : v.trace) both.apply(s, st);
  std::vector<semantics::Step> steps;
  both.visible(s, steps);
  if (!steps.empty()) return out;  // the replay did not end in the deadlock: keep what the checker said
  for (semantics::EngineId e = 0; e < spec.engine_count(); ++e) {
    const auto& op = both.spec().control().next_op(s.spec.control, e);
    if (op.kind == semantics::OpKind::Instr) name_of(e, op.a);
  }
  return out;
}

bool matches(const semantics::Lockstep& both, const checker::Violation& v, const ExpectedViolation& want) {
  if (want.kind != checker::to_string(v.kind)) return false;
  const auto& spec = both.spec().program();
  if (v.kind == checker::ViolationKind::Deadlock) {
    for (const auto& [engine, instr] : stuck_at(both, v))
      if (engine == want.engine && instr == want.instr) return true;
    return false;
  }
  return spec.engines[v.engine] == want.engine && v.instr && spec.instrs[*v.instr].name == want.instr;
}

std::string describe(const semantics::Lockstep& both, const checker::Violation& v) {
  const auto& spec = both.spec().program();
  std::string s = std::string(checker::to_string(v.kind)) + " " + spec.engines[v.engine];
  if (v.instr) s += " " + spec.instrs[*v.instr].name;
  return s;
}

struct Outcome {
  std::string spec, verdict;
  bool modes_compared = false;  // the unreduced search completed too
};

// Checks one impl file against its header; returns its spec path and the verdict found.
Outcome check_impl_file(const std::filesystem::path& path) {
  const auto rel = std::filesystem::relative(path, test::source_dir()).string();
  INFO("file: ", rel);
  const auto h = read_header(test::read_text(path));
  REQUIRE_MESSAGE(!h.spec.empty(), rel, ": no `# spec:` header line");
  REQUIRE_MESSAGE(!h.expect.empty(), rel, ": no `# expect:` header line");
  auto spec = load_or_fail(test::source_dir() / h.spec, model::ProgramKind::Spec);
  auto impl = load_or_fail(path, model::ProgramKind::Impl);
  auto pair = checker::ProgramPair::make(spec.program, impl.program);
  REQUIRE_MESSAGE(pair.ok(), rel, ": ", (pair.ok() ? "" : pair.error().to_string()));
  const auto& both = (*pair)->lockstep();
  const auto r = checker::check(both, checker::CheckOptions{});

  std::string found;
  for (const auto& v : r.violations) found += "\n  " + describe(both, v);
  INFO("violations found:", found);
  CHECK_MESSAGE(r.exhaustive, rel, ": the search was not exhaustive (", r.limit, ")");
  CHECK_MESSAGE(checker::to_string(r.verdict) == h.expect, rel, ": expected ", h.expect, ", got ",
                checker::to_string(r.verdict));
  for (const auto& want : h.violations) {
    bool seen = false;
    for (const auto& v : r.violations) seen = seen || matches(both, v, want);
    CHECK_MESSAGE(seen, rel, ": expected violation `", want.line, "` not reported");
  }
  // Both modes of the checker agree (docs/checker.md "Reductions"): same verdict, same set of
  // (kind, engine, instruction) violations, whenever the unreduced search also completes.
  auto full_pair = checker::ProgramPair::make(spec.program, impl.program, semantics::Options{false});
  REQUIRE(full_pair.ok());
  checker::CheckOptions no_reduction;
  no_reduction.reduction = false;
  no_reduction.max_states = 1000000;
  const auto full = checker::check((*full_pair)->lockstep(), no_reduction);
  if (full.exhaustive) {
    CHECK_MESSAGE(full.verdict == r.verdict, rel, ": --no-reduction says ", checker::to_string(full.verdict));
    auto keys = [](const checker::CheckResult& res) {
      std::set<std::tuple<int, int, int>> out;
      for (const auto& v : res.violations) out.insert({int(v.kind), v.engine, v.instr ? int(*v.instr) : -1});
      return out;
    };
    CHECK_MESSAGE(keys(full) == keys(r), rel, ": the two modes report different violations");
  }
  return {h.spec, checker::to_string(r.verdict), full.exhaustive};
}

}  // namespace

TEST_CASE("corpus: known-bug and correct impls get the verdicts their headers give") {
  std::vector<std::filesystem::path> files;
  for (const auto* dir : {"corpus/bugs", "corpus/good"})
    for (const auto& p : test::files_in(dir, ".sb")) files.push_back(p);
  CHECK(test::files_in("corpus/bugs", ".sb").size() >= 10);
  CHECK(test::files_in("corpus/good", ".sb").size() >= 8);
  std::size_t compared = 0;
  std::string too_large;
  for (const auto& p : files) {
    if (check_impl_file(p).modes_compared) ++compared;
    else too_large += " " + p.filename().string();
  }
  MESSAGE(compared, " of ", files.size(), " pairs also explored without reductions; too large:", too_large);
  // The kernel-sized pairs exceed the unreduced search's million states; the rest must compare.
  CHECK(compared + 4 >= files.size());
}

TEST_CASE("corpus: expected.jsonc matches the analysis and the checker") {
  const auto root = test::source_dir();
  const auto expected = nlohmann::json::parse(test::read_text(root / "corpus/expected.jsonc"));
  REQUIRE(expected.is_object());

  // every spec program in the corpus has an entry (impls in corpus/figures are skipped)
  for (const auto* dir : {"corpus/figures", "corpus/kernels", "corpus/nonallocatable", "corpus/schemes"})
    for (const auto& p : test::files_in(dir, ".json")) {
      if (p.filename().string().find(".impl.") != std::string::npos) continue;
      const auto rel = std::filesystem::relative(p, root).string();
      CHECK_MESSAGE(expected.contains(rel), rel, ": no entry in corpus/expected.jsonc");
    }

  // allocatable: every dependency in an allocatable class (paper §5.2); a spec not expected to
  // deadlock has no certain deadlock either
  for (const auto& [rel, e] : expected.items()) {
    INFO("file: ", rel);
    const auto spec = load_or_fail(root / rel, model::ProgramKind::Spec);
    const auto a = analysis::analyze_dependencies(spec.program, spec.index);
    bool all = true;
    std::string reasons;
    for (const auto& d : a.deps)
      if (!d.allocatable()) {
        all = false;
        reasons += " [" + d.reason + "]";
      }
    CHECK_MESSAGE(all == e.at("allocatable").get<bool>(), rel, ": allocatable is ", all, reasons);
    if (!e.at("spec_deadlock").get<bool>()) CHECK_MESSAGE(a.deadlocks.empty(), rel, ": a certain deadlock");
  }

  // spec_deadlock: the impls of a deadlocking spec say so, and no other spec's impl ends in a
  // spec deadlock (checked again here, from the verdicts)
  std::map<std::string, std::set<std::string>> verdicts;  // spec -> verdicts of its impls
  for (const auto* dir : {"corpus/bugs", "corpus/good"})
    for (const auto& p : test::files_in(dir, ".sb")) {
      const auto o = check_impl_file(p);
      verdicts[o.spec].insert(o.verdict);
    }
  for (const auto& [rel, e] : expected.items()) {
    INFO("file: ", rel);
    const bool dead = e.at("spec_deadlock").get<bool>();
    if (dead) CHECK_MESSAGE(verdicts[rel].count("spec-deadlock") == 1, rel, ": no impl shows the spec deadlock");
    if (!dead) CHECK_MESSAGE(verdicts[rel].count("spec-deadlock") == 0, rel, ": an impl shows a spec deadlock");
  }
}
