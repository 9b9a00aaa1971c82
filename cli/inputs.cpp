#include "cli/inputs.h"

#include <iostream>

#include "analysis/correspondence.h"

namespace syncbisim::cli {

int input_error(const model::Diagnostic& d) {
  std::cerr << d.to_string() << "\n";
  return 2;
}

namespace {
std::optional<formats::LoadedProgram> load_kind(const std::string& path, model::ProgramKind kind, int& status) {
  auto r = formats::load_program_file(path, kind);
  if (!r) {
    status = input_error(r.error());
    return std::nullopt;
  }
  return std::move(r.value());
}
}  // namespace

std::optional<formats::LoadedProgram> load_spec(const std::string& path, int& status) {
  return load_kind(path, model::ProgramKind::Spec, status);
}

std::optional<formats::LoadedProgram> load_impl(const std::string& path, int& status) {
  return load_kind(path, model::ProgramKind::Impl, status);
}

std::optional<ProgramPair> load_pair(const std::string& spec_path, const std::string& impl_path, int& status) {
  auto spec = load_spec(spec_path, status);
  if (!spec) return std::nullopt;
  auto impl = load_impl(impl_path, status);
  if (!impl) return std::nullopt;
  if (auto s = analysis::check_correspondence(spec->program, spec->index, impl->program, impl->index); !s) {
    auto d = s.error();
    d.file = impl_path;
    status = input_error(d);
    return std::nullopt;
  }
  ProgramPair pair{std::move(*spec), std::move(*impl), {}, {}};
  pair.spec_code = semantics::compile(pair.spec.program, pair.spec.index);
  pair.impl_code = semantics::compile(pair.impl.program, pair.impl.index, &pair.spec.index);
  return pair;
}

}  // namespace syncbisim::cli
