#include "timing/cost_table.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace syncbisim::timing {

namespace {

bool matches(const std::string& pattern, const std::string& name) {
  if (pattern == "*") return true;
  if (!pattern.empty() && pattern.back() == '*')
    return name.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  return pattern == name;
}

// Longer patterns are more specific; an exact name beats a prefix of the same length.
std::size_t specificity(const std::string& pattern) {
  if (pattern == "*") return 0;
  return pattern.back() == '*' ? 2 * pattern.size() - 1 : 2 * pattern.size();
}

CostTable make_default() {
  // docs/timing.md "The default table" gives the public fact or the assumption behind each
  // number. One model cycle is one cycle of the Trainium2 Tensor Engine clock (2.4 GHz), so an
  // engine running at f GHz spends 2.4 / f model cycles per cycle of its own.
  CostTable t;
  t.clock_ghz = 2.4;
  t.engine_classes = {{"PE", "tensor"}, {"ACT", "scalar"}, {"DVE", "vector"}, {"POOL", "gpsimd"},
                      {"SP", "sync"},   {"DMA*", "dma"},   {"*", "generic"}};
  // Tensor Engine (2.4 GHz): a MultiplyMoving holds the engine for max(N, 64) cycles, N the
  // moving tensor's free size; a LoadStationary is up to 4x faster; the 128x128 array adds about
  // 256 cycles before the result is in PSUM.
  t.ops["matmul*"]["*"] = OpCost{0, 1.0, 64, 256, 512};
  t.ops["transpose*"]["*"] = OpCost{0, 1.0, 64, 256, 128};
  t.ops["load_stationary*"]["*"] = OpCost{0, 0.25, 16, 128, 128};
  t.ops["*"]["tensor"] = OpCost{0, 1.0, 64, 256, 512};
  // Vector Engine (0.96 GHz, 2.5 model cycles per cycle): about N cycles for one input tile, 2N
  // for two, plus a static overhead of about 100 cycles for dependent back-to-back instructions.
  t.ops["tensor_tensor*"]["*"] = OpCost{0, 5.0, 0, 250, 512};
  t.ops["*"]["vector"] = OpCost{0, 2.5, 0, 250, 512};
  // Scalar Engine and GpSimd (1.2 GHz, 2 model cycles per cycle): about N cycles, one input.
  t.ops["activation*"]["*"] = OpCost{0, 2.0, 0, 200, 512};
  t.ops["*"]["scalar"] = OpCost{0, 2.0, 0, 200, 512};
  t.ops["*"]["gpsimd"] = OpCost{0, 2.0, 0, 200, 512};
  // DMA: 16 engines of 27.2 GB/s per NeuronCore (435.2 GB/s, 181 bytes per model cycle) and about
  // 1.3 us (3120 model cycles) from the trigger to the start of a transfer; size in bytes.
  t.ops["dma*"]["*"] = OpCost{0, 2.4 / 435.2, 0, 3120, 131072, true};
  t.ops["*"]["dma"] = OpCost{0, 2.4 / 435.2, 0, 3120, 131072, true};
  // Anything else, and the engines of the paper's figures (E0, E1, ...).
  t.ops["*"]["*"] = OpCost{64, 0, 0, 64, 0};
  t.sequencer = SequencerCost{16, 88, 64};
  t.barrier = BarrierCost{240, 64};
  return t;
}

struct Parser {
  std::string error_place, error_message;

  bool fail(const std::string& at, const std::string& msg) {
    error_place = at;
    error_message = msg;
    return false;
  }

  bool number(const nlohmann::json& j, const std::string& at, double& out) {
    if (!j.is_number() || j.get<double>() < 0 || !std::isfinite(j.get<double>()))
      return fail(at, "expected a number >= 0");
    out = j.get<double>();
    return true;
  }

  bool cycles(const nlohmann::json& j, const std::string& at, std::uint32_t& out) {
    if (!j.is_number_unsigned() || j.get<std::uint64_t>() > 1000000000ULL)
      return fail(at, "expected a whole number of cycles (0 .. 10^9)");
    out = static_cast<std::uint32_t>(j.get<std::uint64_t>());
    return true;
  }

  bool only(const nlohmann::json& j, const std::string& at, std::initializer_list<const char*> keys) {
    if (!j.is_object()) return fail(at, "expected an object");
    for (const auto& [k, v] : j.items())
      if (std::none_of(keys.begin(), keys.end(), [&](const char* x) { return k == x; }))
        return fail(at + "/" + k, "unknown field '" + k + "'");
    return true;
  }

  bool op_cost(const nlohmann::json& j, const std::string& at, OpCost& c) {
    if (!only(j, at, {"fixed", "per_unit", "min", "latency", "default_size", "shared_dma"})) return false;
    if (j.contains("shared_dma")) {
      if (!j["shared_dma"].is_boolean()) return fail(at + "/shared_dma", "expected true or false");
      c.shared_dma = j["shared_dma"].get<bool>();
    }
    if (j.contains("fixed") && !number(j["fixed"], at + "/fixed", c.fixed)) return false;
    if (j.contains("per_unit") && !number(j["per_unit"], at + "/per_unit", c.per_unit)) return false;
    if (j.contains("min") && !number(j["min"], at + "/min", c.min)) return false;
    if (j.contains("latency") && !number(j["latency"], at + "/latency", c.latency)) return false;
    if (j.contains("default_size") && !number(j["default_size"], at + "/default_size", c.default_size)) return false;
    return true;
  }

  bool table(const nlohmann::json& j, CostTable& t) {
    if (!j.is_object() || !j.contains("syncbisim") || j["syncbisim"] != "costs/1")
      return fail("/syncbisim", "a cost file starts with \"syncbisim\": \"costs/1\"");
    if (!only(j, "", {"syncbisim", "clock_ghz", "engines", "ops", "sequencer", "barrier"})) return false;
    if (j.contains("clock_ghz")) {
      if (!number(j["clock_ghz"], "/clock_ghz", t.clock_ghz)) return false;
      if (t.clock_ghz <= 0) return fail("/clock_ghz", "the clock must be positive");
    }
    if (j.contains("engines")) {
      // [["PE", "tensor"], ...]: replaces the default list, tried in order.
      const auto& e = j["engines"];
      if (!e.is_array()) return fail("/engines", "expected an array of [pattern, class] pairs");
      t.engine_classes.clear();
      for (std::size_t i = 0; i < e.size(); ++i) {
        const auto at = "/engines/" + std::to_string(i);
        if (!e[i].is_array() || e[i].size() != 2 || !e[i][0].is_string() || !e[i][1].is_string())
          return fail(at, "expected [pattern, class]");
        t.engine_classes.emplace_back(e[i][0].get<std::string>(), e[i][1].get<std::string>());
      }
    }
    if (j.contains("ops")) {
      const auto& ops = j["ops"];
      if (!ops.is_object()) return fail("/ops", "expected an object: op pattern -> engine class -> cost");
      for (const auto& [op, per_class] : ops.items()) {
        const auto at = "/ops/" + op;
        if (!per_class.is_object()) return fail(at, "expected an object: engine class -> cost");
        for (const auto& [cls, cost] : per_class.items()) {
          OpCost c;  // an entry replaces the default's entry as a whole
          if (!op_cost(cost, at + "/" + cls, c)) return false;
          t.ops[op][cls] = c;
        }
      }
    }
    if (j.contains("sequencer")) {
      const auto& s = j["sequencer"];
      if (!only(s, "/sequencer", {"dispatch", "alu_op", "branch"})) return false;
      if (s.contains("dispatch") && !cycles(s["dispatch"], "/sequencer/dispatch", t.sequencer.dispatch)) return false;
      if (s.contains("alu_op") && !cycles(s["alu_op"], "/sequencer/alu_op", t.sequencer.alu_op)) return false;
      if (s.contains("branch") && !cycles(s["branch"], "/sequencer/branch", t.sequencer.branch)) return false;
    }
    if (j.contains("barrier")) {
      const auto& b = j["barrier"];
      if (!only(b, "/barrier", {"handshake", "reset"})) return false;
      if (b.contains("handshake") && !cycles(b["handshake"], "/barrier/handshake", t.barrier.handshake)) return false;
      if (b.contains("reset") && !cycles(b["reset"], "/barrier/reset", t.barrier.reset)) return false;
    }
    return true;
  }
};

std::string unquote(const std::string& json_text) {
  auto j = nlohmann::json::parse(json_text, nullptr, false);
  return j.is_string() ? j.get<std::string>() : std::string{};
}

// A natural number from an extra field's JSON text, or -1.
double number_of(const std::map<std::string, std::string>& extra, const char* key) {
  auto it = extra.find(key);
  if (it == extra.end()) return -1;
  auto j = nlohmann::json::parse(it->second, nullptr, false);
  if (!j.is_number() || j.get<double>() < 0) return -1;
  return j.get<double>();
}

}  // namespace

std::string CostTable::engine_class(const std::string& engine) const {
  for (const auto& [pattern, cls] : engine_classes)
    if (matches(pattern, engine)) return cls;
  return "generic";
}

OpCost CostTable::op_cost(const std::string& op, const std::string& cls) const {
  const OpCost* best = nullptr;
  std::size_t best_spec = 0;
  bool best_exact_class = false;
  for (const auto& [pattern, per_class] : ops) {
    if (!matches(pattern, op)) continue;
    const OpCost* c = nullptr;
    bool exact_class = false;
    if (auto it = per_class.find(cls); it != per_class.end()) {
      c = &it->second;
      exact_class = true;
    } else if (auto any = per_class.find("*"); any != per_class.end()) {
      c = &any->second;
    }
    if (!c) continue;
    // The most specific op pattern wins; among equal ones, the entry for the class itself.
    const auto spec = specificity(pattern);
    if (!best || spec > best_spec || (spec == best_spec && exact_class && !best_exact_class)) {
      best = c;
      best_spec = spec;
      best_exact_class = exact_class;
    }
  }
  return best ? *best : OpCost{1, 0, 0, 0, 0};
}

const CostTable& default_cost_table() {
  static const CostTable t = make_default();
  return t;
}

model::Result<CostTable> parse_cost_table(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return model::make_error("", "bad-costs", "not valid JSON");
  CostTable t = default_cost_table();
  Parser p;
  if (!p.table(j, t)) return model::make_error(p.error_place, "bad-costs", p.error_message);
  return t;
}

model::Result<CostTable> load_cost_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    auto d = model::make_error("", "io", "cannot read the cost file");
    d.file = path;
    return d;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto r = parse_cost_table(ss.str());
  if (!r) r.error().file = path;
  return r;
}

InstrCost instr_cost(const CostTable& t, const std::string& engine, const std::map<std::string, std::string>& extra) {
  std::string op;
  if (auto it = extra.find("op"); it != extra.end()) op = unquote(it->second);
  const OpCost c = t.op_cost(op, t.engine_class(engine));
  double size = number_of(extra, "size");
  if (size < 0) size = c.default_size;
  double interval = std::max(c.min, c.fixed + c.per_unit * size);
  if (const double v = number_of(extra, "interval"); v >= 0) interval = v;
  InstrCost out;
  out.shared_dma = c.shared_dma;
  out.interval = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(interval)));
  double latency = static_cast<double>(out.interval) + c.latency;
  if (const double v = number_of(extra, "latency"); v >= 0) latency = v;
  out.latency = std::max(out.interval, static_cast<std::uint64_t>(std::llround(latency)));
  return out;
}

}  // namespace syncbisim::timing
