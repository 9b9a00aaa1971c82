// Lemmas at a cut of the top level (cut_lemmas.h says what and why).
#include "prover/detail/cut_lemmas.h"

#include "prover/detail/encoder.h"

namespace syncbisim::prover::detail {

CutLemmas::CutLemmas(const Places& impl, const model::ProgramIndex& spec_ix,
                     const analysis::DependencyAnalysis& analysis, const ProgramTables& tables)
    : impl_(impl), spec_ix_(spec_ix), analysis_(analysis), tables_(tables) {}

CutLemmas::~CutLemmas() = default;

bool CutLemmas::holds(model::EngineId e, const std::string& reg, std::uint32_t t, const std::string& sem,
                      model::EngineId h) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto key = std::make_tuple(e, reg, t, sem, h);
  if (const auto it = known_.find(key); it != known_.end()) return it->second;
  const bool ok = decide(e, reg, t, sem, h);
  known_.emplace(key, ok);
  return ok;
}

Encoder& CutLemmas::walk_of(model::EngineId e) {
  auto& w = walks_[e];
  if (!w) {
    // e's walk up to its last instruction, so that every top-level statement a consumer of e can
    // cut at lies at or before the walk's point (its counts there are the loops' entries, E(l)).
    const auto& ix = impl_.index();
    std::optional<Place> last;
    for (auto i = ix.instrs.size(); i-- > 0;)
      if (impl_.instr(static_cast<model::InstrId>(i)).engine == e) {
        last = impl_.instr(static_cast<model::InstrId>(i)).at;
        break;
      }
    if (!last) throw Outside{"no instruction on the engine"};
    w = std::make_unique<Encoder>(ctx_, impl_, spec_ix_, analysis_, e, *last, tables_);
  }
  return *w;
}

bool CutLemmas::decide(model::EngineId e, const std::string& reg, std::uint32_t t, const std::string& sem,
                       model::EngineId h) {
  try {
    auto& w = walk_of(e);
    const auto signals = w.signals_before_top(sem, h, t);
    if (!signals) return false;
    return ctx_.same_linear(w.value_at_top(reg, t), *signals);
  } catch (const Outside&) {
    return false;  // a value the walk does not follow: no lemma, the consumer keeps the sums
  }
}

}  // namespace syncbisim::prover::detail
