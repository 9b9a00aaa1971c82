// model/walk.h on a small hand-built tree: the orders the walks promise, the loops around each
// statement, find_stmt's early exit, for_each_body going into what its visitor left, walk's hooks
// and early exit, and transform.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/walk.h"

using namespace syncbisim::model;

namespace {

Stmt loop(const std::string& id, std::vector<Stmt> body = {}) {
  Loop l;
  l.id = id;
  l.body = std::move(body);
  return Stmt{std::move(l)};
}

Stmt cond(const std::string& id, std::vector<Stmt> then_body, std::vector<Stmt> else_body) {
  Cond c;
  c.id = id;
  c.then_body = std::move(then_body);
  c.else_body = std::move(else_body);
  return Stmt{std::move(c)};
}

Stmt block(const std::string& engine) {
  Block b;
  b.streams.push_back(Stream{engine, {}});
  return Stmt{std::move(b)};
}

// block(E0); loop A { loop B { block(E1) }; block(E2) }; cond C { loop D {} } else { block(E3) }; loop E {}
std::vector<Stmt> tree() {
  std::vector<Stmt> body;
  body.push_back(block("E0"));
  std::vector<Stmt> a;
  a.push_back(loop("B", [] { std::vector<Stmt> b; b.push_back(block("E1")); return b; }()));
  a.push_back(block("E2"));
  body.push_back(loop("A", std::move(a)));
  std::vector<Stmt> then_body;
  then_body.push_back(loop("D"));
  std::vector<Stmt> else_body;
  else_body.push_back(block("E3"));
  body.push_back(cond("C", std::move(then_body), std::move(else_body)));
  body.push_back(loop("E"));
  return body;
}

std::string name(const Stmt& s) {
  if (const auto* l = std::get_if<Loop>(&s.node)) return l->id;
  if (const auto* c = std::get_if<Cond>(&s.node)) return c->id;
  return std::get<Block>(s.node).streams.front().engine;
}

std::string joined(const LoopPath& p) {
  std::string out;
  for (const auto& l : p) out += (out.empty() ? "" : "/") + l;
  return out;
}

}  // namespace

TEST_CASE("for_each_stmt: pre-order, a cond's then branch before its else, with the loops around") {
  const auto body = tree();
  std::vector<std::string> seen;
  for_each_stmt(body, [&](const Stmt& s, const LoopPath& path) { seen.push_back(name(s) + "@" + joined(path)); });
  const std::string top = kTopLoop;
  CHECK(seen == std::vector<std::string>{"E0@" + top, "A@" + top, "B@" + top + "/A", "E1@" + top + "/A/B",
                                         "E2@" + top + "/A", "C@" + top, "D@" + top + "/" + then_loop("C"),
                                         "E3@" + top + "/" + else_loop("C"), "E@" + top});
}

TEST_CASE("find_stmt stops at the first statement its test accepts") {
  const auto body = tree();
  int calls = 0;
  LoopPath where;
  const auto* found = find_stmt(body, [&](const Stmt& s, const LoopPath& path) {
    ++calls;
    if (name(s) != "E3") return false;
    where = path;
    return true;
  });
  REQUIRE(found != nullptr);
  CHECK(name(*found) == "E3");
  CHECK(calls == 8);  // E0 A B E1 E2 C D E3, and not E after it
  CHECK(where.back() == else_loop("C"));
  int all = 0;
  CHECK(find_stmt(body, [&](const Stmt&, const LoopPath&) { return ++all < 0; }) == nullptr);
  CHECK(all == 9);
}

TEST_CASE("find_stmt gives a statement the caller may change") {
  auto body = tree();
  auto* b = find_stmt(body, [](const Stmt& s, const LoopPath&) { return name(s) == "B"; });
  REQUIRE(b != nullptr);
  std::get<Loop>(b->node).id = "B2";
  const auto* again = find_stmt(body, [](const Stmt& s, const LoopPath&) { return name(s) == "B2"; });
  CHECK(again == b);
}

TEST_CASE("for_each_body: the program's body first, then every loop's and branch's in pre-order") {
  auto body = tree();
  std::vector<std::size_t> sizes;
  for_each_body(body, [&](std::vector<Stmt>& b) { sizes.push_back(b.size()); });
  // top (4), A (2), B (1), C then (1), D (0), C else (1), E (0)
  CHECK(sizes == std::vector<std::size_t>{4, 2, 1, 1, 0, 1, 0});

  // A visitor that adds a loop to the empty bodies: the walk goes into what it added.
  int added = 0, visited = 0;
  for_each_body(body, [&](std::vector<Stmt>& b) {
    ++visited;
    if (b.empty() && added < 3) {
      b.push_back(loop("N" + std::to_string(added++)));
    }
  });
  CHECK(added == 3);
  CHECK(visited == 7 + 3);
}

namespace {

// Records every hook walk() calls, in order; stops at the statement named `stop_at`.
struct Recorder {
  std::vector<std::string> events;
  std::string stop_at;
  bool stmt(const Stmt& s, std::size_t index) {
    events.push_back(name(s) + "#" + std::to_string(index));
    return name(s) == stop_at;
  }
  void enter_loop(const Loop& l) { events.push_back("(" + l.id); }
  void leave_loop(const Loop& l) { events.push_back(l.id + ")"); }
  void enter_branch(const Cond& c, bool then) { events.push_back(std::string("(") + (then ? "then " : "else ") + c.id); }
  void leave_branch(const Cond& c, bool then) { events.push_back(c.id + (then ? " then)" : " else)")); }
};

// Only some hooks, and a stmt hook that returns nothing: the walk never stops.
struct LoopDepth {
  int depth = 0, deepest = 0, statements = 0;
  void stmt(const Stmt&, std::size_t) { ++statements; }
  void enter_loop(const Loop&) { deepest = std::max(deepest, ++depth); }
  void leave_loop(const Loop&) { --depth; }
};

}  // namespace

TEST_CASE("walk: every hook in order, with each statement's place in its list") {
  const auto body = tree();
  Recorder r;
  CHECK_FALSE(walk(body, r));
  CHECK(r.events == std::vector<std::string>{"E0#0", "A#1", "(A", "B#0", "(B", "E1#0", "B)", "E2#1", "A)", "C#2",
                                             "(then C", "D#0", "(D", "D)", "C then)", "(else C", "E3#0", "C else)",
                                             "E#3", "(E", "E)"});
  LoopDepth d;
  CHECK_FALSE(walk(body, d));
  CHECK(d.statements == 9);
  CHECK(d.deepest == 2);  // A around B
  CHECK(d.depth == 0);
}

TEST_CASE("walk: a stmt hook that returns true stops it, and the loops and branches it is in are left") {
  const auto body = tree();
  Recorder r;
  r.stop_at = "E1";
  CHECK(walk(body, r));
  CHECK(r.events == std::vector<std::string>{"E0#0", "A#1", "(A", "B#0", "(B", "E1#0", "B)", "A)"});
  Recorder in_cond;
  in_cond.stop_at = "D";
  CHECK(walk(body, in_cond));
  CHECK(in_cond.events.back() == "C then)");
  CHECK(std::count(in_cond.events.begin(), in_cond.events.end(), "(else C") == 0);
}

TEST_CASE("transform: bottom up, a statement becoming none, one or several") {
  // Each loop named "A" or "E" is dropped; each block doubled; a loop is renamed after its body
  // was transformed (its body's size in its name).
  const auto out = transform(tree(), [](Stmt&& s, std::vector<Stmt>& to) {
    if (auto* l = std::get_if<Loop>(&s.node)) {
      if (l->id == "E") return;
      l->id += ":" + std::to_string(l->body.size());
      to.push_back(std::move(s));
      return;
    }
    if (std::holds_alternative<Block>(s.node)) to.push_back(s);
    to.push_back(std::move(s));
  });
  std::vector<std::string> seen;
  for_each_stmt(out, [&](const Stmt& s, const LoopPath&) { seen.push_back(name(s)); });
  // A held B (1 statement, after B's own doubling of E1: 2) and E2 (doubled): 3 statements.
  CHECK(seen == std::vector<std::string>{"E0", "E0", "A:3", "B:2", "E1", "E1", "E2", "E2", "C", "D:0", "E3", "E3"});
}
