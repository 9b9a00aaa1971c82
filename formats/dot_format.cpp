// write_dot: a Graphviz view of a program. Loops (and cond branches) are nested clusters,
// instructions are nodes coloured per engine, dependencies are dashed edges labelled with their
// distance ("A=2"). Impl programs show waits and signals in the labels. Every id is quoted.
#include "formats/dot_format.h"

#include <array>

#include "model/walk.h"

namespace syncbisim::formats {

namespace {

using namespace model;

std::string dot_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

constexpr std::array<const char*, 8> kColours = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f",
                                                 "#cab2d6", "#ffff99", "#8dd3c7", "#bebada"};

class DotWriter {
 public:
  DotWriter(const Program& p, const ProgramIndex& ix) : p_(p), ix_(ix) {}

  std::string run() {
    out_ = "digraph program {\n  compound=true;\n  node [shape=box, style=filled, fontname=\"monospace\"];\n";
    walk(p_.body, *this);
    edges();
    out_ += "}\n";
    return out_;
  }

  // model::walk's hooks: a block's instructions are nodes; a loop's body and each branch of a
  // cond are a cluster, indented two spaces a level.
  void stmt(const Stmt& s, std::size_t) {
    if (const auto* b = std::get_if<Block>(&s.node))
      for (const auto& st : b->streams)
        for (const auto& it : st.items) node(it, st.engine, ind_);
  }
  void enter_loop(const Loop& l) { open(l.id, "loop " + l.id + trip_text(l.trip, false)); }
  void leave_loop(const Loop&) { close(); }
  void enter_branch(const Cond& c, bool then) {
    if (then) open(then_loop(c.id), "cond " + c.id + trip_text(c.taken, true) + ": then");
    else open(else_loop(c.id), "cond " + c.id + ": else");
  }
  void leave_branch(const Cond&, bool) { close(); }

 private:
  void open(const std::string& name, const std::string& label) {
    out_ += ind_ + "subgraph " + dot_quote("cluster_" + name) + " {\n";
    out_ += ind_ + "  label=" + dot_quote(label) + ";\n";
    out_ += ind_ + "  " + dot_quote("anchor_" + name) + " [shape=point, style=invis];\n";
    ind_ += "  ";
  }
  void close() {
    ind_.resize(ind_.size() - 2);
    out_ += ind_ + "}\n";
  }

  std::string colour(const std::string& engine) const {
    const auto e = ix_.engine(engine);
    return kColours[(e ? *e : 0) % kColours.size()];
  }

  static std::string trip_text(const std::optional<TripRule>& t, bool taken) {
    if (!t) return "";
    auto choice = [taken](const Choice& c) -> std::string {
      if (const auto* k = std::get_if<ConstTrip>(&c))
        return taken ? (k->n == 0 ? "then" : "else") : std::to_string(k->n);
      if (const auto* r = std::get_if<RangeTrip>(&c)) {
        if (taken && r->min == 0 && r->max == 1) return "any";
        return std::to_string(r->min) + ".." + std::to_string(r->max);
      }
      std::string s = "[";
      for (auto v : std::get<SeqTrip>(c).values) s += (s.size() > 1 ? "," : "") + std::to_string(v);
      return s + "]";
    };
    std::string s = choice(t->uniform);
    if (t->divergent) {
      s = "per_engine(";
      for (const auto& [e, c] : t->per_engine) s += e + ":" + choice(c) + " ";
      s += "default " + choice(t->uniform) + ")";
    }
    return (taken ? " taken " : " trip ") + s;
  }

  void node(const Item& it, const std::string& engine, const std::string& ind) {
    if (const auto* in = std::get_if<Instr>(&it)) {
      std::string label;
      for (const auto& w : in->waits) {
        label += "{" + w.sem + " >= ";
        if (const auto* r = std::get_if<std::string>(&w.ge)) label += *r;
        else label += std::to_string(std::get<std::uint64_t>(w.ge));
        label += "}\n";
      }
      label += in->id + " @ " + engine;
      if (in->signal) label += "\n{" + in->signal->sem + " += " + std::to_string(in->signal->add) + "}";
      out_ +=
          ind + dot_quote("instr_" + in->id) + " [label=" + dot_quote(label) + ", fillcolor=" + dot_quote(colour(engine)) + "];\n";
      return;
    }
    // Register operations and barriers are control steps: small grey notes on the engine.
    const std::string id = "item_" + std::to_string(next_item_++);
    std::string label;
    if (const auto* op = std::get_if<RegOp>(&it)) {
      label = "[" + op->dst + " := " + op->expr.to_string() + "] @ " + engine;
    } else {
      const auto& b = std::get<Barrier>(it);
      label = "barrier";
      if (b.reset) {
        label += "(";
        for (std::size_t i = 0; i < b.reset->size(); ++i) label += (i ? ", " : "") + (*b.reset)[i];
        label += ")";
      }
      label += " @ " + engine;
    }
    out_ += ind + dot_quote(id) + " [label=" + dot_quote(label) + ", shape=note, fillcolor=\"#eeeeee\"];\n";
  }

  void edges() {
    for (const auto& d : p_.deps) {
      std::string label;
      for (const auto& [loop, k] : d.distance) {
        if (k == 0) continue;
        label += (label.empty() ? "" : ", ") + loop + "=" + std::to_string(k);
      }
      out_ += "  " + dot_quote("instr_" + d.producer) + " -> " + dot_quote("instr_" + d.consumer) + " [style=dashed";
      if (!label.empty()) out_ += ", label=" + dot_quote(label);
      out_ += "];\n";
    }
  }

  const Program& p_;
  const ProgramIndex& ix_;
  std::string out_;
  std::string ind_ = "  ";  // the open clusters' indent
  std::size_t next_item_ = 0;
};

}  // namespace

std::string write_dot(const Program& p, const ProgramIndex& ix) { return DotWriter(p, ix).run(); }

}  // namespace syncbisim::formats
