// JSON -> text -> JSON is the identity on every example program in the tree, and the paper's
// figures load with the shapes the paper gives them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "formats/detail/json_tree.h"
#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "support/test_files.h"

using namespace syncbisim;
using namespace syncbisim::model;

namespace {

std::vector<std::filesystem::path> good_json_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& dir : {"corpus", "tests/inputs"})
    for (const auto& p : test::files_in(dir, ".json"))
      // Programs only: bad inputs fail on purpose, and traces are not programs.
      if (p.string().find("/tests/inputs/bad/") == std::string::npos &&
          p.string().find("/tests/inputs/traces/") == std::string::npos)
        out.push_back(p);
  CHECK(out.size() >= 9);
  return out;
}

}  // namespace

TEST_CASE("corpus: JSON -> text -> JSON is the identity") {
  for (const auto& path : good_json_files()) {
    INFO(path.string());
    const auto content = test::read_text(path);
    auto loaded = formats::load_program_text(content, path.string());
    INFO((loaded ? std::string("ok") : loaded.error().to_string()));
    REQUIRE(loaded.ok());
    const auto& p = loaded->program;
    const auto text = formats::write_text(p);
    auto back = formats::read_text(text);
    INFO(text);
    REQUIRE(back.ok());
    CHECK(*back == p);
    const auto json = formats::write_json(*back);
    CHECK(json == formats::write_json(p));
    auto again = formats::read_json(json);
    REQUIRE(again.ok());
    CHECK(*again == p);
  }
}

TEST_CASE("corpus: the paper's figures have the paper's shapes") {
  const auto dir = test::source_dir() / "corpus/figures";
  auto load = [&](const char* name) {
    auto r = formats::load_program_file((dir / name).string());
    INFO(name, " ", (r ? std::string("ok") : r.error().to_string()));
    REQUIRE(r.ok());
    return std::move(*r);
  };
  {
    const auto f = load("fig1_motivating.json");
    CHECK(f.program.kind == ProgramKind::Spec);
    CHECK(f.index.engines.size() == 3);
    CHECK(f.index.instrs.size() == 6);
    CHECK(f.program.deps.at(0).distance.at("A") == 2);
  }
  {
    const auto f = load("fig5_offset_two.json");
    const auto b = f.index.loop("B");
    REQUIRE(b.has_value());
    CHECK(f.index.loops[*b].trip == TripRule{SeqTrip{{3, 4}}, {}, false});
    CHECK(f.index.loops[*b].parent == *f.index.loop("A"));
  }
  {
    const auto f = load("fig7_per_instruction.impl.json");
    CHECK(f.program.kind == ProgramKind::Impl);
    CHECK(f.index.semaphores == std::vector<std::string>{"sI0", "sI1"});
    CHECK(formats::write_text(f.program).find("[w := isgt(rhA, 0) * rA] {sI1 >= w} I2\n") != std::string::npos);
  }
  {
    const auto f = load("fig8_per_loop.impl.json");
    CHECK(f.index.semaphores == std::vector<std::string>{"s0", "s1"});
    CHECK(formats::write_text(f.program).find("[w := isgt(rhA, 0) * (2 * rA)] {s0 >= w} I2 {s1 += 1}\n") !=
          std::string::npos);
    CHECK(f.index.registers == std::vector<std::string>{"rhA", "rA", "w"});
  }
  for (const char* name : {"fig3_straight_line.json", "fig4_same_iteration.json", "fig6_nested_forward.json",
                           "fig6_nested_backward.json", "fig7_fig8.json"}) {
    const auto f = load(name);
    CHECK(f.program.deps.size() == 1);
    for (const auto& l : f.index.loops)
      if (l.trip) CHECK(choice_max(l.trip->uniform) <= 3);  // small enough to explore exhaustively
  }
}

TEST_CASE("corpus: write_json lays out the document as nlohmann dumps its tree, indented and compact") {
  // write_json dumps compact and indents that text itself (formats/json_writer.cpp): the bytes
  // must be nlohmann's own dump of the same tree, at indent 2 and at -1.
  for (const auto& path : good_json_files()) {
    INFO(path.string());
    auto loaded = formats::load_program_text(test::read_text(path), path.string());
    REQUIRE(loaded.ok());
    const auto indented = formats::write_json(loaded->program);
    const auto compact = formats::write_json(loaded->program, 0);
    const auto tree = nlohmann::ordered_json::parse(indented);
    CHECK(indented == tree.dump(2) + "\n");
    CHECK(compact == tree.dump(-1) + "\n");
    CHECK(nlohmann::ordered_json::parse(compact) == tree);
    // and its program array, written directly, is the dump of the tree it stands for
    CHECK(tree["program"].dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) ==
          formats::detail::program_by_tree(loaded->program));
  }
}
