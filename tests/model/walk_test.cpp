// model/walk.h on a small hand-built tree: the orders the walks promise, the loops around each
// statement, find_stmt's early exit, and for_each_body going into what its visitor left.
#include <doctest/doctest.h>

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
