// read_text: the line-oriented text format (docs/formats.md has the grammar). A line is a
// statement; '{' ends a loop or cond header and a line starting with '}' closes it.
#include <nlohmann/json.hpp>

#include <cctype>
#include <limits>
#include <set>

#include "formats/detail/json_check.h"
#include "formats/detail/name_chars.h"
#include "formats/detail/read_error.h"
#include "formats/detail/text_places.h"
#include "formats/access_parser.h"
#include "formats/expr_parser.h"
#include "formats/text_format.h"
#include "model/quote.h"
#include "model/walk.h"

namespace syncbisim::formats {

namespace {

using namespace model;

// Loops and conds nest at most this deep; checked before recursing (docs/formats.md "Bad input").
constexpr std::size_t kMaxNesting = 200;

using detail::ReadError;


class TextReader {
 public:
  TextReader(std::string_view s, std::optional<ProgramKind> headerless, detail::TextPlaces& places)
      : s_(s), headerless_(headerless), places_(places) {}

  Program run() {
    skip_blank_lines();
    bool have_header = false;
    // "syncbisim:" is a block line of an engine named syncbisim, not the header.
    if (peek_word() == "syncbisim" && !word_then_colon()) {
      const auto at = where();
      word();
      skip_space();
      std::string v;
      while (pos_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[pos_])) && s_[pos_] != '#') v += next();
      if (v == "spec/1") p_.kind = ProgramKind::Spec;
      else if (v == "impl/1") p_.kind = ProgramKind::Impl;
      else fail(at, "bad-version", "unsupported version " + quote(v) + " (this reader knows spec/1 and impl/1)");
      have_header = true;
      end_line();
    }
    p_.body = body(0, "");
    if (!have_header) p_.kind = headerless_ ? *headerless_ : saw_impl_ ? ProgramKind::Impl : ProgramKind::Spec;
    if (p_.kind == ProgramKind::Spec) default_taken(p_.body);
    // Extra fields describe a spec's instructions (a cost model reads them there); an impl's
    // carry none, as in JSON (docs/formats.md), rather than some that writers would drop.
    if (p_.kind == ProgramKind::Impl)
      model::for_each_stream(p_.body, [&](const model::Stream& st) {
        for (const auto& item : st.items)
          if (const auto* in = std::get_if<Instr>(&item); in && !in->extra->empty())
            fail(in->loc.where, "unknown-field",
                 "instruction " + quote(in->id) + ": extra fields belong to the spec's instructions, not the impl's");
      });
    return std::move(p_);
  }

 private:
  // ---- characters ------------------------------------------------------------------------
  bool at_end() const { return pos_ >= s_.size(); }
  char peek(std::size_t k = 0) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  char next() {
    const char c = s_[pos_++];
    if (c == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    return c;
  }
  std::string where() const { return std::to_string(line_) + ":" + std::to_string(col_); }
  [[noreturn]] void fail(const std::string& at, const std::string& rule, const std::string& msg) {
    throw ReadError{make_error(at, rule, msg)};
  }
  [[noreturn]] void fail(const std::string& rule, const std::string& msg) { fail(where(), rule, msg); }

  // What stands at the reader's position, for "unexpected X" and "found X".
  std::string here() const { return quote(char_at(s_, pos_)); }

  // Spaces, tabs and a '#' comment up to (not including) the newline (read_text has turned
  // every CR and CRLF into LF).
  void skip_space() {
    while (!at_end()) {
      const char c = peek();
      if (c == ' ' || c == '\t') {
        next();
      } else if (c == '#') {
        while (!at_end() && peek() != '\n') next();
      } else {
        break;
      }
    }
  }
  void skip_blank_lines() {
    for (;;) {
      skip_space();
      if (at_end() || peek() != '\n') return;
      next();
    }
  }
  bool at_eol() {
    skip_space();
    return at_end() || peek() == '\n';
  }
  void end_line() {
    if (!at_eol()) fail("syntax", "unexpected " + here() + " (expected the end of the line)");
    if (!at_end()) next();
  }
  bool eat(std::string_view tok) {
    skip_space();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    for (std::size_t i = 0; i < tok.size(); ++i) next();
    return true;
  }
  void expect(std::string_view tok, const std::string& context) {
    if (!eat(tok)) {
      const std::string got = at_eol() ? "the end of the line" : here();
      fail("syntax", "expected '" + std::string(tok) + "' " + context + ", found " + got);
    }
  }

  // ---- tokens ----------------------------------------------------------------------------
  std::string peek_word() {
    skip_space();
    std::size_t i = pos_;
    if (i >= s_.size() || !detail::name_start(s_[i])) return "";
    while (i < s_.size() && detail::name_char(s_[i]) && !(s_[i] == '-' && i + 1 < s_.size() && s_[i + 1] == '>')) ++i;
    return std::string(s_.substr(pos_, i - pos_));
  }
  // The word at the position is followed by ':' (not ':='): a block line "ENGINE: ...".
  bool word_then_colon() {
    const std::size_t save = pos_, save_line = line_, save_col = col_;
    word();
    skip_space();
    const bool colon = peek() == ':' && peek(1) != '=';
    pos_ = save, line_ = save_line, col_ = save_col;
    return colon;
  }
  std::string word() {
    std::string w = peek_word();
    for (std::size_t i = 0; i < w.size(); ++i) next();
    return w;
  }
  // Reads the keyword `w` if it comes next (a whole word: "trip" is not the start of "tripped").
  bool keyword(const std::string& w) {
    if (peek_word() != w) return false;
    word();
    return true;
  }
  std::string name(const std::string& what) {
    std::string w = word();
    if (w.empty()) {
      const std::string got = at_eol() ? "the end of the line" : here();
      fail("syntax", "expected " + what + ", found " + got);
    }
    return w;
  }
  std::uint64_t number(const std::string& what, std::uint64_t max) {
    skip_space();
    const auto at = where();
    if (peek() == '-') fail("bad-number", what + " must not be negative");
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("syntax", "expected " + what);
    std::uint64_t v = 0;
    bool overflow = false;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      const auto d = static_cast<std::uint64_t>(next() - '0');
      if (v > (max - d) / 10) overflow = true;
      else v = v * 10 + d;
    }
    if (overflow) fail(at, "bad-number", what + " is larger than " + std::to_string(max));
    return v;
  }
  std::uint32_t u32(const std::string& what) {
    return static_cast<std::uint32_t>(number(what, std::numeric_limits<std::uint32_t>::max()));
  }

  // ---- statements ------------------------------------------------------------------------
  // Reads statements up to a line starting with '}' (consumed by the caller) or the end.
  std::vector<Stmt> body(std::size_t depth, const std::string& opened_at) {
    std::vector<Stmt> out;
    for (;;) {
      skip_blank_lines();
      if (at_end()) {
        if (depth > 0) fail(opened_at, "syntax", "missing '}' for the loop or cond opened here");
        return out;
      }
      if (peek() == '}') {
        if (depth == 0) fail("syntax", "'}' without a matching loop or cond");
        return out;
      }
      const auto at = where();
      const std::string w = peek_word();
      if (w.empty()) fail("syntax", "expected a statement, found " + here());
      // An engine line is "NAME:"; keywords only count when no ':' follows.
      const bool engine_line = word_then_colon();
      if (engine_line) out.push_back(Stmt{engine_block(at)});
      else if (w == "loop") out.push_back(Stmt{loop(depth, at)});
      else if (w == "cond") out.push_back(Stmt{cond(depth, at)});
      else if (w == "engines" || w == "semaphores" || w == "dep" || w == "buffer") top_level(w, depth, at);
      else
        fail("syntax",
             "unknown statement " + quote(w) + " (expected ENGINE:, loop, cond, dep, buffer, engines or semaphores)");
    }
  }

  void top_level(const std::string& w, std::size_t depth, const std::string& at) {
    if (depth > 0) fail(at, "syntax", "'" + w + "' lines belong at the top level");
    word();
    if (w == "dep") {
      p_.deps.push_back(dep(at));
      return;
    }
    if (w == "buffer") {
      p_.buffers.push_back(buffer(at));
      return;
    }
    auto& list = w == "engines" ? p_.engines : p_.semaphores;
    auto& places = w == "engines" ? places_.engines : places_.semaphores;
    if (w == "semaphores") saw_impl_ = true;
    else if (places_.engines_line.empty()) places_.engines_line = at;
    while (!at_eol()) {
      places.push_back(where());
      list.push_back(name("a name"));
    }
    end_line();
  }

  void enter(std::size_t depth, const std::string& at) {
    if (depth + 1 > kMaxNesting)
      fail(at, "too-deep", "loops and conds nest deeper than " + std::to_string(kMaxNesting) + " levels");
  }

  // A loop or cond header up to its id: the keyword ("loop", "cond") and the id.
  template <class Node>
  Node headed(const std::string& at, const std::string& what) {
    word();
    Node n;
    n.loc = Loc{at};
    n.id = name(what);
    return n;
  }

  Loop loop(std::size_t depth, const std::string& at) {
    auto l = headed<Loop>(at, "a loop id");
    if (keyword("trip")) l.trip = trip(false);
    if (keyword("sim_trip")) l.sim_trip = u32("a simulation trip count");
    expect("{", "after the loop header");
    end_line();
    enter(depth, at);
    l.body = body(depth + 1, at);
    close_brace();
    end_line();
    return l;
  }

  Cond cond(std::size_t depth, const std::string& at) {
    auto c = headed<Cond>(at, "a cond id");
    if (keyword("taken")) c.taken = trip(true);
    expect("{", "after the cond header");
    end_line();
    enter(depth, at);
    c.then_body = body(depth + 1, at);
    close_brace();
    if (keyword("else")) {
      const auto else_at = where();
      expect("{", "after 'else'");
      end_line();
      c.else_body = body(depth + 1, else_at);
      close_brace();
    }
    end_line();
    return c;
  }

  void close_brace() { expect("}", "to close the body"); }

  // ---- trips -----------------------------------------------------------------------------
  std::uint32_t value(bool taken) {
    if (taken) {
      const auto w = peek_word();
      if (w == "then" || w == "else") {
        word();
        return w == "then" ? 0 : 1;
      }
      if (!w.empty()) fail("bad-taken", "a branch is 'then' or 'else', not " + quote(w));
    }
    return u32(taken ? "a branch (then, else, 0 or 1)" : "a trip count");
  }

  Choice choice(bool taken) {
    skip_space();
    if (taken && keyword("any")) return RangeTrip{0, 1};
    if (eat("[")) {
      SeqTrip seq;
      if (!eat("]")) {
        do seq.values.push_back(value(taken));
        while (eat(","));
        expect("]", "to close the sequence");
      }
      return seq;
    }
    const std::uint32_t first = value(taken);
    if (eat("..")) return RangeTrip{first, value(taken)};
    return ConstTrip{first};
  }

  TripRule trip(bool taken) {
    if (peek_word() != "per_engine") return TripRule{choice(taken), {}, false};
    word();
    TripRule r;
    r.divergent = true;  // paper §7.5: each engine chooses on its own
    expect("(", "after per_engine");
    std::set<std::string> seen;
    if (eat(")")) return r;
    if (!eat(";")) {
      do {
        const auto at = where();
        auto engine = name("an engine");
        if (!seen.insert(engine).second) fail(at, "duplicate-key", "engine " + quote(engine) + " is listed twice");
        expect(":", "after the engine name");
        r.per_engine.emplace_back(std::move(engine), choice(taken));
      } while (eat(","));
      if (eat(")")) return r;
      expect(";", "before 'default'");
    }
    if (peek_word() != "default") fail("syntax", "expected 'default'");
    word();
    r.uniform = choice(taken);
    expect(")", "to close per_engine(...)");
    return r;
  }

  // ---- dependencies ----------------------------------------------------------------------
  Dependency dep(const std::string& at) {
    Dependency d;
    d.loc = Loc{at};
    d.producer = name("a producer");
    expect("->", "between producer and consumer");
    d.consumer = name("a consumer");
    if (keyword("distance")) {
      do {
        const auto lat = where();
        // @top may be named too (a distance there never binds: it runs once).
        auto loop = eat(model::kTopLoop) ? std::string(model::kTopLoop) : name("a loop id");
        expect("=", "after the loop id");
        // L=*: every iteration of L (docs/semantics.md §2, "Whole iterations").
        const bool star = eat("*");
        const bool fresh = !d.distance.count(loop) && !d.every.count(loop);
        if (!fresh) fail(lat, "duplicate-key", "loop " + quote(loop) + " is given twice");
        if (star) d.every.insert(loop);
        else d.distance.emplace(loop, u32("an offset"));
        eat(",");
      } while (!at_eol());
    }
    end_line();
    return d;
  }

  // ---- buffers and footprints (docs/footprints.md) ----------------------------------------
  // buffer NAME MEMORY [d1, d2, ...]
  Buffer buffer(const std::string& at) {
    Buffer b;
    b.where = at;
    b.name = name("a buffer name");
    const auto mat = where();
    const auto mem = name("a memory (hbm, sbuf or psum)");
    const auto m = model::memory_named(mem);
    if (!m) fail(mat, "bad-memory", "memory " + quote(mem) + " is not one of hbm, sbuf, psum");
    b.memory = *m;
    expect("[", "before the buffer's shape");
    do {
      const auto dat = where();
      const auto d = number("a dimension size", std::uint64_t{1} << 32);
      if (d == 0) fail(dat, "bad-shape", "a dimension of buffer " + quote(b.name) + " has size 0");
      b.shape.push_back(d);
    } while (eat(","));
    expect("]", "to close the shape");
    end_line();
    return b;
  }

  bool clause_keyword() {
    const auto w = peek_word();
    return w == "reads" || w == "writes" || w == "accumulates";
  }

  // After an instruction: `reads A, B`, `writes A`, `accumulates A` in any order.
  void footprint_clauses(Instr& in) {
    while (clause_keyword()) {
      const auto kw = word();
      auto& list = kw == "reads" ? in.footprint.edit().reads : kw == "writes" ? in.footprint.edit().writes : in.footprint.edit().accumulates;
      do list.push_back(access());
      while (eat(","));
    }
  }

  // NAME '[' ... ']' up to the matching bracket on this line, handed to parse_access.
  Access access() {
    skip_space();
    const auto at = where();
    const std::size_t start = pos_;
    while (!at_end() && peek() != '[' && peek() != '\n' && peek() != ',') next();
    if (peek() != '[') fail(at, "bad-access", "expected an access buf[...]");
    while (!at_end() && peek() != ']' && peek() != '\n') next();
    if (peek() != ']') fail(at, "bad-access", "missing ']' to close the access");
    next();
    auto a = parse_access(s_.substr(start, pos_ - start), at);
    if (!a) throw ReadError{a.error()};
    return std::move(*a);
  }

  // ---- engine lines ----------------------------------------------------------------------
  Block engine_block(const std::string& at) {
    Block b;
    b.loc = Loc{at};
    Stream s{word(), {}};
    expect(":", "after the engine name");
    std::vector<Wait> pending;  // waits written before the instruction they guard
    std::string pending_at;
    bool last_is_instr = false;
    while (!at_eol()) {
      const auto iat = where();
      if (peek() == '[') {
        if (!pending.empty()) fail(iat, "syntax", "waits must be followed by an instruction");
        RegOp op = regop(iat);
        s.items.emplace_back(std::in_place_type<RegOp>, std::move(op));
        last_is_instr = false;
      } else if (peek() == '{') {
        next();
        if (sync_group(s, pending, last_is_instr)) pending_at = iat;
        else last_is_instr = false;  // one signal per instruction
      } else if (peek_word() == "barrier") {
        if (!pending.empty()) fail(iat, "syntax", "waits must be followed by an instruction");
        Barrier bar = barrier(iat);
        s.items.emplace_back(std::in_place_type<Barrier>, std::move(bar));
        last_is_instr = false;
      } else if (detail::name_start(peek())) {
        Instr in;
        in.loc = Loc{iat};
        in.id = word();
        if (peek() == '@') extras(in);
        footprint_clauses(in);
        in.waits = std::move(pending);
        pending.clear();
        s.items.emplace_back(std::in_place_type<Instr>, std::move(in));
        last_is_instr = true;
      } else {
        fail("syntax", "unexpected " + here() + " on an engine line");
      }
    }
    if (!pending.empty()) fail(pending_at, "syntax", "waits must be followed by an instruction on the same line");
    end_line();
    b.streams.push_back(std::move(s));
    return b;
  }

  // After '{': either waits "s >= x, ..." (returns true) or a signal "s += n" / "s++" that
  // attaches to the instruction just read (returns false).
  bool sync_group(Stream& s, std::vector<Wait>& pending, bool last_is_instr) {
    saw_impl_ = true;
    const auto at = where();
    auto sem = name("a semaphore");
    const bool plus_eq = eat("+=");
    if (plus_eq || eat("++")) {
      const std::uint32_t add = plus_eq ? u32("a signal increment") : 1;
      expect("}", "to close the signal");
      if (!last_is_instr) fail(at, "syntax", "a signal on " + quote(sem) + " must follow an instruction");
      auto& in = std::get<Instr>(s.items.back());
      in.signal = Signal{std::move(sem), add};
      return false;
    }
    for (;;) {
      expect(">=", "in a wait {sem >= x}");
      Wait w;
      w.sem = std::move(sem);
      skip_space();
      if (detail::name_start(peek())) w.ge = word();
      else w.ge = number("a wait threshold", std::numeric_limits<std::uint64_t>::max());
      pending.push_back(std::move(w));
      if (eat("}")) return true;
      expect(",", "between waits");
      sem = name("a semaphore");
    }
  }

  RegOp regop(const std::string& at) {
    saw_impl_ = true;
    next();  // '['
    RegOp op;
    op.loc = Loc{at};
    op.dst = name("a register");
    if (eat("++")) {  // the paper's [rA++]
      op.expr = Expr::binary(ExprOp::Add, Expr::reg(op.dst), Expr::constant(1));
      expect("]", "to close the register operation");
      return op;
    }
    expect(":=", "in a register operation [r := expr]");
    skip_space();
    const auto eat_at = where();
    const std::size_t start = pos_;
    while (!at_end() && peek() != ']' && peek() != '\n') next();
    if (peek() != ']') fail("syntax", "missing ']' to close the register operation");
    auto e = parse_expr(s_.substr(start, pos_ - start), eat_at);
    if (!e) throw ReadError{e.error()};
    op.expr = std::move(*e);
    next();  // ']'
    return op;
  }

  Barrier barrier(const std::string& at) {
    saw_impl_ = true;
    word();
    Barrier b;
    b.loc = Loc{at};
    if (peek() == '(') {  // barrier(s0, s1) resets those; barrier() none; bare barrier all
      next();
      b.reset.emplace();
      if (!eat(")")) {
        do b.reset->push_back(name("a semaphore"));
        while (eat(","));
        expect(")", "to close the barrier's list");
      }
    }
    return b;
  }

  // I0@{"op": "dma_load"}: a JSON object right after the id. Scan to the matching brace
  // (honouring strings), then let nlohmann parse it.
  void extras(Instr& in) {
    next();  // '@'
    const auto at = where();
    if (peek() != '{') fail("syntax", "expected a JSON object after '@'");
    const std::size_t start = pos_;
    std::size_t depth = 0;
    bool in_string = false, escaped = false;
    while (!at_end()) {
      const char c = next();
      if (in_string) {
        if (c == '\n') break;
        if (escaped) escaped = false;
        else if (c == '\\') escaped = true;
        else if (c == '"') in_string = false;
        continue;
      }
      if (c == '"') in_string = true;
      else if (c == '{' || c == '[') ++depth;
      else if (c == '}' || c == ']') {
        if (--depth == 0) break;
      } else if (c == '\n') {
        break;
      }
    }
    if (depth != 0) fail(at, "bad-json", "unterminated JSON object after '@' (it must end on the same line)");
    const auto text = s_.substr(start, pos_ - start);
    if (auto bad = detail::check_json(text)) fail(at, bad->rule, "in the extra fields: " + bad->message);
    const auto j = nlohmann::ordered_json::parse(text.begin(), text.end());
    if (!j.is_object()) fail(at, "bad-type", "extra fields must be a JSON object");
    for (const auto& [key, value] : j.items()) {
      if (key == "id") fail(at, "duplicate-key", "'id' is the instruction id itself, not an extra field");
      if (key == "reads" || key == "writes" || key == "accumulates")
        fail(at, "duplicate-key",
             "'" + key + "' is a footprint clause (" + key + " buf[...] after the instruction), not an extra field");
      in.extra.edit().emplace(key, value.dump());
    }
  }

  // A spec's cond without "taken" may take either branch (docs/formats.md: "any" is the default).
  void default_taken(std::vector<Stmt>& stmts) {
    model::for_each_stmt(stmts, [](Stmt& st, const model::LoopPath&) {
      if (auto* c = std::get_if<Cond>(&st.node); c && !c->taken) c->taken = TripRule{RangeTrip{0, 1}, {}, false};
    });
  }

  std::string_view s_;
  std::size_t pos_ = 0, line_ = 1, col_ = 1;
  Program p_;
  std::optional<ProgramKind> headerless_;  // the kind of a program without a header, if the caller knows it
  detail::TextPlaces& places_;             // where the declarations stand, for the loader's messages
  bool saw_impl_ = false;                  // impl-only syntax seen: decides the kind otherwise
};

}  // namespace

namespace detail {

Result<Program> read_text_with_places(std::string_view text, std::optional<ProgramKind> headerless,
                                      TextPlaces& places) {
  // docs/formats.md "Encoding, line endings, trailing content": a UTF-8 byte order mark is skipped, and CR, LF and CRLF
  // all end a line; the reader proper sees LF only (line:col counts lines the same way).
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::string lf;
  lf.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      lf += text[i];
    } else {
      lf += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    }
  }
  // check_json accepts the extra fields before they are parsed.
  return detail::read([&] { return TextReader(lf, headerless, places).run(); }, "1:1", "the extra fields");
}

std::string text_place(const TextPlaces& places, const std::string& pointer) {
  const auto indexed = [&](const std::string& prefix, const std::vector<std::string>& at) -> std::string {
    if (pointer.rfind(prefix, 0) != 0) return "";
    const auto rest = pointer.substr(prefix.size());
    if (rest.empty() || rest.size() > 9 || rest.find_first_not_of("0123456789") != std::string::npos) return "";
    const auto i = std::stoul(rest);
    return i < at.size() ? at[i] : "";
  };
  if (auto at = indexed("/engines/", places.engines); !at.empty()) return at;
  if (auto at = indexed("/semaphores/", places.semaphores); !at.empty()) return at;
  if (pointer == "/engines") return places.engines_line.empty() ? "1:1" : places.engines_line;
  if (pointer == "/syncbisim") return "1:1";
  return pointer;
}

}  // namespace detail

Result<Program> read_text(std::string_view text, std::optional<ProgramKind> headerless) {
  detail::TextPlaces places;
  return detail::read_text_with_places(text, headerless, places);
}

}  // namespace syncbisim::formats
