#include "generators/slots.h"

#include <algorithm>
#include <utility>

#include "model/walk.h"

namespace syncbisim::generators {

std::string slot_name(std::uint32_t slot) { return "#" + std::to_string(slot); }

std::string resolve_slot(const std::string& text, const std::vector<std::string>& names) {
  if (text.empty() || text[0] != '#') return text;
  const auto slot = std::stoul(text.substr(1));
  return names[slot % names.size()];
}

namespace {

void resolve_rule(std::optional<model::TripRule>& rule, const std::vector<std::string>& engines) {
  if (!rule) return;
  std::vector<std::pair<std::string, model::Choice>> kept;
  for (auto& [engine, choice] : rule->per_engine) {
    auto name = resolve_slot(engine, engines);
    const bool seen = std::any_of(kept.begin(), kept.end(), [&](const auto& e) { return e.first == name; });
    if (!seen) kept.emplace_back(std::move(name), std::move(choice));
  }
  rule->per_engine = std::move(kept);
}

void resolve_block(model::Block& b, const std::vector<std::string>& engines) {
  std::vector<model::Stream> merged;
  for (auto& s : b.streams) {
    const auto name = resolve_slot(s.engine, engines);
    auto it = std::find_if(merged.begin(), merged.end(), [&](const model::Stream& m) { return m.engine == name; });
    if (it == merged.end()) {
      merged.push_back(model::Stream{name, {}});
      it = merged.end() - 1;
    }
    for (auto& item : s.items) it->items.push_back(std::move(item));
  }
  b.streams = std::move(merged);
}

}  // namespace

void resolve_engine_slots(model::Program& p) {
  model::for_each_stmt(p.body, [&](model::Stmt& stmt, const model::LoopPath&) {
    if (auto* b = std::get_if<model::Block>(&stmt.node)) resolve_block(*b, p.engines);
    else if (auto* l = std::get_if<model::Loop>(&stmt.node)) resolve_rule(l->trip, p.engines);
    else resolve_rule(std::get<model::Cond>(stmt.node).taken, p.engines);
  });
}

}  // namespace syncbisim::generators
