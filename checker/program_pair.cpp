#include "checker/program_pair.h"

#include <stdexcept>

#include "analysis/correspondence.h"

namespace syncbisim::checker {

ProgramPair::ProgramPair(model::ProgramIndex spec_ix, model::ProgramIndex impl_ix, semantics::CompiledProgram spec_code,
                         semantics::CompiledProgram impl_code, semantics::Options options)
    : spec_ix_(std::move(spec_ix)),
      impl_ix_(std::move(impl_ix)),
      spec_code_(std::move(spec_code)),
      impl_code_(std::move(impl_code)),
      spec_(spec_code_, options),
      impl_(impl_code_, options),
      both_(spec_, impl_) {}

model::Result<std::unique_ptr<ProgramPair>> ProgramPair::make(const model::Program& spec, const model::Program& impl,
                                                              semantics::Options options) {
  auto six = model::ProgramIndex::build(spec);
  if (!six) return six.error();
  auto iix = model::ProgramIndex::build(impl);
  if (!iix) return iix.error();
  if (auto s = analysis::check_correspondence(spec, *six, impl, *iix); !s) return s.error();
  try {
    auto scode = semantics::compile(spec, *six);
    auto icode = semantics::compile(impl, *iix, &*six);
    return std::unique_ptr<ProgramPair>(
        new ProgramPair(std::move(*six), std::move(*iix), std::move(scode), std::move(icode), options));
  } catch (const std::invalid_argument& e) {  // a loop without a trip rule in either program
    return model::make_error("", "impl-trip", e.what());
  }
}

}  // namespace syncbisim::checker
