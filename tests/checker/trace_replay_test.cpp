// Every trace the checker writes replays on its pair and ends in the violation it records, in
// both of its JSON forms (check --json's visible steps, --trace-out's every event); a trace on a
// pair it does not fit is told as such (docs/checker.md "Replay").
#include <doctest/doctest.h>

#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "checker/report.h"
#include "checker/trace_replay.h"
#include "formats/load.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

struct Bug {
  model::Program spec, impl;
};

Bug bug(const std::filesystem::path& file) {
  const auto text = test::read_text(file);
  const auto spec_path = text.substr(text.find("# spec: ") + 8, text.find('\n') - 8);
  auto spec = formats::load_program_file((test::source_dir() / spec_path).string());
  auto impl = formats::load_program_file(file.string());
  REQUIRE(spec.ok());
  REQUIRE(impl.ok());
  return {spec->program, impl->program};
}

}  // namespace

TEST_CASE("every corpus bug's traces replay and reproduce their violation") {
  std::size_t traces = 0;
  for (const auto& file : test::files_in("corpus/bugs", ".sb")) {
    INFO(file.filename().string());
    const auto b = bug(file);
    auto pair = checker::ProgramPair::make(b.spec, b.impl);
    REQUIRE(pair.ok());
    const auto r = checker::check(**pair, checker::CheckOptions{});
    const auto as_json = checker::render_json((*pair)->lockstep(), b.spec, r);
    const auto as_events = checker::traces_json((*pair)->lockstep(), r);
    for (std::size_t i = 1; i <= r.violations.size(); ++i) {
      for (const auto* doc : {&as_json, &as_events}) {
        const auto t = checker::read_trace(*doc, i);
        REQUIRE(t.ok());
        const auto replayed = checker::replay_trace(**pair, *t);
        CHECK(replayed.misfit.empty());
        REQUIRE(replayed.expected);
        CHECK(replayed.expected_shown);
        CHECK(replayed.visible == r.violations[i - 1].trace);
        ++traces;
      }
    }
  }
  CHECK(traces > 20);
}

TEST_CASE("a trace that does not fit says at which step, and what the pair could do there") {
  const auto b = bug(test::source_dir() / "corpus/bugs/fig8_nk_off_by_one.sb");
  auto pair = checker::ProgramPair::make(b.spec, b.impl);
  REQUIRE(pair.ok());
  checker::TraceSteps t;
  t.steps = nlohmann::json::parse(R"([{"step": "issue", "engine": "E0", "instr": "I0"},
                                      {"step": "issue", "engine": "E1", "instr": "I2"}])");
  const auto r = checker::replay_trace(**pair, t);
  CHECK(r.misfit.find("step 2") == 0);
  CHECK(r.misfit.find("it can:") != std::string::npos);
  CHECK(r.steps.size() == 1);
}

TEST_CASE("a document of another kind, or of a version replay does not know, is refused, naming it") {
  const auto doc = [](const char* version) {
    auto j =
        nlohmann::json::parse(R"({"violations": [{"trace": [{"step": "issue", "engine": "E0", "instr": "I0"}]}]})");
    if (version) j["syncbisim"] = version;
    return j;
  };
  for (const char* ok : {"check/1", "traces/1"}) CHECK(checker::read_trace(doc(ok), 1).ok());
  CHECK(checker::read_trace(doc(nullptr), 1).ok());  // written before documents carried versions
  for (const char* bad : {"check/2", "traces/0", "prove/10"}) {
    INFO(bad);
    const auto t = checker::read_trace(doc(bad), 1);
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().rule == "bad-version");
    CHECK(t.error().message.find(bad) != std::string::npos);
  }
  for (const char* other : {"spec/1", "fuzz/1", "check-all-trips/1"}) {
    INFO(other);
    const auto t = checker::read_trace(doc(other), 1);
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().rule == "no-trace");
    CHECK(t.error().message.find(std::string("a ") + other + " document") != std::string::npos);
  }
}
