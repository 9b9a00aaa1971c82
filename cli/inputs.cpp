#include "cli/inputs.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/unroll.h"
#include "analysis/dependency_analysis.h"
#include "analysis/pitfalls.h"
#include "analysis/register_use.h"

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

void warn(const std::string& file, const analysis::Warning& w) {
  std::cerr << file << ": " << (w.place.empty() ? "" : w.place + ": ") << "warning: " << w.message << "\n";
}

analysis::DependencyAnalysis warn_spec(const std::string& path, const model::Program& spec,
                                       const model::ProgramIndex& ix) {
  // Warnings go to stderr (docs/formats.md): dependencies that never bind or repeat, certain deadlocks.
  auto a = analysis::analyze_dependencies(spec, ix);
  for (const auto& w : a.warnings) warn(path, w);
  for (const auto& d : a.deadlocks) warn(path, analysis::Warning{"", d.message});
  for (const auto& w : analysis::written_order_pitfalls(spec)) warn(path, w);
  return a;
}

std::optional<formats::LoadedProgram> load_spec(const std::string& path, int& status) {
  auto spec = load_kind(path, model::ProgramKind::Spec, status);
  if (spec) warn_spec(path, spec->program, spec->index);
  return spec;
}

std::optional<AnalyzedSpec> load_analyzed_spec(const std::string& path, int& status) {
  auto spec = load_kind(path, model::ProgramKind::Spec, status);
  if (!spec) return std::nullopt;
  auto a = warn_spec(path, spec->program, spec->index);
  return AnalyzedSpec{std::move(*spec), std::move(a)};
}

void warn_impl(const std::string& path, const formats::LoadedProgram& impl) {
  for (const auto& w : analysis::unwritten_registers(impl.program, impl.index)) warn(path, w);
}

std::optional<formats::LoadedProgram> load_impl(const std::string& path, int& status) {
  auto impl = load_kind(path, model::ProgramKind::Impl, status);
  if (impl) warn_impl(path, *impl);
  return impl;
}

std::optional<LoadedPair> load_pair(const std::string& spec_path, const std::string& impl_path, int& status,
                                    checker::PairOptions options) {
  // Each file is read and indexed once (issue 41): of any kind first, then the kinds judged.
  auto fail = [&](const model::Diagnostic& d) -> std::optional<LoadedPair> {
    status = input_error(d);
    return std::nullopt;
  };
  auto spec = formats::load_program_file(spec_path);
  if (!spec) return fail(spec.error());
  if (spec->program.kind != model::ProgramKind::Spec) {
    // The slip people make most: the two files the wrong way round, said as such, not as two
    // kinds (ProgramPair::from_loaded says it below).
    const auto other = formats::load_program_file(impl_path);
    if (other)
      if (auto wrong = checker::order_error(spec->program.kind, spec_path, other->program.kind, impl_path))
        return fail(*wrong);
    return fail(*formats::kind_error(*spec, model::ProgramKind::Spec, spec_path));
  }
  warn_spec(spec_path, spec->program, spec->index);
  auto impl = formats::load_program_file(impl_path);
  if (!impl) return fail(impl.error());
  if (auto wrong = formats::kind_error(*impl, model::ProgramKind::Impl, impl_path)) return fail(*wrong);
  warn_impl(impl_path, *impl);
  std::string note;
  auto pair = make_pair(std::move(*spec), std::move(*impl), spec_path, impl_path, options, note);
  if (!pair) {
    status = input_error(pair.error());
    return std::nullopt;
  }
  if (!note.empty()) std::cerr << spec_path << ": note: " << note << "\n";
  for (const auto& w : analysis::same_engine_pitfalls(pair->spec.program, pair->spec.index, pair->impl.program))
    warn(spec_path, w);
  return std::move(*pair);
}

model::Result<LoadedPair> make_pair(formats::LoadedProgram spec, formats::LoadedProgram impl,
                                    const std::string& spec_path, const std::string& impl_path,
                                    checker::PairOptions options, std::string& note) {
  // An impl that unrolls constant-trip loops of the spec (copies named X.L.k, docs/formats.md
  // "Unrolled programs") is checked against the spec with those loops unrolled (analysis/unroll.h).
  auto matched = checker::ProgramPair::from_loaded(spec.program, spec.index, spec_path, impl.program, impl.index,
                                                   impl_path, options);
  if (!matched) return matched.error();
  if (matched->unrolled) {  // the pair was made of the spec unrolled to match the impl: keep it
    note = matched->unrolled->note();
    spec.program = std::move(matched->unrolled->program);
    spec.index = std::move(matched->unrolled->index);
  }
  return LoadedPair{std::move(spec), std::move(impl), std::move(matched->pair)};
}

std::optional<checker::TraceSteps> load_trace(const std::string& path, std::size_t which, int& status) {
  const auto text = formats::read_input_file(path);
  if (!text) {
    status = input_error(text.error());
    return std::nullopt;
  }
  const auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded()) {
    status = input_error(model::Diagnostic{path, "", "bad-json", "not a JSON trace file"});
    return std::nullopt;
  }
  auto t = checker::read_trace(doc, which);
  if (!t) {
    auto d = t.error();
    d.file = path;
    status = input_error(d);
    return std::nullopt;
  }
  return std::move(*t);
}

}  // namespace syncbisim::cli
