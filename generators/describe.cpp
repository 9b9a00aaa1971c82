#include "generators/describe.h"

#include <sstream>

#include "model/walk.h"

namespace syncbisim::generators {

namespace {

void put_choice(std::ostream& os, const model::Choice& c) {
  if (const auto* k = std::get_if<model::ConstTrip>(&c)) {
    os << k->n;
  } else if (const auto* r = std::get_if<model::RangeTrip>(&c)) {
    os << r->min << ".." << r->max;
  } else {
    os << "[";
    const auto& v = std::get<model::SeqTrip>(c).values;
    for (std::size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
    os << "]";
  }
}

void put_rule(std::ostream& os, const std::optional<model::TripRule>& r) {
  if (!r) {
    os << "-";
    return;
  }
  put_choice(os, r->uniform);
  if (r->divergent) {
    os << " per_engine{";
    for (const auto& [e, c] : r->per_engine) {
      os << " " << e << ":";
      put_choice(os, c);
    }
    os << " }";
  }
}

void put_item(std::ostream& os, const model::Item& item) {
  if (const auto* in = std::get_if<model::Instr>(&item)) {
    os << " " << in->id;
    for (const auto& w : in->waits) {
      os << "{" << w.sem << ">=";
      if (const auto* r = std::get_if<std::string>(&w.ge)) os << *r;
      else os << std::get<std::uint64_t>(w.ge);
      os << "}";
    }
    if (in->signal) os << "{" << in->signal->sem << "+=" << in->signal->add << "}";
    for (const auto& [k, v] : *in->extra) os << "<" << k << "=" << v << ">";
  } else if (const auto* op = std::get_if<model::RegOp>(&item)) {
    os << " [" << op->dst << " := " << op->expr.to_string() << "]";
  } else {
    const auto& b = std::get<model::Barrier>(item);
    os << " barrier";
    if (b.reset) {
      os << "(";
      for (const auto& s : *b.reset) os << " " << s;
      os << " )";
    }
  }
}

// The statements, two spaces a level deeper inside each loop and branch (model::walk).
struct BodyPrinter {
  std::ostream& os;
  std::string pad;

  void stmt(const model::Stmt& stmt, std::size_t) {
    if (const auto* b = std::get_if<model::Block>(&stmt.node)) {
      for (const auto& s : b->streams) {
        os << pad << s.engine << ":";
        for (const auto& item : s.items) put_item(os, item);
        os << "\n";
      }
      os << pad << "--\n";
    } else if (const auto* l = std::get_if<model::Loop>(&stmt.node)) {
      os << pad << "loop " << l->id << " trip ";
      put_rule(os, l->trip);
      os << " {\n";
    } else {
      const auto& c = std::get<model::Cond>(stmt.node);
      os << pad << "cond " << c.id << " taken ";
      put_rule(os, c.taken);
      os << " {\n";
    }
  }
  void enter_loop(const model::Loop&) { pad += "  "; }
  void leave_loop(const model::Loop&) { close(); }
  void enter_branch(const model::Cond&, bool then) {
    if (then) pad += "  ";
    else os << pad.substr(2) << "} else {\n";
  }
  void leave_branch(const model::Cond&, bool then) {
    if (!then) close();
  }
  void close() {
    pad.resize(pad.size() - 2);
    os << pad << "}\n";
  }
};

}  // namespace

std::string describe(const model::Program& p) {
  std::ostringstream os;
  os << (p.kind == model::ProgramKind::Spec ? "spec" : "impl") << " engines";
  for (const auto& e : p.engines) os << " " << e;
  if (!p.semaphores.empty()) {
    os << " semaphores";
    for (const auto& s : p.semaphores) os << " " << s;
  }
  os << "\n";
  BodyPrinter printer{os, ""};
  model::walk(p.body, printer);
  for (const auto& d : p.deps) {
    os << "dep " << d.producer << " -> " << d.consumer;
    for (const auto& [l, k] : d.distance) os << " " << l << ":" << k;
    os << "\n";
  }
  return os.str();
}

}  // namespace syncbisim::generators
