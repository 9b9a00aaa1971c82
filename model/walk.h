#pragma once
// Visiting a statement tree: every per-engine stream, or every statement with the loops around
// it, through loops and both branches of conds, in tree order. Many tools need exactly these
// walks; they live here once.
#include <concepts>
#include <cstddef>
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

// A walk with hooks, for the recursions that keep state per loop or per branch, or need a
// statement's place in its list: every statement in pre-order (as find_stmt walks them), calling
// on `v` whichever of these hooks it defines:
//   v.stmt(stmt, index)               each statement, `index` its place in its list; a hook that
//                                     returns a bool stops the walk by returning true
//   v.enter_loop(loop), v.leave_loop(loop)                  around the walk of a loop's body
//   v.enter_branch(cond, then), v.leave_branch(cond, then)  around each branch of a cond, the
//                                     then branch (then = true) first
// A leave hook is called when the walk stops inside, too. Returns true when a hook stopped it.
// `v` may change a statement in stmt() but not what kind it is.
template <class Body, class V>
bool walk(Body& body, V& v) {
  for (std::size_t i = 0; i < body.size(); ++i) {
    auto& stmt = body[i];
    if constexpr (requires { { v.stmt(stmt, i) } -> std::same_as<bool>; }) {
      if (v.stmt(stmt, i)) return true;
    } else if constexpr (requires { v.stmt(stmt, i); }) {
      v.stmt(stmt, i);
    }
    if (auto* l = std::get_if<Loop>(&stmt.node)) {
      if constexpr (requires { v.enter_loop(*l); }) v.enter_loop(*l);
      const bool stopped = walk(l->body, v);
      if constexpr (requires { v.leave_loop(*l); }) v.leave_loop(*l);
      if (stopped) return true;
    } else if (auto* c = std::get_if<Cond>(&stmt.node)) {
      for (const bool then : {true, false}) {
        if constexpr (requires { v.enter_branch(*c, then); }) v.enter_branch(*c, then);
        const bool stopped = walk(then ? c->then_body : c->else_body, v);
        if constexpr (requires { v.leave_branch(*c, then); }) v.leave_branch(*c, then);
        if (stopped) return true;
      }
    }
  }
  return false;
}

// A tree-to-tree transform, bottom up: a loop's body and a cond's branches are transformed first,
// then f(std::move(stmt), out) appends what the statement becomes (none, one or several
// statements) to `out`, the new list.
template <class F>
std::vector<Stmt> transform(std::vector<Stmt> body, F&& f) {
  std::vector<Stmt> out;
  out.reserve(body.size());
  for (auto& stmt : body) {
    if (auto* l = std::get_if<Loop>(&stmt.node)) {
      l->body = transform(std::move(l->body), f);
    } else if (auto* c = std::get_if<Cond>(&stmt.node)) {
      c->then_body = transform(std::move(c->then_body), f);
      c->else_body = transform(std::move(c->else_body), f);
    }
    f(std::move(stmt), out);
  }
  return out;
}

}  // namespace syncbisim::model
