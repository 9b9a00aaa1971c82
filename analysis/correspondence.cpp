#include "analysis/correspondence.h"

#include <algorithm>
#include <optional>
#include <variant>

namespace syncbisim::analysis {

namespace {

using model::Diagnostic;
using model::Status;

// A statement list seen the way docs/semantics.md §1 reads it: maximal runs of blocks become one
// region with per-engine datapath instructions (register operations and barriers are the
// impl's own and do not count); a region without instructions disappears.
struct Region {
  std::vector<std::pair<std::string, std::vector<const model::Instr*>>> lanes;  // first-seen engine order
  model::Loc loc;                                                               // of its first block
  const std::vector<const model::Instr*>* lane(const std::string& e) const {
    for (const auto& [name, items] : lanes)
      if (name == e) return &items;
    return nullptr;
  }
};
using Node = std::variant<Region, const model::Loop*, const model::Cond*>;

std::vector<Node> nodes_of(const std::vector<model::Stmt>& body) {
  std::vector<Node> out;
  std::optional<Region> open;
  auto close = [&] {
    if (open && !open->lanes.empty()) out.emplace_back(std::move(*open));
    open.reset();
  };
  for (const auto& stmt : body) {
    if (const auto* b = std::get_if<model::Block>(&stmt.node)) {
      if (!open) {
        open.emplace();
        open->loc = b->loc;
      }
      for (const auto& s : b->streams)
        for (const auto& item : s.items)
          if (const auto* in = std::get_if<model::Instr>(&item)) {
            auto it = std::find_if(open->lanes.begin(), open->lanes.end(),
                                   [&](const auto& l) { return l.first == s.engine; });
            if (it == open->lanes.end()) it = open->lanes.insert(it, {s.engine, {}});
            it->second.push_back(in);
          }
      continue;
    }
    close();
    if (const auto* l = std::get_if<model::Loop>(&stmt.node)) out.emplace_back(l);
    else out.emplace_back(&std::get<model::Cond>(stmt.node));
  }
  close();
  return out;
}

std::string describe(const Node& n) {
  if (const auto* r = std::get_if<Region>(&n)) {
    const auto& [engine, items] = r->lanes.front();
    return "instruction " + items.front()->id + " (engine " + engine + ")";
  }
  if (const auto* l = std::get_if<const model::Loop*>(&n)) return "loop " + (*l)->id;
  return "cond " + std::get<const model::Cond*>(n)->id;
}

const model::Loc& loc_of(const Node& n) {
  if (const auto* r = std::get_if<Region>(&n)) {
    const auto& first = r->lanes.front().second.front()->loc;
    return first.where.empty() ? r->loc : first;
  }
  if (const auto* l = std::get_if<const model::Loop*>(&n)) return (*l)->loc;
  return std::get<const model::Cond*>(n)->loc;
}

class Matcher {
 public:
  Matcher(const model::ProgramIndex& spec_ix, const model::ProgramIndex& impl_ix)
      : spec_ix_(spec_ix), impl_ix_(impl_ix), engines_(spec_ix.engines) {}

  // `where` names the body ("loop A", "branch C.then", "the top level"); `outer` is the
  // place to blame when neither side has a node of its own there.
  Status body(const std::vector<model::Stmt>& spec, const std::vector<model::Stmt>& impl, const std::string& where,
              const model::Loc& spec_outer, const model::Loc& impl_outer) {
    const auto s = nodes_of(spec), i = nodes_of(impl);
    for (std::size_t n = 0; n < std::max(s.size(), i.size()); ++n) {
      if (n >= i.size()) {
        const bool region = std::holds_alternative<Region>(s[n]);
        return error(impl_outer, loc_of(s[n]), region ? "impl-instrs" : "impl-tree",
                     "in " + where + ": the spec has " + describe(s[n]) + " where the impl has nothing more");
      }
      if (n >= s.size()) {
        const bool region = std::holds_alternative<Region>(i[n]);
        return error(loc_of(i[n]), spec_outer, region ? "impl-instrs" : "impl-tree",
                     "in " + where + ": the impl has an extra " + describe(i[n]) + " the spec does not have");
      }
      if (auto st = node(s[n], i[n], where); !st) return st;
    }
    return model::Ok{};
  }

 private:
  Status node(const Node& s, const Node& i, const std::string& where) {
    const auto* sr = std::get_if<Region>(&s);
    const auto* ir = std::get_if<Region>(&i);
    if (sr && ir) return region(*sr, *ir, where);
    if (sr || ir)
      return error(loc_of(i), loc_of(s), "impl-instrs",
                   "in " + where + ": the spec has " + describe(s) + " where the impl has " + describe(i));
    const auto* sl = std::get_if<const model::Loop*>(&s);
    const auto* il = std::get_if<const model::Loop*>(&i);
    if (sl && il) return loop(**sl, **il);
    const auto* sc = std::get_if<const model::Cond*>(&s);
    const auto* ic = std::get_if<const model::Cond*>(&i);
    if (sc && ic) return cond(**sc, **ic);
    return error(loc_of(i), loc_of(s), "impl-tree",
                 "in " + where + ": the spec has " + describe(s) + " where the impl has " + describe(i));
  }

  Status region(const Region& s, const Region& i, const std::string& where) {
    static const std::vector<const model::Instr*> none;
    for (const auto& e : engines_) {
      const auto* sl = s.lane(e);
      const auto* il = i.lane(e);
      const auto& a = sl ? *sl : none;
      const auto& b = il ? *il : none;
      const std::string at = "in " + where + ", engine " + e + ": ";
      for (std::size_t n = 0; n < std::max(a.size(), b.size()); ++n) {
        if (n >= b.size())
          return error(model::Loc{}, a[n]->loc, "impl-instrs",
                       at + "the spec has " + a[n]->id + (b.empty() ? "" : " after " + b.back()->id) +
                           " where the impl has nothing more" + place_in(impl_ix_, "impl", a[n]->id),
                       i.loc);
        if (n >= a.size())
          return error(b[n]->loc, s.loc, "impl-instrs", at + "the impl has an extra " + b[n]->id + hint(b[n]->id, a));
        if (a[n]->id != b[n]->id)
          return error(b[n]->loc, a[n]->loc, "impl-instrs",
                       at + "the spec has " + a[n]->id + " where the impl has " + b[n]->id + hint(b[n]->id, a));
      }
    }
    for (const auto& [e, items] : i.lanes)  // the index rejects undeclared engines; be total
      if (std::find(engines_.begin(), engines_.end(), e) == engines_.end())
        return error(items.front()->loc, s.loc, "impl-engines", "in " + where + ": engine " + e + " is not declared");
    return model::Ok{};
  }

  Status loop(const model::Loop& s, const model::Loop& i) {
    if (s.id != i.id)
      return error(i.loc, s.loc, "impl-tree", "the spec has loop " + s.id + " where the impl has loop " + i.id);
    if (i.trip && s.trip && *i.trip != *s.trip)
      return error(i.loc, s.loc, "impl-trip", "loop " + i.id + ": the impl's trip rule differs from the spec's");
    return body(s.body, i.body, "loop " + s.id, s.loc, i.loc);
  }

  Status cond(const model::Cond& s, const model::Cond& i) {
    if (s.id != i.id)
      return error(i.loc, s.loc, "impl-tree", "the spec has cond " + s.id + " where the impl has cond " + i.id);
    if (i.taken && s.taken && *i.taken != *s.taken)
      return error(i.loc, s.loc, "impl-trip", "cond " + i.id + ": the impl's branch rule differs from the spec's");
    if (auto st = body(s.then_body, i.then_body, "branch " + model::then_loop(s.id), s.loc, i.loc); !st) return st;
    return body(s.else_body, i.else_body, "branch " + model::else_loop(s.id), s.loc, i.loc);
  }

  // Where the impl's instruction `id` is in the spec, for a person who wonders why it does not fit
  // here: later in the same stream (another order), in another loop or engine, or nowhere.
  std::string hint(const std::string& id, const std::vector<const model::Instr*>& spec_lane) const {
    const auto in_lane = std::find_if(spec_lane.begin(), spec_lane.end(), [&](const auto* x) { return x->id == id; });
    if (in_lane != spec_lane.end()) return " (the spec has " + id + " later in this stream: the order differs)";
    return place_in(spec_ix_, "spec", id);
  }
  static std::string place_in(const model::ProgramIndex& ix, const char* side, const std::string& id) {
    const auto i = ix.instr(id);
    if (!i) return std::string(" (") + id + " is not an instruction of the " + side + ")";
    const auto& info = ix.instrs[*i];
    const std::string place = info.parent == model::kTop ? "at the top level" : "in " + ix.loops[info.parent].name;
    return std::string(" (the ") + side + " has " + id + " " + place + ", engine " + ix.engines[info.engine] +
           (info.loc.where.empty() ? "" : ", at " + info.loc.where) + ")";
  }

  // The impl's place when it has one, else the spec's (then `fallback`, the impl's enclosing
  // region), so the message always points somewhere.
  static Diagnostic error(const model::Loc& impl, const model::Loc& spec, std::string rule, std::string message,
                          const model::Loc& fallback = model::Loc{}) {
    std::string place = !impl.where.empty() ? impl.where : !fallback.where.empty() ? fallback.where : spec.where;
    return model::make_error(std::move(place), std::move(rule), std::move(message));
  }

  const model::ProgramIndex& spec_ix_;
  const model::ProgramIndex& impl_ix_;
  const std::vector<std::string>& engines_;
};

std::string list(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return "[" + out + "]";
}

}  // namespace

Status check_correspondence(const model::Program& spec, const model::ProgramIndex& spec_ix, const model::Program& impl,
                            const model::ProgramIndex& impl_ix) {
  if (spec_ix.engines != impl_ix.engines)
    return model::make_error("/engines", "impl-engines",
                             "the spec's engines are " + list(spec_ix.engines) + " but the impl's are " +
                                 list(impl_ix.engines) + " (same names, same order)");
  return Matcher(spec_ix, impl_ix).body(spec.body, impl.body, "the top level", model::Loc{}, model::Loc{});
}

}  // namespace syncbisim::analysis
