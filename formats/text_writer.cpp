// write_text: the printer of the text format. Deterministic, two spaces per nesting level,
// every field written explicitly, so read_text(write_text(p)) == p for normalized programs.
#include <nlohmann/json.hpp>

#include "formats/text_format.h"

#include <algorithm>
#include <map>

#include "model/walk.h"

namespace syncbisim::formats {

namespace {

using namespace model;

std::string value_text(std::uint32_t v, bool taken) {
  if (taken && v == 0) return "then";
  if (taken && v == 1) return "else";
  return std::to_string(v);
}

std::string choice_text(const Choice& c, bool taken) {
  if (const auto* k = std::get_if<ConstTrip>(&c)) return value_text(k->n, taken);
  if (const auto* r = std::get_if<RangeTrip>(&c)) {
    if (taken && r->min == 0 && r->max == 1) return "any";
    // Numbers, not names: "then..else" would read as one identifier.
    return std::to_string(r->min) + ".." + std::to_string(r->max);
  }
  std::string out = "[";
  const auto& vs = std::get<SeqTrip>(c).values;
  for (std::size_t i = 0; i < vs.size(); ++i) out += (i ? ", " : "") + value_text(vs[i], taken);
  return out + "]";
}

std::string trip_text(const TripRule& r, bool taken) {
  if (!r.divergent) return choice_text(r.uniform, taken);
  std::string out = "per_engine(";
  for (std::size_t i = 0; i < r.per_engine.size(); ++i)
    out += (i ? ", " : "") + r.per_engine[i].first + ": " + choice_text(r.per_engine[i].second, taken);
  return out + "; default " + choice_text(r.uniform, taken) + ")";
}

std::string extras(const std::map<std::string, std::string>& extra) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (const auto& [key, text] : extra) {
    try {
      o[key] = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::exception&) {
      o[key] = text;
    }
  }
  return "@" + o.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string item(const Item& it) {
  if (const auto* op = std::get_if<RegOp>(&it)) return "[" + op->dst + " := " + op->expr.to_string() + "]";
  if (const auto* b = std::get_if<Barrier>(&it)) {
    if (!b->reset) return "barrier";
    std::string out = "barrier(";
    for (std::size_t i = 0; i < b->reset->size(); ++i) out += (i ? ", " : "") + (*b->reset)[i];
    return out + ")";
  }
  const auto& in = std::get<Instr>(it);
  std::string out;
  if (!in.waits.empty()) {
    out += "{";
    for (std::size_t i = 0; i < in.waits.size(); ++i) {
      const auto& w = in.waits[i];
      out += (i ? ", " : "") + w.sem + " >= ";
      if (const auto* r = std::get_if<std::string>(&w.ge)) out += *r;
      else out += std::to_string(std::get<std::uint64_t>(w.ge));
    }
    out += "} ";
  }
  out += in.id;
  if (!in.extra->empty()) out += extras(*in.extra);
  for (auto k : {AccessKind::Read, AccessKind::Write, AccessKind::Accumulate}) {
    const auto& list = in.footprint->of(k);
    for (std::size_t i = 0; i < list.size(); ++i) out += (i ? ", " : std::string(" ") + to_string(k) + " ") + list[i].to_string();
  }
  if (in.signal) out += " {" + in.signal->sem + " += " + std::to_string(in.signal->add) + "}";
  return out;
}

// The statements, indented two spaces a level (model::walk's hooks open and close the braces).
struct BodyWriter {
  std::string& out;
  std::string indent;

  void stmt(const Stmt& s, std::size_t) {
    if (const auto* b = std::get_if<Block>(&s.node)) {
      // In program order (model::Block::order): a line per run of one engine's items, and a
      // line of its own for an instruction with a footprint, which reads best alone.
      std::uint32_t line_stream = UINT32_MAX;
      bool line_alone = false;
      for (const auto& [si, ii] : b->in_program_order()) {
        const auto& it = b->streams[si].items[ii];
        const auto* in = std::get_if<Instr>(&it);
        const bool alone = in && !in->footprint->empty();
        if (si != line_stream || alone || line_alone) {
          if (line_stream != UINT32_MAX) out += "\n";
          out += indent + b->streams[si].engine + ":";
          line_stream = si;
        }
        line_alone = alone;
        out += " " + item(it);
      }
      if (line_stream != UINT32_MAX) out += "\n";
    } else if (const auto* l = std::get_if<Loop>(&s.node)) {
      out += indent + "loop " + l->id;
      if (l->trip) out += " trip " + trip_text(*l->trip, false);
      if (l->sim_trip) out += " sim_trip " + std::to_string(*l->sim_trip);
      out += " {\n";
    } else {
      const auto& c = std::get<Cond>(s.node);
      out += indent + "cond " + c.id;
      if (c.taken) out += " taken " + trip_text(*c.taken, true);
      out += " {\n";
    }
  }
  void enter_loop(const Loop&) { indent += "  "; }
  void leave_loop(const Loop&) { close(); }
  void enter_branch(const Cond& c, bool then) {
    if (then) indent += "  ";
    else if (!c.else_body.empty()) out += indent.substr(2) + "} else {\n";
  }
  void leave_branch(const Cond&, bool then) {
    if (!then) close();
  }
  void close() {
    indent.resize(indent.size() - 2);
    out += indent + "}\n";
  }
};

}  // namespace

std::string write_text(const Program& p) {
  std::string out = p.kind == ProgramKind::Spec ? "syncbisim spec/1\n" : "syncbisim impl/1\n";
  out += "engines";
  for (const auto& e : p.engines) out += " " + e;
  out += "\n";
  if (p.kind == ProgramKind::Impl || !p.semaphores.empty()) {
    out += "semaphores";
    for (const auto& s : p.semaphores) out += " " + s;
    out += "\n";
  }
  for (const auto& b : p.buffers) {
    out += "buffer " + b.name + " " + to_string(b.memory) + " [";
    for (std::size_t i = 0; i < b.shape.size(); ++i) out += (i ? ", " : "") + std::to_string(b.shape[i]);
    out += "]\n";
  }
  BodyWriter writer{out, ""};
  walk(p.body, writer);
  // Distance entries outermost loop first (the tree's pre-order), as a person reads them.
  std::map<std::string, std::size_t> depth_order;
  model::for_each_stmt(p.body, [&](const Stmt& st, const model::LoopPath&) {
    if (const auto* l = std::get_if<Loop>(&st.node)) depth_order.emplace(l->id, depth_order.size() + 1);
    if (const auto* c = std::get_if<Cond>(&st.node)) {
      depth_order.emplace(model::then_loop(c->id), depth_order.size() + 1);
      depth_order.emplace(model::else_loop(c->id), depth_order.size() + 1);
    }
  });
  const auto rank = [&](const std::string& loop) {
    const auto it = depth_order.find(loop);
    return it == depth_order.end() ? std::size_t{0} : it->second;  // @top (and unknown names) first
  };
  for (const auto& d : p.deps) {
    out += "dep " + d.producer + " -> " + d.consumer;
    if (!d.distance.empty() || !d.every.empty()) {
      std::vector<std::pair<std::size_t, std::string>> entries;
      for (const auto& [loop, k] : d.distance) entries.emplace_back(rank(loop), loop + "=" + std::to_string(k));
      for (const auto& loop : d.every) entries.emplace_back(rank(loop), loop + "=*");
      std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      out += " distance";
      for (std::size_t i = 0; i < entries.size(); ++i) out += (i ? ", " : " ") + entries[i].second;
    }
    out += "\n";
  }
  return out;
}

}  // namespace syncbisim::formats
