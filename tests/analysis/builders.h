#pragma once
// Test-only builders so analysis tests read like the paper's small programs:
//   spec({"E0", "E1"}, {block({{"E0", {"A", "B"}}}), loop("L", 3, {...})}, {dep("A", "B")})
// Nothing here normalizes: the analysis must read raw (unmerged) trees too.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analysis/correspondence.h"
#include "analysis/dependency_analysis.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::test {

using namespace syncbisim::model;

// A stream item: a bare string is a datapath instruction.
struct It {
  Item item;
  It(const char* id) : item(make_instr(id)) {}  // NOLINT: implicit on purpose, reads like the paper
  It(Item i) : item(std::move(i)) {}            // NOLINT
  static Instr make_instr(std::string id) {
    Instr in;
    in.id = std::move(id);
    return in;
  }
};

struct Lane {
  std::string engine;
  std::vector<It> items;
};

inline Stmt block(std::vector<Lane> lanes) {
  Block b;
  for (auto& lane : lanes) {
    Stream s;
    s.engine = lane.engine;
    for (auto& it : lane.items) s.items.push_back(std::move(it.item));
    b.streams.push_back(std::move(s));
  }
  return Stmt{std::move(b)};
}

inline TripRule trips(Choice c) { return TripRule{std::move(c), {}, false}; }
inline TripRule range(std::uint32_t lo, std::uint32_t hi) { return trips(RangeTrip{lo, hi}); }
inline TripRule seq(std::vector<std::uint32_t> v) { return trips(SeqTrip{std::move(v)}); }

inline Stmt loop(std::string id, std::optional<TripRule> trip, std::vector<Stmt> body) {
  Loop l;
  l.id = std::move(id);
  l.trip = std::move(trip);
  l.body = std::move(body);
  return Stmt{std::move(l)};
}
inline Stmt loop(std::string id, std::uint32_t n, std::vector<Stmt> body) {
  return loop(std::move(id), trips(ConstTrip{n}), std::move(body));
}

// A cond taken "any" way (the range 0..1 over {then, else}).
inline Stmt cond(std::string id, std::vector<Stmt> then_body, std::vector<Stmt> else_body) {
  Cond c;
  c.id = std::move(id);
  c.taken = range(0, 1);
  c.then_body = std::move(then_body);
  c.else_body = std::move(else_body);
  return Stmt{std::move(c)};
}

inline Dependency dep(std::string producer, std::string consumer, std::map<std::string, std::uint32_t> distance = {}) {
  Dependency d;
  d.producer = std::move(producer);
  d.consumer = std::move(consumer);
  d.distance = std::move(distance);
  return d;
}

inline Program program(ProgramKind kind, std::vector<std::string> engines, std::vector<Stmt> body) {
  Program p;
  p.kind = kind;
  p.engines = std::move(engines);
  p.body = std::move(body);
  return p;
}

inline Program spec(std::vector<std::string> engines, std::vector<Stmt> body, std::vector<Dependency> deps = {}) {
  auto p = program(ProgramKind::Spec, std::move(engines), std::move(body));
  p.deps = std::move(deps);
  return p;
}

inline Program impl(std::vector<std::string> engines, std::vector<Stmt> body, std::vector<std::string> sems = {}) {
  auto p = program(ProgramKind::Impl, std::move(engines), std::move(body));
  p.semaphores = std::move(sems);
  return p;
}

// Impl stream items.
inline It set(std::string reg, std::uint64_t value) {
  return It(Item(RegOp{std::move(reg), Expr::constant(value), {}}));
}
inline It sync() { return It(Item(Barrier{})); }
inline It waiting(std::string id, std::string sem, std::uint64_t ge) {
  Instr in = It::make_instr(std::move(id));
  in.waits.push_back(Wait{std::move(sem), ge});
  in.signal = Signal{"s0", 1};
  return It(Item(std::move(in)));
}

inline ProgramIndex index_of(const Program& p) {
  auto ix = ProgramIndex::build(p);
  if (!ix) FAIL("index: ", ix.error().to_string());
  return std::move(ix.value());
}

struct Analyzed {
  ProgramIndex ix;
  analysis::DependencyAnalysis a;
  const analysis::DependencyInfo& operator[](std::size_t i) const { return a.deps.at(i); }
  std::string loop(LoopId l) const { return ix.loops.at(l).name; }
};

inline Analyzed analyze(const Program& p) {
  auto ix = index_of(p);
  auto a = analysis::analyze_dependencies(p, ix);
  return Analyzed{std::move(ix), std::move(a)};
}

inline Status correspond(const Program& s, const Program& i) {
  const auto six = index_of(s), iix = index_of(i);
  return analysis::check_correspondence(s, six, i, iix);
}

}  // namespace syncbisim::test
