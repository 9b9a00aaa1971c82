// The loader on broken input (docs/formats.md "Bad input"): valid files (generated programs in both
// formats, and corpus/) mutated at the byte, line or JSON-tree level must load either into a
// program that validates, or into a Diagnostic with a rule, a place and a message. Never an
// exception: one that escapes fails the property with the input printed.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/mutations.h"  // tests/formats
#include "formats/text_format.h"
#include "generators/impl_gen.h"
#include "generators/sized.h"
#include "generators/spec_gen.h"
#include "support/rapidcheck_doctest.h"
#include "support/test_files.h"

namespace sb = syncbisim;
using sb::test::ByteMutation;
using sb::test::LineMutation;
using sb::test::TreeMutation;

namespace {

constexpr const char* kName = "fuzz.in";

// What loading produced, captured inside the try so that RapidCheck's own assertions (which
// throw) stay outside it.
struct Outcome {
  std::optional<sb::model::Result<sb::formats::LoadedProgram>> result;
  std::string exception;
};

Outcome load(const std::string& input) {
  Outcome o;
  try {
    o.result.emplace(sb::formats::load_program_text(input, kName));
  } catch (const std::exception& e) {
    o.exception = std::string("exception: ") + e.what();
  } catch (...) {
    o.exception = "unknown exception";
  }
  return o;
}

// How the cases of one property ended: a fuzzer whose mutations were all harmless (or all
// rejected by the first check) would test little.
struct Tally {
  int loaded = 0;
  std::map<std::string, int> rules;  // diagnostics by rule
  std::string summary() const {
    std::string s = "loaded " + std::to_string(loaded) + "; rejected:";
    for (const auto& [rule, n] : rules) s += " " + rule + "=" + std::to_string(n);
    return s;
  }
};

void expect_clean(const std::string& input, Tally& tally) {
  RC_LOG() << "input:\n" << sb::test::printable(input) << "\n";
  const Outcome o = load(input);
  if (!o.result) RC_FAIL(o.exception + " escaped the loader");
  const auto& r = *o.result;
  if (r.ok()) {
    // Loaded: it must validate, and (the printer's promise) write back to itself.
    RC_ASSERT(sb::model::ProgramIndex::build(r->program).ok());
    const auto again = sb::formats::read_json(sb::formats::write_json(r->program));
    RC_ASSERT(again.ok());
    RC_ASSERT(*again == r->program);
    ++tally.loaded;
    return;
  }
  const auto& d = r.error();
  RC_LOG() << "diagnostic: " << d.to_string() << "\n";
  RC_ASSERT(d.file == std::string(kName));
  RC_ASSERT(!d.rule.empty());
  RC_ASSERT(!d.place.empty());
  RC_ASSERT(!d.message.empty());
  ++tally.rules[d.rule];
}

// A valid file: a generated spec or impl, written as JSON or text.
rc::Gen<std::string> gen_valid_file(bool json_only) {
  const auto program = rc::gen::oneOf(sb::generators::gen_spec(), sb::generators::gen_impl_shape());
  const auto as_json = json_only ? rc::gen::just(true) : rc::gen::arbitrary<bool>();
  return rc::gen::apply([](const sb::model::Program& p,
                           bool json) { return json ? sb::formats::write_json(p) : sb::formats::write_text(p); },
                        program, as_json);
}

rc::Gen<ByteMutation> gen_byte_mutation() {
  return rc::gen::apply(
      [](std::uint8_t op, std::uint32_t pos, std::uint32_t len, std::uint8_t byte) {
        return ByteMutation{static_cast<sb::test::ByteOp>(op % 5), pos, len, byte};
      },
      rc::gen::inRange<std::uint8_t>(0, 5), rc::gen::arbitrary<std::uint32_t>(), rc::gen::inRange<std::uint32_t>(0, 64),
      rc::gen::arbitrary<std::uint8_t>());
}

rc::Gen<LineMutation> gen_line_mutation() {
  return rc::gen::apply(
      [](std::uint8_t op, std::uint32_t line) {
        return LineMutation{static_cast<sb::test::LineOp>(op % 4), line};
      },
      rc::gen::inRange<std::uint8_t>(0, 4), rc::gen::arbitrary<std::uint32_t>());
}

rc::Gen<TreeMutation> gen_tree_mutation() {
  return rc::gen::apply(
      [](std::uint8_t op, std::uint32_t node, std::uint32_t choice) {
        return TreeMutation{static_cast<sb::test::TreeOp>(op % 5), node, choice};
      },
      rc::gen::inRange<std::uint8_t>(0, 5), rc::gen::arbitrary<std::uint32_t>(),
      rc::gen::inRange<std::uint32_t>(0, 64));
}

std::string mutate_bytes(std::string s, const std::vector<ByteMutation>& ms) {
  for (const auto& m : ms) s = sb::test::apply(std::move(s), m);
  return s;
}

std::vector<std::string> corpus_files() {
  std::vector<std::string> out;
  for (const auto& path : sb::test::files_in("corpus", "")) out.push_back(sb::test::read_text(path));
  return out;
}

bool parses_as_json(const std::string& s) { return nlohmann::json::accept(s); }

// `runs` generated inputs of `mutant` (a file, mutated) through the loader, each loading cleanly:
// the tally of the diagnostics' rules, also printed.
template <class Mutant>
Tally tally_clean(const std::string& name, Mutant mutant, int runs) {
  Tally tally;
  sb::test::rc_check(
      name, [&] { expect_clean(mutant(), tally); }, runs);
  MESSAGE(tally.summary());
  return tally;
}

}  // namespace

TEST_CASE("fuzz: byte mutations of generated files load cleanly") {
  const auto tally = tally_clean(
      "fuzz bytes",
      [] {
        const auto file = *gen_valid_file(false);
        return mutate_bytes(file, *sb::generators::bounded_vector(1, 3, gen_byte_mutation()));
      },
      400);
  CHECK(tally.rules.size() >= 3);
}

TEST_CASE("fuzz: line mutations of generated text files load cleanly") {
  const auto tally = tally_clean(
      "fuzz lines",
      [] {
        const auto p = *rc::gen::oneOf(sb::generators::gen_spec(), sb::generators::gen_impl_shape());
        auto text = sb::formats::write_text(p);
        for (const auto& m : *sb::generators::bounded_vector(1, 3, gen_line_mutation()))
          text = sb::test::apply(text, m);
        return text;
      },
      300);
  CHECK(tally.rules.size() >= 2);
}

TEST_CASE("fuzz: JSON tree mutations of generated files load cleanly") {
  const auto tally = tally_clean(
      "fuzz tree",
      [] {
        const auto file = *gen_valid_file(true);
        const auto tree = *sb::generators::bounded_vector(1, 3, gen_tree_mutation());
        // Mostly the tree alone: most byte mutations of compact JSON only exercise the JSON syntax check.
        const auto bytes = *rc::gen::weightedOneOf<std::vector<ByteMutation>>(
            {{3, rc::gen::just(std::vector<ByteMutation>{})},
             {1, sb::generators::bounded_vector(1, 2, gen_byte_mutation())}});
        return mutate_bytes(sb::test::apply(file, tree), bytes);
      },
      400);
  CHECK(tally.rules.count("too-deep") == 1);
  CHECK(tally.rules.size() >= 5);
}

TEST_CASE("fuzz: mutations of corpus files load cleanly") {
  const auto corpus = corpus_files();
  if (corpus.empty()) return;
  const auto tally = tally_clean(
      "fuzz corpus",
      [&corpus] {
        const auto& file = corpus[*rc::gen::inRange<std::size_t>(0, corpus.size())];
        if (parses_as_json(file) && *rc::gen::arbitrary<bool>())
          return sb::test::apply(file, *sb::generators::bounded_vector(1, 3, gen_tree_mutation()));
        return mutate_bytes(file, *sb::generators::bounded_vector(1, 3, gen_byte_mutation()));
      },
      300);
  CHECK(tally.rules.size() >= 2);
}
