#pragma once
// Visiting a statement tree: every per-engine stream, or every statement with the loops around
// it, through loops and both branches of conds, in tree order. Many tools need exactly these
// walks; they live here once.
#include <string>
#include <variant>
#include <vector>

#include "model/program.h"

namespace syncbisim::model {

template <class Body, class F>
void for_each_stream(Body& body, F&& f) {
  for (auto& stmt : body) {
    if (auto* b = std::get_if<Block>(&stmt.node)) {
      for (auto& s : b->streams) f(s);
    } else if (auto* l = std::get_if<Loop>(&stmt.node)) {
      for_each_stream(l->body, f);
    } else {
      auto& c = std::get<Cond>(stmt.node);
      for_each_stream(c.then_body, f);
      for_each_stream(c.else_body, f);
    }
  }
}

// The loops around a statement, from @top inward (front() is kTopLoop): loop ids, and within a
// cond's branch that branch's loop, then_loop(id) or else_loop(id), as ProgramIndex names them.
using LoopPath = std::vector<std::string>;

namespace detail {
template <class Body, class F, class Found>
bool find_stmt(Body& body, F& f, LoopPath& path, Found& found) {
  for (auto& stmt : body) {
    if (f(stmt, static_cast<const LoopPath&>(path))) {
      found = &stmt;
      return true;
    }
    if (auto* l = std::get_if<Loop>(&stmt.node)) {
      path.push_back(l->id);
      const bool done = find_stmt(l->body, f, path, found);
      path.pop_back();
      if (done) return true;
    } else if (auto* c = std::get_if<Cond>(&stmt.node)) {
      path.push_back(then_loop(c->id));
      bool done = find_stmt(c->then_body, f, path, found);
      if (!done) {
        path.back() = else_loop(c->id);
        done = find_stmt(c->else_body, f, path, found);
      }
      path.pop_back();
      if (done) return true;
    }
  }
  return false;
}
}  // namespace detail

// Every statement in pre-order (a loop or a cond before the statements it holds, a cond's then
// branch before its else branch), with the loops around it, until f(stmt, path) returns true:
// returns that statement, or nullptr when f never did. The one recursion over statements with
// their loops; `f` may change the statement but not what kind it is, and the walk reads a loop's
// or a cond's id as it is after f returns.
template <class Body, class F>
auto find_stmt(Body& body, F&& f) -> decltype(&*body.begin()) {
  decltype(&*body.begin()) found = nullptr;
  LoopPath path{kTopLoop};
  detail::find_stmt(body, f, path, found);
  return found;
}

// Every statement in pre-order, with the loops around it: f(stmt, path), as find_stmt walks them.
template <class Body, class F>
void for_each_stmt(Body& body, F&& f) {
  find_stmt(body, [&f](auto& stmt, const LoopPath& path) {
    f(stmt, path);
    return false;
  });
}

// Every statement list of the tree: the program's body first, then in pre-order each loop's body
// and each cond's then and else bodies: f(body). `f` may change the list it is given (insert,
// remove, reorder); the walk goes on into the list as f left it.
template <class Body, class F>
void for_each_body(Body& body, F&& f) {
  f(body);
  for (auto& stmt : body) {
    if (auto* l = std::get_if<Loop>(&stmt.node)) {
      for_each_body(l->body, f);
    } else if (auto* c = std::get_if<Cond>(&stmt.node)) {
      for_each_body(c->then_body, f);
      for_each_body(c->else_body, f);
    }
  }
}

// Every stream in tree order with the loops around it: f(stream, path).
template <class Body, class F>
void for_each_stream_in(Body& body, F&& f) {
  for_each_stmt(body, [&](auto& stmt, const LoopPath& path) {
    if (auto* b = std::get_if<Block>(&stmt.node))
      for (auto& s : b->streams) f(s, path);
  });
}

}  // namespace syncbisim::model
