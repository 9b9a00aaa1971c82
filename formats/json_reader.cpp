// read_json: the canonical JSON format of docs/formats.md, read strictly. Every node gets a Loc
// holding its JSON pointer, so later checks (model::ProgramIndex) can name the place.
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <limits>

#include "formats/detail/json_check.h"
#include "formats/detail/read_error.h"
#include "formats/expr_parser.h"
#include "formats/json_format.h"
#include "formats/access_parser.h"
#include "model/quote.h"

namespace syncbisim::formats {

namespace {

using nlohmann::ordered_json;
using namespace model;

using detail::ReadError;

[[noreturn]] void fail(const std::string& place, const std::string& rule, const std::string& message) {
  throw ReadError{make_error(place.empty() ? "/" : place, rule, message)};
}

std::string type_name(const ordered_json& j) {
  switch (j.type()) {
    case ordered_json::value_t::null: return "null";
    case ordered_json::value_t::boolean: return "a boolean";
    case ordered_json::value_t::string: return "a string";
    case ordered_json::value_t::array: return "an array";
    case ordered_json::value_t::object: return "an object";
    case ordered_json::value_t::number_float: return "a fractional number";
    default: return "a number";
  }
}

std::string child(const std::string& at, const std::string& key) { return at + "/" + detail::pointer_token(key); }
std::string child(const std::string& at, std::size_t i) { return at + "/" + std::to_string(i); }

void expect_object(const ordered_json& j, const std::string& at, const std::string& what) {
  if (!j.is_object()) fail(at, "bad-type", what + " must be an object, not " + type_name(j));
}
void expect_array(const ordered_json& j, const std::string& at, const std::string& what) {
  if (!j.is_array()) fail(at, "bad-type", what + " must be an array, not " + type_name(j));
}

// Strictness (docs/formats.md): a field this version does not define is an error, not ignored.
void only_fields(const ordered_json& obj, const std::string& at, std::initializer_list<const char*> allowed) {
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + "'" + a + "'";
      fail(child(at, key), "unknown-field", "unknown field " + quote(key) + " (allowed here: " + list + ")");
    }
  }
}

const ordered_json& field(const ordered_json& obj, const std::string& at, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(at, "missing-field", std::string("missing field '") + key + "'");
  return *it;
}

std::string string_of(const ordered_json& j, const std::string& at, const std::string& what) {
  if (!j.is_string()) fail(at, "bad-type", what + " must be a string, not " + type_name(j));
  return j.get<std::string>();
}

std::uint64_t u64_of(const ordered_json& j, const std::string& at, const std::string& what) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer()) fail(at, "bad-number", what + " must not be negative");
  if (j.is_number_float()) fail(at, "bad-number", what + " must be a whole number that fits in 64 bits");
  fail(at, "bad-type", what + " must be a number, not " + type_name(j));
}

std::uint32_t u32_of(const ordered_json& j, const std::string& at, const std::string& what) {
  const auto v = u64_of(j, at, what);
  if (v > std::numeric_limits<std::uint32_t>::max()) fail(at, "bad-number", what + " does not fit in 32 bits");
  return static_cast<std::uint32_t>(v);
}

std::vector<std::string> names_of(const ordered_json& j, const std::string& at, const std::string& what) {
  expect_array(j, at, what);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(string_of(j[i], child(at, i), "an entry of " + what));
  return out;
}

class JsonReader {
 public:
  Program program(const ordered_json& j) {
    expect_object(j, "", "a program");
    const auto version = j.find("syncbisim");
    if (version == j.end()) fail("/", "bad-version", "missing version tag: \"syncbisim\": \"spec/1\" or \"impl/1\"");
    const std::string v = version->is_string() ? version->get<std::string>() : version->dump();

    if (v == "spec/1") p_.kind = ProgramKind::Spec;
    else if (v == "impl/1") p_.kind = ProgramKind::Impl;
    else
      fail("/syncbisim", "bad-version", "unsupported version " + quote(v) + " (this reader knows spec/1 and impl/1)");
    only_fields(j, "", {"syncbisim", "engines", "semaphores", "buffers", "program", "deps"});
    p_.engines = names_of(field(j, "", "engines"), "/engines", "'engines'");
    // Semaphores in a spec and deps in an impl are read so that ProgramIndex names the rule.
    if (j.contains("semaphores")) p_.semaphores = names_of(j["semaphores"], "/semaphores", "'semaphores'");
    if (j.contains("buffers")) {
      const auto& bufs = j["buffers"];
      expect_array(bufs, "/buffers", "'buffers'");
      for (std::size_t i = 0; i < bufs.size(); ++i) p_.buffers.push_back(buffer(bufs[i], child("/buffers", i)));
    }
    p_.body = body(field(j, "", "program"), "/program", "'program'");
    if (j.contains("deps")) {
      const auto& deps = j["deps"];
      expect_array(deps, "/deps", "'deps'");
      for (std::size_t i = 0; i < deps.size(); ++i) p_.deps.push_back(dep(deps[i], child("/deps", i)));
    }
    return std::move(p_);
  }

 private:
  std::vector<Stmt> body(const ordered_json& j, const std::string& at, const std::string& what) {
    expect_array(j, at, what);
    std::vector<Stmt> out;
    // Recursion depth is bounded: check_json already rejected nesting beyond kMaxJsonDepth.
    for (std::size_t i = 0; i < j.size(); ++i) out.push_back(stmt(j[i], child(at, i)));
    return out;
  }

  Stmt stmt(const ordered_json& j, const std::string& at) {
    expect_object(j, at, "a statement");
    if (j.contains("block")) return Stmt{block(j, at)};
    if (j.contains("loop")) return Stmt{loop(j, at)};
    if (j.contains("cond")) return Stmt{cond(j, at)};
    fail(at, "bad-stmt", "a statement is {\"block\": ...}, {\"loop\": ...} or {\"cond\": ...}");
  }

  Block block(const ordered_json& j, const std::string& at) {
    only_fields(j, at, {"block"});
    Block b;
    b.loc = Loc{at};
    const auto bat = child(at, "block");
    const auto& streams = j["block"];
    expect_object(streams, bat, "a block");
    for (const auto& [engine, items] : streams.items()) {
      const auto sat = child(bat, engine);
      expect_array(items, sat, "the stream of engine " + quote(engine));
      Stream s{engine, {}};
      for (std::size_t i = 0; i < items.size(); ++i) s.items.push_back(item(items[i], child(sat, i)));
      b.streams.push_back(std::move(s));
    }
    return b;
  }

  // A loop's or a cond's place and id (the field `key`).
  template <class Node>
  static Node headed(const ordered_json& j, const std::string& at, const char* key, const std::string& what) {
    Node n;
    n.loc = Loc{at};
    n.id = string_of(j[key], child(at, key), what);
    return n;
  }

  Loop loop(const ordered_json& j, const std::string& at) {
    only_fields(j, at, {"loop", "trip", "sim_trip", "body"});
    auto l = headed<Loop>(j, at, "loop", "a loop id");
    if (j.contains("trip")) l.trip = trip(j["trip"], child(at, "trip"), false);
    else if (p_.kind == ProgramKind::Spec)
      fail(at, "missing-trip", "loop " + quote(l.id) + " of a spec needs a \"trip\"");
    if (j.contains("sim_trip")) l.sim_trip = u32_of(j["sim_trip"], child(at, "sim_trip"), "a simulation trip count");
    l.body = body(field(j, at, "body"), child(at, "body"), "a loop body");
    return l;
  }

  Cond cond(const ordered_json& j, const std::string& at) {
    only_fields(j, at, {"cond", "taken", "then", "else"});
    auto c = headed<Cond>(j, at, "cond", "a cond id");
    // docs/formats.md: "any" is the default in a spec; an impl leaves it to its spec, like trips.
    if (j.contains("taken")) c.taken = trip(j["taken"], child(at, "taken"), true);
    else if (p_.kind == ProgramKind::Spec) c.taken = TripRule{RangeTrip{0, 1}, {}, false};
    if (j.contains("then")) c.then_body = body(j["then"], child(at, "then"), "a then branch");
    if (j.contains("else")) c.else_body = body(j["else"], child(at, "else"), "an else branch");
    return c;
  }

  // A trip value, or for a cond a branch: "then" = 0, "else" = 1 (model::Cond).
  std::uint32_t value(const ordered_json& j, const std::string& at, bool taken) {
    if (taken && j.is_string()) {
      const auto s = j.get<std::string>();
      if (s == "then") return 0;
      if (s == "else") return 1;
      fail(at, "bad-taken", "a branch is \"then\" or \"else\", not " + quote(s));
    }
    return u32_of(j, at, taken ? "a branch" : "a trip count");
  }

  Choice choice(const ordered_json& j, const std::string& at, bool taken) {
    const std::string rule = taken ? "bad-taken" : "bad-trip";
    if (taken && j.is_string() && j.get<std::string>() == "any") return RangeTrip{0, 1};
    if (!j.is_object()) return ConstTrip{value(j, at, taken)};
    if (j.contains("seq")) {
      only_fields(j, at, {"seq"});
      const auto& seq = j["seq"];
      expect_array(seq, child(at, "seq"), "a sequence");
      SeqTrip s;
      for (std::size_t i = 0; i < seq.size(); ++i) s.values.push_back(value(seq[i], child(child(at, "seq"), i), taken));
      return s;
    }
    if (j.contains("min") || j.contains("max")) {
      only_fields(j, at, {"min", "max"});
      return RangeTrip{value(field(j, at, "min"), child(at, "min"), taken),
                       value(field(j, at, "max"), child(at, "max"), taken)};
    }
    fail(at, rule,
         taken ? "taken is \"then\", \"else\", \"any\", {\"seq\": [...]} or {\"per_engine\": ...}"
               : "a trip is an integer, {\"min\", \"max\"}, {\"seq\": [...]} or {\"per_engine\": ...}");
  }

  TripRule trip(const ordered_json& j, const std::string& at, bool taken) {
    if (j.is_object() && j.contains("per_engine")) {
      only_fields(j, at, {"per_engine", "default"});
      TripRule r;
      r.divergent = true;  // paper §7.5: each engine chooses on its own
      const auto pat = child(at, "per_engine");
      const auto& per = j["per_engine"];
      expect_object(per, pat, "per_engine");
      for (const auto& [engine, c] : per.items())
        r.per_engine.emplace_back(engine, choice(c, child(pat, engine), taken));
      // Without "default", unlisted engines use TripRule's own default (one trip / "else").
      if (j.contains("default")) r.uniform = choice(j["default"], child(at, "default"), taken);
      return r;
    }
    return TripRule{choice(j, at, taken), {}, false};
  }

  Item item(const ordered_json& j, const std::string& at) {
    if (j.is_string()) return Instr{j.get<std::string>(), {}, std::nullopt, {}, Loc{at}};
    expect_object(j, at, "a block item");
    if (j.contains("set")) {
      only_fields(j, at, {"set", "expr"});
      RegOp op;
      op.loc = Loc{at};
      op.dst = string_of(j["set"], child(at, "set"), "a register");
      const auto& e = field(j, at, "expr");
      const auto eat = child(at, "expr");
      if (e.is_string()) {
        auto parsed = parse_expr(e.get<std::string>(), eat);
        if (!parsed) throw ReadError{parsed.error()};
        op.expr = std::move(*parsed);
      } else if (e.is_number()) {
        op.expr = Expr::constant(u64_of(e, eat, "an expression"));
      } else {
        fail(eat, "bad-type", "an expression is a string or an integer, not " + type_name(e));
      }
      return op;
    }
    if (j.contains("barrier")) {
      only_fields(j, at, {"barrier"});
      const auto bat = child(at, "barrier");
      const auto& b = j["barrier"];
      expect_object(b, bat, "a barrier");
      only_fields(b, bat, {"reset"});
      Barrier bar;
      bar.loc = Loc{at};
      if (b.contains("reset")) bar.reset = names_of(b["reset"], child(bat, "reset"), "'reset'");
      return bar;
    }
    if (j.contains("instr")) return impl_instr(j, at);
    if (j.contains("id")) {
      if (p_.kind == ProgramKind::Impl)
        fail(child(at, "id"), "unknown-field", "'id' is the spec item form; impl instructions use 'instr'");
      Instr in;
      in.loc = Loc{at};
      in.id = string_of(j["id"], child(at, "id"), "an instruction id");
      // docs/formats.md: extra fields are kept for tools (cost models) and ignored by the semantics;
      // reads, writes and accumulates are the footprint (docs/footprints.md).
      for (const auto& [key, value] : j.items()) {
        if (key == "id") continue;
        if (key == "reads" || key == "writes" || key == "accumulates") {
          const auto kind = key == "reads" ? AccessKind::Read : key == "writes" ? AccessKind::Write : AccessKind::Accumulate;
          const auto kat = child(at, key);
          expect_array(value, kat, "'" + key + "'");
          for (std::size_t i = 0; i < value.size(); ++i) {
            const auto aat = child(kat, i);
            auto a = parse_access(string_of(value[i], aat, "an access"), aat);
            if (!a) throw detail::ReadError{a.error()};
            in.footprint.edit().of(kind).push_back(std::move(*a));
          }
          continue;
        }
        in.extra.edit().emplace(key, value.dump());
      }
      return in;
    }
    fail(at, "bad-item",
         "a block item is an instruction id, {\"instr\": ...}, {\"set\": ...}, {\"barrier\": ...}"
         " or (in a spec) {\"id\": ...}");
  }

  Instr impl_instr(const ordered_json& j, const std::string& at) {
    only_fields(j, at, {"instr", "wait", "signal"});
    Instr in;
    in.loc = Loc{at};
    in.id = string_of(j["instr"], child(at, "instr"), "an instruction id");
    if (j.contains("wait")) {
      const auto wat = child(at, "wait");
      const auto& waits = j["wait"];
      expect_array(waits, wat, "'wait'");
      for (std::size_t i = 0; i < waits.size(); ++i) {
        const auto& w = waits[i];
        const auto at_i = child(wat, i);
        expect_object(w, at_i, "a wait");
        only_fields(w, at_i, {"sem", "ge"});
        Wait wait;
        wait.sem = string_of(field(w, at_i, "sem"), child(at_i, "sem"), "a semaphore");
        const auto& ge = field(w, at_i, "ge");
        if (ge.is_string()) wait.ge = ge.get<std::string>();
        else wait.ge = u64_of(ge, child(at_i, "ge"), "a wait threshold");
        in.waits.push_back(std::move(wait));
      }
    }
    if (j.contains("signal")) {
      const auto sat = child(at, "signal");
      const auto& s = j["signal"];
      if (s.is_string()) {
        in.signal = Signal{s.get<std::string>(), 1};
      } else {
        expect_object(s, sat, "a signal");
        only_fields(s, sat, {"sem", "add"});
        Signal sig;
        sig.sem = string_of(field(s, sat, "sem"), child(sat, "sem"), "a semaphore");
        if (s.contains("add")) sig.add = u32_of(s["add"], child(sat, "add"), "a signal increment");
        in.signal = std::move(sig);
      }
    }
    return in;
  }

  Dependency dep(const ordered_json& j, const std::string& at) {
    expect_object(j, at, "a dependency");
    only_fields(j, at, {"producer", "consumer", "distance"});
    Dependency d;
    d.loc = Loc{at};
    d.producer = string_of(field(j, at, "producer"), child(at, "producer"), "a producer");
    d.consumer = string_of(field(j, at, "consumer"), child(at, "consumer"), "a consumer");
    if (j.contains("distance")) {
      const auto dat = child(at, "distance");
      const auto& dist = j["distance"];
      expect_object(dist, dat, "a distance");
      for (const auto& [loop, k] : dist.items()) {
        // "L": "*": every iteration of L (docs/semantics.md §2, "Whole iterations").
        if (k.is_string() && k.get<std::string>() == "*") d.every.insert(loop);
        else d.distance.emplace(loop, u32_of(k, child(dat, loop), "an offset or \"*\""));
      }
    }
    return d;
  }

  // {"name": "t", "memory": "sbuf", "shape": [2, 128, 512]}
  Buffer buffer(const ordered_json& j, const std::string& at) {
    expect_object(j, at, "a buffer");
    only_fields(j, at, {"name", "memory", "shape"});
    Buffer b;
    b.where = at;
    b.name = string_of(field(j, at, "name"), child(at, "name"), "a buffer name");
    const auto mem = string_of(field(j, at, "memory"), child(at, "memory"), "a memory");
    const auto m = model::memory_named(mem);
    if (!m) fail(child(at, "memory"), "bad-memory", "memory " + quote(mem) + " is not one of hbm, sbuf, psum");
    b.memory = *m;
    const auto sat = child(at, "shape");
    const auto& shape = field(j, at, "shape");
    expect_array(shape, sat, "a shape");
    if (shape.empty()) fail(sat, "bad-shape", "a buffer has at least one dimension");
    for (std::size_t i = 0; i < shape.size(); ++i) {
      const auto d = u64_of(shape[i], child(sat, i), "a dimension size");
      if (d == 0 || d > (std::uint64_t{1} << 32))
        fail(child(sat, i), "bad-shape", "a dimension size is between 1 and 2^32");
      b.shape.push_back(d);
    }
    return b;
  }

  Program p_;
};

}  // namespace

Result<Program> read_json(std::string_view text) {
  // A UTF-8 byte order mark is skipped (docs/formats.md "Encoding, line endings, trailing content"); places count from
  // after it.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (auto bad = detail::check_json(text)) return *bad;
  // check_json has accepted the text, so parse() cannot throw on syntax.
  return detail::read([&] { return JsonReader().program(ordered_json::parse(text.begin(), text.end())); }, "/",
                      "this JSON");
}

}  // namespace syncbisim::formats
