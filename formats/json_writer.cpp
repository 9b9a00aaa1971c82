// write_json: canonical pretty JSON (2-space indent) in the simplest form of each field, so
// read_json(write_json(p)) == p for every normalized program.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "formats/json_format.h"

namespace syncbisim::formats {

namespace {

using nlohmann::ordered_json;
using namespace model;

ordered_json branch(std::uint32_t v) {
  if (v == 0) return "then";
  if (v == 1) return "else";
  return v;  // not a valid branch; written as read so the index can name the problem
}

ordered_json value(std::uint32_t v, bool taken) { return taken ? branch(v) : ordered_json(v); }

ordered_json choice(const Choice& c, bool taken) {
  if (const auto* k = std::get_if<ConstTrip>(&c)) return value(k->n, taken);
  if (const auto* r = std::get_if<RangeTrip>(&c)) {
    if (taken && r->min == 0 && r->max == 1) return "any";
    ordered_json o = ordered_json::object();
    o["min"] = value(r->min, taken);
    o["max"] = value(r->max, taken);
    return o;
  }
  ordered_json seq = ordered_json::array();
  for (auto v : std::get<SeqTrip>(c).values) seq.push_back(value(v, taken));
  ordered_json o = ordered_json::object();
  o["seq"] = std::move(seq);
  return o;
}

ordered_json trip(const TripRule& r, bool taken) {
  if (!r.divergent) return choice(r.uniform, taken);
  ordered_json per = ordered_json::object();
  for (const auto& [engine, c] : r.per_engine) per[engine] = choice(c, taken);
  ordered_json o = ordered_json::object();
  o["per_engine"] = std::move(per);
  o["default"] = choice(r.uniform, taken);
  return o;
}

ordered_json item(const Item& it, ProgramKind kind) {
  if (const auto* op = std::get_if<RegOp>(&it)) {
    ordered_json o = ordered_json::object();
    o["set"] = op->dst;
    if (op->expr.is_constant()) o["expr"] = op->expr.nodes[0].value;
    else o["expr"] = op->expr.to_string();
    return o;
  }
  if (const auto* b = std::get_if<Barrier>(&it)) {
    ordered_json inner = ordered_json::object();
    if (b->reset) inner["reset"] = *b->reset;
    ordered_json o = ordered_json::object();
    o["barrier"] = std::move(inner);
    return o;
  }
  const auto& in = std::get<Instr>(it);
  if (in.waits.empty() && !in.signal && in.extra.empty() && in.footprint.empty()) return in.id;
  if (kind == ProgramKind::Spec && in.waits.empty() && !in.signal) {
    ordered_json o = ordered_json::object();
    o["id"] = in.id;
    for (auto k : {AccessKind::Read, AccessKind::Write, AccessKind::Accumulate}) {
      if (in.footprint.of(k).empty()) continue;
      ordered_json list = ordered_json::array();
      for (const auto& a : in.footprint.of(k)) list.push_back(a.to_string());
      o[to_string(k)] = std::move(list);
    }
    for (const auto& [key, text] : in.extra) {
      // Extras hold compact JSON text (model::Instr::extra); anything else is kept as a string.
      try {
        o[key] = ordered_json::parse(text);
      } catch (const nlohmann::json::exception&) {
        o[key] = text;
      }
    }
    return o;
  }
  ordered_json o = ordered_json::object();
  o["instr"] = in.id;
  if (!in.waits.empty()) {
    ordered_json waits = ordered_json::array();
    for (const auto& w : in.waits) {
      ordered_json wo = ordered_json::object();
      wo["sem"] = w.sem;
      if (const auto* r = std::get_if<std::string>(&w.ge)) wo["ge"] = *r;
      else wo["ge"] = std::get<std::uint64_t>(w.ge);
      waits.push_back(std::move(wo));
    }
    o["wait"] = std::move(waits);
  }
  if (in.signal) {
    if (in.signal->add == 1) {
      o["signal"] = in.signal->sem;
    } else {
      ordered_json s = ordered_json::object();
      s["sem"] = in.signal->sem;
      s["add"] = in.signal->add;
      o["signal"] = std::move(s);
    }
  }
  return o;
}

ordered_json body(const std::vector<Stmt>& stmts, ProgramKind kind);

ordered_json stmt(const Stmt& s, ProgramKind kind) {
  ordered_json o = ordered_json::object();
  if (const auto* b = std::get_if<Block>(&s.node)) {
    ordered_json streams = ordered_json::object();
    for (const auto& st : b->streams) {
      ordered_json items = ordered_json::array();
      for (const auto& it : st.items) items.push_back(item(it, kind));
      streams[st.engine] = std::move(items);
    }
    o["block"] = std::move(streams);
  } else if (const auto* l = std::get_if<Loop>(&s.node)) {
    o["loop"] = l->id;
    if (l->trip) o["trip"] = trip(*l->trip, false);
    if (l->sim_trip) o["sim_trip"] = *l->sim_trip;
    o["body"] = body(l->body, kind);
  } else {
    const auto& c = std::get<Cond>(s.node);
    o["cond"] = c.id;
    if (c.taken) o["taken"] = trip(*c.taken, true);
    o["then"] = body(c.then_body, kind);
    o["else"] = body(c.else_body, kind);
  }
  return o;
}

// A block whose program order interleaves engines (model::Block::order) is written as one block
// object per run of an engine's items; the reader merges them back in that order.
void ordered_block(ordered_json& out, const Block& b, ProgramKind kind) {
  std::uint32_t run = UINT32_MAX;
  ordered_json items = ordered_json::array();
  const auto flush = [&] {
    if (run == UINT32_MAX) return;
    ordered_json streams = ordered_json::object();
    streams[b.streams[run].engine] = std::move(items);
    ordered_json o = ordered_json::object();
    o["block"] = std::move(streams);
    out.push_back(std::move(o));
    items = ordered_json::array();
  };
  for (const auto& [si, ii] : b.in_program_order()) {
    if (si != run) {
      flush();
      run = si;
    }
    items.push_back(item(b.streams[si].items[ii], kind));
  }
  flush();
}

// A statement's elements of a body array: one, or several for a block with an order.
void append_stmt(ordered_json& out, const Stmt& s, ProgramKind kind) {
  if (const auto* b = std::get_if<Block>(&s.node); b && !b->order.empty()) ordered_block(out, *b, kind);
  else out.push_back(stmt(s, kind));
}

ordered_json body(const std::vector<Stmt>& stmts, ProgramKind kind) {
  ordered_json out = ordered_json::array();
  for (const auto& s : stmts) append_stmt(out, s, kind);
  return out;
}

}  // namespace

namespace {

// `text` (a value dumped at indent 2) placed at `by` spaces: every line after the first moved
// right, as nlohmann places a nested value.
void append_indented(std::string& out, const std::string& text, std::size_t by) {
  const std::string pad(by, ' ');
  std::size_t from = 0;
  for (auto nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.append(text, from, nl + 1 - from);
    out += pad;
    from = nl + 1;
  }
  out.append(text, from, std::string::npos);
}

// The document, pretty (indent 2) or compact (indent -1), byte for byte as nlohmann would dump
// one tree of it. The program is dumped statement by statement: one tree of a whole impl of
// thousands of loop nests was a fifth of `allocate`'s time there, and as large again as the text.
// Nothing once the text passes `limit` bytes (then it is not wanted).
std::optional<std::string> render(const Program& p, int indent, std::uint64_t limit) {
  const bool pretty = indent >= 0;
  const auto dump = [&](const ordered_json& v) {
    return v.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
  };
  std::string out = "{";
  bool first = true;
  const auto member = [&](const char* key) {
    out += first ? "" : ",";
    first = false;
    if (pretty) out += "\n  ";
    out += "\"";
    out += key;
    out += pretty ? "\": " : "\":";
  };
  const auto value = [&](const ordered_json& v) {
    if (pretty) append_indented(out, dump(v), 2);
    else out += dump(v);
  };
  member("syncbisim");
  value(p.kind == ProgramKind::Spec ? "spec/1" : "impl/1");
  member("engines");
  value(p.engines);
  if (p.kind == ProgramKind::Impl || !p.semaphores.empty()) {
    member("semaphores");
    value(p.semaphores);
  }
  if (!p.buffers.empty()) {
    ordered_json bufs = ordered_json::array();
    for (const auto& b : p.buffers) {
      ordered_json bj = ordered_json::object();
      bj["name"] = b.name;
      bj["memory"] = to_string(b.memory);
      bj["shape"] = b.shape;
      bufs.push_back(std::move(bj));
    }
    member("buffers");
    value(bufs);
  }
  member("program");
  out += "[";
  bool any = false;
  for (const auto& s : p.body) {
    ordered_json elems = ordered_json::array();
    append_stmt(elems, s, p.kind);
    for (const auto& e : elems) {
      out += any ? "," : "";
      any = true;
      if (pretty) {
        out += "\n    ";
        append_indented(out, dump(e), 4);
      } else {
        out += dump(e);
      }
    }
    if (out.size() > limit) return std::nullopt;
  }
  if (any && pretty) out += "\n  ";
  out += "]";
  if (p.kind == ProgramKind::Spec || !p.deps.empty()) {
    ordered_json deps = ordered_json::array();
    for (const auto& d : p.deps) {
      ordered_json dj = ordered_json::object();
      dj["producer"] = d.producer;
      dj["consumer"] = d.consumer;
      if (!d.distance.empty() || !d.every.empty()) {
        ordered_json dist = ordered_json::object();
        for (const auto& [loop, k] : d.distance) dist[loop] = k;
        for (const auto& loop : d.every) dist[loop] = "*";
        dj["distance"] = std::move(dist);
      }
      deps.push_back(std::move(dj));
    }
    member("deps");
    value(deps);
  }
  out += pretty ? "\n}\n" : "}\n";
  if (out.size() > limit) return std::nullopt;
  return out;
}

}  // namespace

std::string write_json(const Program& p, std::uint64_t compact_past) {
  // Indented for people; a program so large that its indentation would take it past the input
  // size limit (a kernel of 10,000 nests: 133 MB, 65% of it spaces) is written compact instead,
  // so that what the tool writes it can read back (docs/formats.md "Input size").
  if (auto pretty = render(p, 2, compact_past)) return std::move(*pretty);
  return *render(p, -1, UINT64_MAX);
}

}  // namespace syncbisim::formats
