#include "latency/table2_json.h"

namespace syncbisim::latency {

nlohmann::json row_json(const Row& r) {
  nlohmann::json j;
  j["kernel"] = r.key;
  j["title"] = r.title;
  j["loops"] = r.loops;
  j["offsets"] = r.offsets;
  j["trips"] = r.trips;
  for (std::size_t v = 0; v < kVariants; ++v) {
    const auto& f = r.ours[v];
    nlohmann::json c;
    c["available"] = f.available;
    if (f.available) {
      c["lat"] = f.lat;
      c["makespan"] = f.makespan;
      c["code_bytes"] = f.code_bytes;
      c["regs"] = f.regs;
      c["sema"] = f.sema;
      c["deadlock"] = f.deadlock;
    } else {
      c["why_not"] = f.why_not;
    }
    j["ours"][to_string(static_cast<Variant>(v))] = c;
  }
  if (r.paper) {
    auto pf = [](const PaperFigures& f) {
      if (!f.available) return nlohmann::json{{"available", false}};
      return nlohmann::json{{"available", true}, {"lat", f.lat}, {"code", f.code}, {"regs", f.regs}, {"sema", f.sema}};
    };
    j["paper"] = {{"benchmark", r.paper->benchmark},
                  {"loops", r.paper->loops},
                  {"offsets", r.paper->offsets},
                  {"barrier", pf(r.paper->barrier)},
                  {"barrier_free", pf(r.paper->barrier_free)},
                  {"manual", pf(r.paper->manual)},
                  {"unrolled", pf(r.paper->unrolled)}};
  }
  return j;
}

nlohmann::json render_json(const std::vector<Row>& rows) {
  nlohmann::json out{{"syncbisim", "table2/1"}, {"rows", nlohmann::json::array()}};
  for (const auto& r : rows) out["rows"].push_back(row_json(r));
  return out;
}

}  // namespace syncbisim::latency
