// Programs, errors and stop tokens of the public API (include/syncbisim/syncbisim.h).
#include <filesystem>

#include "analysis/unroll.h"
#include "api/detail/program_data.h"
#include "formats/dot_format.h"
#include "formats/json_format.h"
#include "formats/load.h"
#include "formats/text_format.h"

namespace syncbisim {

std::string version() { return "0.1"; }

Error::Error(std::string file, std::string place, std::string rule, std::string message)
    : std::runtime_error(model::Diagnostic{file, place, rule, message}.to_string()),
      file_(std::move(file)),
      place_(std::move(place)),
      rule_(std::move(rule)),
      message_(std::move(message)) {}

namespace api::detail {

void raise(const model::Diagnostic& d) { throw Error(d.file, d.place, d.rule, d.message); }

void raise(model::Diagnostic d, const std::string& name) {
  if (d.file.empty()) d.file = name;
  raise(d);
}

Program wrap(model::Program program, model::ProgramIndex index, std::string name) {
  auto d = std::make_shared<Program::Data>(Program::Data{std::move(program), std::move(index), std::move(name)});
  return Program(std::move(d));
}

Program wrap(model::Program program, const std::string& name) {
  auto ix = model::ProgramIndex::build(program);
  if (!ix) {
    auto d = ix.error();
    d.file = name;
    raise(d);
  }
  return wrap(std::move(program), std::move(*ix), name);
}

void require_kind(const Program& p, model::ProgramKind kind, const char* role) {
  if (p.data().program.kind == kind) return;
  const char* want = kind == model::ProgramKind::Spec ? "spec/1" : "impl/1";
  const char* got = kind == model::ProgramKind::Spec ? "impl/1" : "spec/1";
  throw Error(p.data().name, "/syncbisim", "wrong-kind",
              std::string("the ") + role + " must be a " + want + " program, found " + got);
}

model::ValueWidths widths(unsigned register_bits, unsigned semaphore_bits) {
  if (register_bits < 1 || register_bits > 64 || semaphore_bits < 2 || semaphore_bits > 64)
    raise(model::Diagnostic{"", "", "bad-width",
                            "register_bits must be 1..64 and semaphore_bits 2..64 (got " +
                                std::to_string(register_bits) + " and " + std::to_string(semaphore_bits) + ")"});
  return model::ValueWidths{register_bits, semaphore_bits};
}

void require_order(const Program& spec, const Program& impl) {
  if (auto wrong = checker::order_error(spec.data().program.kind, spec.data().name, impl.data().program.kind,
                                        impl.data().name))
    raise(*wrong);
}

PairOf pair_of(const Program& spec, const Program& impl, checker::PairOptions options) {
  const auto& s = spec.data();
  const auto& i = impl.data();
  auto m = checker::ProgramPair::from_loaded(s.program, s.index, s.name, i.program, i.index, i.name, options);
  if (!m) raise(m.error());
  if (!m->unrolled) return PairOf{spec, std::move(m->pair)};
  // The pair points into the unrolled spec: moved into the Program that carries it, not copied.
  return PairOf{wrap(std::move(m->unrolled->program), std::move(m->unrolled->index), s.name), std::move(m->pair)};
}

}  // namespace api::detail

Program::Program(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

Program Program::from_file(const std::string& path) {
  auto loaded = formats::load_program_file(path);
  if (!loaded) api::detail::raise(loaded.error());
  return api::detail::wrap(std::move(loaded->program), std::move(loaded->index), path);
}

Program Program::from_string(const std::string& text, const std::string& name) {
  auto loaded = formats::load_program_text(text, name);
  if (!loaded) api::detail::raise(loaded.error());
  return api::detail::wrap(std::move(loaded->program), std::move(loaded->index), name);
}

Program Program::load(const std::string& path_or_text) {
  std::error_code ec;
  // A program's text always has a newline or a '{'; a path to an existing file never needs one.
  const bool looks_like_text = path_or_text.find_first_of("\n{") != std::string::npos;
  if (!looks_like_text && std::filesystem::is_regular_file(path_or_text, ec)) return from_file(path_or_text);
  if (!looks_like_text && path_or_text.find("syncbisim ") != 0)
    throw Error(path_or_text, "", "io", "no such file (and not a program's text)");
  return from_string(path_or_text);
}

ProgramKind Program::kind() const {
  return data_->program.kind == model::ProgramKind::Spec ? ProgramKind::Spec : ProgramKind::Impl;
}
std::string Program::to_json() const { return formats::write_json(data_->program); }
std::string Program::to_text() const { return formats::write_text(data_->program); }
// The same writer as `show --dot`, on the index the program was loaded (or wrapped) with.
std::string Program::to_dot() const { return formats::write_dot(data_->program, data_->index); }
std::vector<std::string> Program::engines() const { return data_->program.engines; }
std::size_t Program::dependencies() const { return data_->program.deps.size(); }
bool Program::operator==(const Program& other) const { return data_->program == other.data_->program; }

std::vector<std::string> Program::instructions() const {
  std::vector<std::string> out;
  for (const auto& in : data_->index.instrs) out.push_back(in.name);
  return out;
}

StopToken::StopToken() : state_(std::make_shared<State>()) {}
void StopToken::request() const { state_->flag = true; }
bool StopToken::requested() const { return state_->flag.load(); }

}  // namespace syncbisim
