// syncbisim show FILE [--json|--text|--dot]: load a program (JSON or text) and print it in one
// of the formats. Bad input: one line "FILE: PLACE: message [rule]" on stderr, exit 2, no stdout
// (docs/formats.md "Bad input").
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/inputs.h"
#include "formats/dot_format.h"
#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"

namespace syncbisim::cli {

namespace {

struct ShowOptions {
  std::string file;
  bool json = false, text = false, dot = false;
};

}  // namespace

void add_show(CLI::App& app, Context& ctx, const std::string& name) {
  // The options must outlive add_show: CLI11 writes into them during parse and the callback
  // reads them afterwards; the shared_ptr is owned by the callback.
  auto opts = std::make_shared<ShowOptions>();
  auto* cmd = app.add_subcommand(name, "Print a program as text (default), canonical JSON or Graphviz dot");
  cmd->add_option("FILE", opts->file, "A spec or impl program (JSON or the text format)")->required();
  auto* json = cmd->add_flag("--json", opts->json, "Print canonical JSON (docs/formats.md)");
  auto* text = cmd->add_flag("--text", opts->text, "Print the text format (the default)");
  auto* dot = cmd->add_flag("--dot", opts->dot, "Print a Graphviz digraph");
  json->excludes(text)->excludes(dot);
  text->excludes(dot);
  cmd->callback([opts, &ctx] {
    auto loaded = formats::load_program_file(opts->file);
    if (!loaded) {
      std::cerr << loaded.error().to_string() << "\n";
      ctx.status = 2;
      return;
    }
    // A spec's warnings (dependencies that never bind or repeat, certain deadlocks), as every
    // command that reads a spec gives them (cli/inputs.h).
    if (loaded->program.kind == model::ProgramKind::Spec) warn_spec(opts->file, loaded->program, loaded->index);
    if (opts->json) std::cout << formats::write_json(loaded->program);
    else if (opts->dot) std::cout << formats::write_dot(loaded->program, loaded->index);
    else std::cout << formats::write_text(loaded->program);
    ctx.status = 0;
  });
}

}  // namespace syncbisim::cli
