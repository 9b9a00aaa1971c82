// write_json: canonical pretty JSON (2-space indent) in the simplest form of each field, so
// read_json(write_json(p)) == p for every normalized program.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "formats/detail/json_tree.h"
#include "formats/json_format.h"
#include "model/walk.h"

namespace syncbisim::formats {

namespace {

using nlohmann::ordered_json;
using namespace model;

// nlohmann's compact dump, as every part of the document is written.
std::string dump_compact(const ordered_json& v) { return v.dump(-1, ' ', false, ordered_json::error_handler_t::replace); }

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
  if (in.waits.empty() && !in.signal && in.extra->empty() && in.footprint->empty()) return in.id;
  if (kind == ProgramKind::Spec && in.waits.empty() && !in.signal) {
    ordered_json o = ordered_json::object();
    o["id"] = in.id;
    for (auto k : {AccessKind::Read, AccessKind::Write, AccessKind::Accumulate}) {
      if (in.footprint->of(k).empty()) continue;
      ordered_json list = ordered_json::array();
      for (const auto& a : in.footprint->of(k)) list.push_back(a.to_string());
      o[to_string(k)] = std::move(list);
    }
    for (const auto& [key, text] : *in.extra) {
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

// A statement's object; a loop's body and a cond's branches are added by TreeBuilder.
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
  } else {
    const auto& c = std::get<Cond>(s.node);
    o["cond"] = c.id;
    if (c.taken) o["taken"] = trip(*c.taken, true);
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

// The tree of a statement list (model::walk's hooks): the arrays being filled, the program's
// first, then one per open loop body or branch, which goes into its statement's object, under
// "body", "then" or "else", when it closes.
struct TreeBuilder {
  ProgramKind kind;
  std::vector<ordered_json> open{ordered_json::array()};

  void stmt(const Stmt& s, std::size_t) { append_stmt(open.back(), s, kind); }
  void enter_loop(const Loop&) { open.push_back(ordered_json::array()); }
  void leave_loop(const Loop&) { close("body"); }
  void enter_branch(const Cond&, bool) { open.push_back(ordered_json::array()); }
  void leave_branch(const Cond&, bool then) { close(then ? "then" : "else"); }
  void close(const char* key) {
    ordered_json inner = std::move(open.back());
    open.pop_back();
    open.back().back()[key] = std::move(inner);
  }
};

}  // namespace

namespace {

// The compact dump of a program's statements, written straight to text where the form is the
// common one (an impl's register operations and instructions with waits and signals, blocks,
// loops, conds) and through the tree above for the rest (trip rules, barriers, a spec's
// footprints and extras). The same bytes as dumping the tree (tests/formats: every corpus file and
// generated programs against detail::program_by_tree); building and dumping a tree per item was most of the
// writer's time on a kernel of 10,000 nests.
class CompactEmitter {
 public:
  CompactEmitter(std::string& out, ProgramKind kind) : out_(out), kind_(kind) {}

  // model::walk's hooks. A statement's elements of its body's array (several for a block with a
  // program order), each after a comma unless first in the array; a loop's body and a cond's
  // branches are arrays opened and closed around their statements.
  void stmt(const Stmt& s, std::size_t) {
    if (const auto* b = std::get_if<Block>(&s.node)) {
      if (!b->order.empty()) return ordered(*b);
      if (!unique_engines(*b)) return via_tree(s);
      element();
      out_ += "{\"block\":{";
      for (std::size_t k = 0; k < b->streams.size(); ++k) {
        if (k > 0) out_ += ',';
        string(b->streams[k].engine);
        out_ += ":[";
        items(b->streams[k].items);
        out_ += ']';
      }
      out_ += "}}";
      return;
    }
    element();
    if (const auto* l = std::get_if<Loop>(&s.node)) {
      out_ += "{\"loop\":";
      string(l->id);
      if (l->trip) {
        out_ += ",\"trip\":";
        out_ += dump_compact(trip(*l->trip, false));
      }
      if (l->sim_trip) {
        out_ += ",\"sim_trip\":";
        out_ += std::to_string(*l->sim_trip);
      }
      return;
    }
    const auto& c = std::get<Cond>(s.node);
    out_ += "{\"cond\":";
    string(c.id);
    if (c.taken) {
      out_ += ",\"taken\":";
      out_ += dump_compact(trip(*c.taken, true));
    }
  }
  void enter_loop(const Loop&) { open(",\"body\":["); }
  void leave_loop(const Loop&) { close("]}"); }
  void enter_branch(const Cond&, bool then) { open(then ? ",\"then\":[" : ",\"else\":["); }
  void leave_branch(const Cond&, bool then) { close(then ? "]" : "]}"); }

 private:
  std::string& out_;
  ProgramKind kind_;
  std::vector<bool> first_{true};  // per open array: nothing written in it yet

  void element() {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
  void open(const char* text) {
    out_ += text;
    first_.push_back(true);
  }
  void close(const char* text) {
    out_ += text;
    first_.pop_back();
  }

  // A JSON string: printable ASCII other than '"' and '\' stands as it is (every name the tool
  // makes); anything else is left to nlohmann (escapes, UTF-8 checked and replaced).
  void string(const std::string& s) {
    for (const unsigned char ch : s)
      if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\') {
        out_ += dump_compact(ordered_json(s));
        return;
      }
    out_ += '"';
    out_ += s;
    out_ += '"';
  }

  static bool unique_engines(const Block& b) {
    for (std::size_t i = 0; i < b.streams.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (b.streams[i].engine == b.streams[j].engine) return false;
    return true;
  }

  void via_tree(const Stmt& s) {
    ordered_json elems = ordered_json::array();
    append_stmt(elems, s, kind_);
    for (const auto& e : elems) {
      element();
      out_ += dump_compact(e);
    }
  }

  // As ordered_block: one block object per run of an engine's items.
  void ordered(const Block& b) {
    std::uint32_t run = UINT32_MAX;
    bool any = false;
    for (const auto& [si, ii] : b.in_program_order()) {
      if (si != run) {
        if (run != UINT32_MAX) out_ += "]}}";
        element();
        out_ += "{\"block\":{";
        string(b.streams[si].engine);
        out_ += ":[";
        run = si;
        any = false;
      }
      if (any) out_ += ',';
      any = true;
      item(b.streams[si].items[ii]);
    }
    if (run != UINT32_MAX) out_ += "]}}";
  }

  void items(const std::vector<Item>& list) {
    for (std::size_t k = 0; k < list.size(); ++k) {
      if (k > 0) out_ += ',';
      item(list[k]);
    }
  }

  // As item() above, for the forms an impl is made of.
  void item(const Item& it) {
    if (const auto* op = std::get_if<RegOp>(&it)) {
      out_ += "{\"set\":";
      string(op->dst);
      out_ += ",\"expr\":";
      if (op->expr.is_constant()) out_ += std::to_string(op->expr.nodes[0].value);
      else string(op->expr.to_string());
      out_ += '}';
      return;
    }
    const auto* in = std::get_if<Instr>(&it);
    if (!in || !in->extra->empty() || !in->footprint->empty() || (kind_ == ProgramKind::Spec && in->waits.empty() && !in->signal)) {
      out_ += dump_compact(syncbisim::formats::item(it, kind_));
      return;
    }
    if (in->waits.empty() && !in->signal) {
      string(in->id);
      return;
    }
    out_ += "{\"instr\":";
    string(in->id);
    if (!in->waits.empty()) {
      out_ += ",\"wait\":[";
      for (std::size_t k = 0; k < in->waits.size(); ++k) {
        const auto& w = in->waits[k];
        out_ += k > 0 ? ",{\"sem\":" : "{\"sem\":";
        string(w.sem);
        out_ += ",\"ge\":";
        if (const auto* r = std::get_if<std::string>(&w.ge)) string(*r);
        else out_ += std::to_string(std::get<std::uint64_t>(w.ge));
        out_ += '}';
      }
      out_ += ']';
    }
    if (in->signal) {
      out_ += ",\"signal\":";
      if (in->signal->add == 1) {
        string(in->signal->sem);
      } else {
        out_ += "{\"sem\":";
        string(in->signal->sem);
        out_ += ",\"add\":";
        out_ += std::to_string(in->signal->add);
        out_ += '}';
      }
    }
    out_ += '}';
  }
};

// The document in compact form (nlohmann's indent -1), byte for byte as nlohmann would dump one
// tree of it, with a final newline. The program array is written by CompactEmitter; the other
// members are small and dumped from trees.
std::string render_compact(const Program& p) {
  const auto dump = dump_compact;
  std::string out = "{";
  bool first = true;
  const auto member = [&](const char* key) {
    out += first ? "\"" : ",\"";
    first = false;
    out += key;
    out += "\":";
  };
  member("syncbisim");
  out += dump(p.kind == ProgramKind::Spec ? "spec/1" : "impl/1");
  member("engines");
  out += dump(p.engines);
  if (p.kind == ProgramKind::Impl || !p.semaphores.empty()) {
    member("semaphores");
    out += dump(p.semaphores);
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
    out += dump(bufs);
  }
  member("program");
  out += "[";
  CompactEmitter emit(out, p.kind);
  walk(p.body, emit);
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
    out += dump(deps);
  }
  out += "}\n";
  return out;
}

// nlohmann's layout at indent 2 of a compact dump (with its final newline): each element of a
// non-empty array or object on a line of its own, two spaces deeper per level, ": " after a key,
// "[]" and "{}" for empty ones; strings copied as they are. `Out` is std::string (the text) or
// std::uint64_t (only its length, to decide before writing it). Hand-written rather than a
// second dump by nlohmann: one dump is a few seconds on a kernel of 10,000 nests, and the
// decision between the two layouts needed the pretty one dumped up to the size limit first
// (docs/choices.md, the table).
template <class Out>
void reindent(const std::string& compact, Out& out) {
  constexpr bool kText = std::is_same_v<Out, std::string>;
  const auto put = [&](std::string_view t) {
    if constexpr (kText) out.append(t);
    else out += t.size();
  };
  std::size_t depth = 0;
  const auto newline = [&] {
    if constexpr (kText) {
      out += '\n';
      out.append(2 * depth, ' ');
    } else {
      out += 1 + 2 * depth;
    }
  };
  const std::string_view c(compact);
  for (std::size_t i = 0; i < c.size(); ++i) {
    const char ch = c[i];
    switch (ch) {
      case '"': {
        std::size_t j = i + 1;
        while (c[j] != '"') j += c[j] == '\\' ? 2 : 1;
        put(c.substr(i, j - i + 1));
        i = j;
        break;
      }
      case '[':
      case '{':
        if (c[i + 1] == ']' || c[i + 1] == '}') {
          put(c.substr(i, 2));
          ++i;
          break;
        }
        put(c.substr(i, 1));
        ++depth;
        newline();
        break;
      case ']':
      case '}':
        --depth;
        newline();
        put(c.substr(i, 1));
        break;
      case ',':
        put(",");
        newline();
        break;
      case ':':
        put(": ");
        break;
      default:
        put(c.substr(i, 1));
    }
  }
}

}  // namespace

namespace detail {

std::string program_by_tree(const Program& p) {
  TreeBuilder tree{p.kind};
  walk(p.body, tree);
  return dump_compact(tree.open.front());
}

}  // namespace detail

std::string write_json(const Program& p, std::uint64_t compact_past) {
  // Indented for people; a program so large that its indentation would take it past the input
  // size limit (a kernel of 10,000 nests: 133 MB, 65% of it spaces) is written compact instead,
  // so that what the tool writes it can read back (docs/formats.md "Input size").
  auto compact = render_compact(p);
  std::uint64_t pretty_size = 0;
  reindent(compact, pretty_size);
  if (pretty_size > compact_past) return compact;
  std::string pretty;
  pretty.reserve(pretty_size);
  reindent(compact, pretty);
  return pretty;
}

}  // namespace syncbisim::formats
