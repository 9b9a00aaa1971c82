#include "checker/program_pair.h"

#include <stdexcept>

#include "analysis/correspondence.h"
#include "checker/trip_cap.h"

namespace syncbisim::checker {

ProgramPair::ProgramPair(model::ProgramIndex spec_ix, model::ProgramIndex impl_ix, semantics::CompiledProgram spec_code,
                         semantics::CompiledProgram impl_code, semantics::Options options, std::string cut)
    : spec_ix_(std::move(spec_ix)),
      impl_ix_(std::move(impl_ix)),
      spec_code_(std::move(spec_code)),
      impl_code_(std::move(impl_code)),
      cut_(std::move(cut)),
      spec_(spec_code_, options),
      impl_(impl_code_, options),
      both_(spec_, impl_) {}

model::Result<std::unique_ptr<ProgramPair>> ProgramPair::make(const model::Program& spec, const model::Program& impl,
                                                              PairOptions options) {
  auto six = model::ProgramIndex::build(spec);
  if (!six) return six.error();
  auto iix = model::ProgramIndex::build(impl);
  if (!iix) return iix.error();
  return indexed(spec, std::move(*six), impl, std::move(*iix), options);
}

std::optional<model::Diagnostic> order_error(model::ProgramKind spec_kind, const std::string& spec_name,
                                             model::ProgramKind impl_kind, const std::string& impl_name) {
  if (spec_kind != model::ProgramKind::Impl || impl_kind != model::ProgramKind::Spec) return std::nullopt;
  return model::Diagnostic{spec_name, "", "wrong-order",
                           "this is an impl and " + impl_name + " a spec: give the spec first, then the impl"};
}

model::Result<MatchedPair> ProgramPair::from_loaded(const model::Program& spec, const model::ProgramIndex& spec_index,
                                                    const std::string& spec_name, const model::Program& impl,
                                                    const model::ProgramIndex& impl_index,
                                                    const std::string& impl_name, PairOptions options) {
  if (auto wrong = order_error(spec.kind, spec_name, impl.kind, impl_name)) return *wrong;
  auto unrolled = analysis::unrolled_to_match(spec, spec_index, impl_index);
  if (!unrolled) {
    auto d = unrolled.error();
    d.file = spec_name;
    return d;
  }
  MatchedPair out{std::move(*unrolled), nullptr};
  const auto& s = out.unrolled ? out.unrolled->program : spec;
  const auto& six = out.unrolled ? out.unrolled->index : spec_index;
  auto pair = indexed(s, six, impl, impl_index, options);
  if (!pair) {
    auto d = pair.error();
    d.file = impl_name;  // both programs loaded: what is left is how the impl fits its spec
    return d;
  }
  out.pair = std::move(*pair);
  return out;
}

model::Result<std::unique_ptr<ProgramPair>> ProgramPair::indexed(const model::Program& spec, model::ProgramIndex six,
                                                                 const model::Program& impl, model::ProgramIndex iix,
                                                                 PairOptions options) {
  if (auto s = analysis::check_correspondence(spec, six, impl, iix); !s) return s.error();
  try {
    auto scode = semantics::compile(spec, six);
    auto icode = semantics::compile(impl, iix, &six);
    std::string cut;
    if (options.max_trip > 0) {
      const bool spec_cut = cap_trip_ranges(scode, options.max_trip);
      const bool impl_cut = cap_trip_ranges(icode, options.max_trip);
      if (spec_cut || impl_cut) cut = "max-trip " + std::to_string(options.max_trip);
    }
    return std::unique_ptr<ProgramPair>(new ProgramPair(std::move(six), std::move(iix), std::move(scode),
                                                        std::move(icode), options.semantics, std::move(cut)));
  } catch (const std::invalid_argument& e) {  // a loop without a trip rule in either program
    return model::make_error("", "impl-trip", e.what());
  }
}

}  // namespace syncbisim::checker
