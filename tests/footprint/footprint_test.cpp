// The footprint analyses (docs/footprints.md): the derivation (on ISL) judged by the enumerator
// (independent of it) on the bundled kernels and on random kernels; the written graph's races;
// derived graphs allocated and checked, `L=*` dependencies included.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include "support/rapidcheck_doctest.h"

#include <algorithm>
#include <string>

#include "allocator/allocate.h"
#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "footprint/compare.h"
#include "footprint/derive.h"
#include "footprint/enumerate.h"
#include "formats/load.h"
#include "formats/text_format.h"
#include "support/test_files.h"

using namespace syncbisim;

namespace {

formats::LoadedProgram load(const std::string& text) {
  auto r = formats::load_program_text(text, "kernel");
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? std::string() : r.error().to_string()));
  return std::move(*r);
}

formats::LoadedProgram load_file(const std::string& rel) { return load(test::read_text(test::source_dir() / rel)); }

// The executions tried: every one when there are at most 512, else the small plans.
std::vector<footprint::Execution> runs_of(const footprint::Kernel& k) {
  if (auto all = footprint::all_executions(k, 512, 20000)) return std::move(*all);
  std::vector<footprint::Execution> out;
  for (const auto& plan : footprint::small_plans(k, 3, 16)) {
    auto x = footprint::enumerate(k, plan, 20000);
    REQUIRE(x);
    out.push_back(std::move(*x));
  }
  return out;
}

// Conflicts the graph leaves unordered, summed over the executions tried (and whether one deadlocks).
std::size_t unordered(const footprint::Kernel& k, const std::vector<model::Dependency>& graph, bool* deadlock = nullptr) {
  std::size_t n = 0;
  for (const auto& x : runs_of(k)) {
    const auto o = footprint::order_conflicts(k, x, footprint::graph_of(k, graph));
    n += o.unordered.size();
    if (deadlock) *deadlock = *deadlock || o.deadlock;
  }
  return n;
}

bool has_dep(const std::vector<model::Dependency>& g, const std::string& text) {
  return std::any_of(g.begin(), g.end(), [&](const auto& d) { return footprint::dependency_text(d) == text; });
}

// Allocates the spec (with `graph` as its deps) per loop and checks the impl: bisimilar.
void allocate_and_check(model::Program spec, const std::vector<model::Dependency>& graph, allocator::Strategy s) {
  spec.deps = graph;
  auto ix = model::ProgramIndex::build(spec);
  REQUIRE_MESSAGE(ix.ok(), (ix.ok() ? std::string() : ix.error().to_string()));
  allocator::Options o;
  o.strategy = s;
  auto a = allocator::allocate(spec, *ix, o);
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? std::string() : a.error().to_string()));
  auto pair = checker::ProgramPair::make(spec, a->impl);
  REQUIRE_MESSAGE(pair.ok(), (pair.ok() ? std::string() : pair.error().to_string()));
  checker::CheckOptions co;
  co.threads = 1;
  const auto r = checker::check(**pair, co);
  INFO(formats::write_text(spec));
  INFO(formats::write_text(a->impl));
  CHECK(r.verdict == checker::Verdict::Bisimilar);
}

}  // namespace

TEST_CASE("footprints: the double-buffered pipeline's written graph orders every conflict") {
  const auto spec = load_file("corpus/footprints/double_buffer.sb");
  const auto k = footprint::Kernel::of(spec.program, spec.index);
  const auto d = footprint::derive(k);
  CHECK(d.undecided.empty());
  const auto c = footprint::compare(k, spec.program.deps, d);
  CHECK(c.verdict == footprint::GraphVerdict::Ordered);
  CHECK(c.races.empty());
  // Derived: the RAW through the slot, the WAR that bounds the run-ahead (two slots), PSUM's
  // RAW and WAR; the stale RAW two iterations on is implied by the same-iteration one.
  const auto g = d.graph();
  CHECK(has_dep(g, "load -> mm"));
  CHECK(has_dep(g, "mm -> load distance i=2"));
  CHECK(has_dep(g, "mm -> evac"));
  CHECK(has_dep(g, "evac -> mm distance i=1"));
  CHECK_FALSE(has_dep(g, "load -> mm distance i=2"));
  CHECK(unordered(k, g) == 0);
}

TEST_CASE("footprints: a dependency left out on one engine is a race with its fix") {
  const auto spec = load_file("corpus/footprints/missing_evac_store.sb");
  const auto k = footprint::Kernel::of(spec.program, spec.index);
  const auto d = footprint::derive(k);
  const auto c = footprint::compare(k, spec.program.deps, d);
  REQUIRE(c.verdict == footprint::GraphVerdict::Race);
  REQUIRE_FALSE(c.races.empty());
  CHECK(c.races.front().producer == "evac");
  CHECK(c.races.front().consumer == "store");
  CHECK(c.races.front().missing);
  CHECK(c.races.front().fix == "add dep evac -> store");
  CHECK(c.races.front().description.find("RAW on s[") == 0);
  CHECK(unordered(k, spec.program.deps) > 0);
  CHECK(unordered(k, d.graph()) == 0);
}

TEST_CASE("footprints: weight slots reused across an inner loop's restart need k=*") {
  const auto spec = load_file("corpus/footprints/weight_slots.sb");
  const auto k = footprint::Kernel::of(spec.program, spec.index);
  const auto d = footprint::derive(k);
  CHECK(d.undecided.empty());
  const auto g = d.graph();
  CHECK(has_dep(g, "mm -> load_w distance n=1, k=*"));
  CHECK(has_dep(g, "mm -> load_w distance k=2"));
  CHECK(unordered(k, g) == 0);
  // Without the whole-iterations form, the k=2 WAR alone leaves the restart unordered.
  std::vector<model::Dependency> without;
  for (const auto& x : g)
    if (x.every.empty()) without.push_back(x);
  CHECK(unordered(k, without) > 0);
  // The hand-written graph orders it through a proxy (evac -> load_w), shown for every trip count.
  CHECK(footprint::compare(k, spec.program.deps, d).verdict == footprint::GraphVerdict::Ordered);
  for (auto s : {allocator::Strategy::PerLoop, allocator::Strategy::PerInstruction, allocator::Strategy::PerEngine})
    allocate_and_check(spec.program, g, s);
}

TEST_CASE("footprints: the unreduced graph orders every conflict too, and the reduction drops only implied ones") {
  for (const auto& path : test::files_in("corpus/footprints", ".sb")) {
    if (path.string().find(".impl.") != std::string::npos) continue;  // the impls beside the specs
    INFO(path.string());
    const auto spec = load(test::read_text(path));
    const auto k = footprint::Kernel::of(spec.program, spec.index);
    footprint::DeriveOptions all;
    all.reduce = false;
    const auto full = footprint::derive(k, all);
    const auto reduced = footprint::derive(k);
    CHECK(unordered(k, full.graph()) == 0);
    CHECK(unordered(k, reduced.graph()) == 0);
    CHECK(reduced.kept() <= full.kept());
    CHECK(reduced.deps.size() == full.deps.size());
  }
}

TEST_CASE("footprints: hazards, self-instances and accumulation") {
  // scale updates its slot in place: no conflict with itself, a WAW/RAW with its instance two
  // iterations on; two accumulates commute.
  const auto spec = load(R"(syncbisim spec/1
engines DVE PE
buffer u sbuf [2, 64]
buffer p psum [1, 64]
loop i trip 4 {
  DVE: scale reads u[i mod 2, :] writes u[i mod 2, :]
  PE: acc1 accumulates p[0, :]
  PE: acc2 accumulates p[0, :]
}
)");
  const auto k = footprint::Kernel::of(spec.program, spec.index);
  const auto d = footprint::derive(k);
  const auto g = d.graph();
  CHECK(has_dep(g, "scale -> scale distance i=2"));
  for (const auto& x : d.deps) {
    CHECK(x.dep.producer != "acc1");
    CHECK(x.dep.producer != "acc2");
  }
  CHECK(footprint::hazard_between(model::AccessKind::Accumulate, model::AccessKind::Read) == footprint::Hazard::RAW);
  CHECK(footprint::hazard_between(model::AccessKind::Read, model::AccessKind::Accumulate) == footprint::Hazard::WAR);
  CHECK(footprint::hazard_between(model::AccessKind::Write, model::AccessKind::Accumulate) == footprint::Hazard::WAW);
  CHECK_FALSE(footprint::hazard_between(model::AccessKind::Read, model::AccessKind::Read));
  CHECK_FALSE(footprint::hazard_between(model::AccessKind::Accumulate, model::AccessKind::Accumulate));
}

TEST_CASE("footprints: a data-dependent index conflicts with every element of its dimension") {
  const auto spec = load(R"(syncbisim spec/1
engines POOL DVE
buffer x sbuf [8, 16]
loop e trip 1..3 {
  POOL: gather reads x[?, :]
  DVE: update writes x[e, 0 : 4]
}
)");
  const auto k = footprint::Kernel::of(spec.program, spec.index);
  const auto g = footprint::derive(k).graph();
  CHECK(has_dep(g, "gather -> update"));
  CHECK(has_dep(g, "update -> gather distance e=1"));
  CHECK(unordered(k, g) == 0);
}

// ---- random kernels ----------------------------------------------------------------------

namespace {

// A random kernel: a loop i (trip 1..3) around statements and an inner loop j (trip 1..3),
// statements before and after; two or three engines; two buffers; each statement one to three
// accesses with indices that stay inside the shapes for every iteration.
std::string random_kernel() {
  const auto n_engines = *rc::gen::inRange(2, 4);
  std::string out = "syncbisim spec/1\nengines";
  for (int e = 0; e < n_engines; ++e) out += " E" + std::to_string(e);
  out += "\nbuffer a sbuf [6, 4]\nbuffer b sbuf [6]\n";
  int id = 0;
  const auto stmt = [&](const std::vector<std::string>& loops, const std::string& indent) {
    std::string s = indent + "E" + std::to_string(*rc::gen::inRange(0, n_engines)) + ": s" + std::to_string(id++);
    const auto n_acc = *rc::gen::inRange(1, 4);
    for (int a = 0; a < n_acc; ++a) {
      static const char* kinds[] = {" reads ", " writes ", " accumulates "};
      const auto kind = kinds[*rc::gen::inRange(0, 3)];
      // An index in [0, 6): loops run below 3, so i + j <= 4 and i + 1 <= 3.
      std::vector<std::string> idx{"0", "1", "?"};
      for (const auto& l : loops) {
        idx.push_back(l);
        idx.push_back(l + " + 1");
        idx.push_back(l + " mod 2");
        idx.push_back("(" + l + " + 1) // 2");
        idx.push_back("5 - " + l);
      }
      if (loops.size() == 2) idx.push_back(loops[0] + " + " + loops[1]);
      const auto pick = [&] { return idx[static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(idx.size())))]; };
      if (*rc::gen::inRange(0, 2) == 0) {
        s += std::string(kind) + "b[" + pick() + "]";
      } else {
        static const char* second[] = {":", "0 : 2", "1 :", "?", "3"};
        s += std::string(kind) + "a[" + pick() + ", " + second[*rc::gen::inRange(0, 5)] + "]";
      }
    }
    return s + "\n";
  };
  if (*rc::gen::inRange(0, 2)) out += stmt({}, "");
  out += "loop i trip " + std::string(*rc::gen::inRange(0, 2) ? "1..3" : "3") + " {\n";
  for (int s = *rc::gen::inRange(0, 3); s > 0; --s) out += stmt({"i"}, "  ");
  if (*rc::gen::inRange(0, 3)) {
    out += "  loop j trip " + std::string(*rc::gen::inRange(0, 2) ? "1..3" : "2") + " {\n";
    for (int s = *rc::gen::inRange(1, 4); s > 0; --s) out += stmt({"i", "j"}, "    ");
    out += "  }\n";
  }
  for (int s = *rc::gen::inRange(0, 3); s > 0; --s) out += stmt({"i"}, "  ");
  out += "}\n";
  if (*rc::gen::inRange(0, 2)) out += stmt({}, "");
  return out;
}

}  // namespace

TEST_CASE("footprints: random kernels, the derived graph orders every conflict at every trip tried") {
  test::rc_check("derived graphs order every conflict", [] {
    const auto text = random_kernel();
    RC_LOG() << text;
    auto r = formats::load_program_text(text, "random");
    RC_ASSERT(r.ok());
    const auto k = footprint::Kernel::of(r->program, r->index);
    for (bool reduce : {false, true}) {
      footprint::DeriveOptions o;
      o.reduce = reduce;
      const auto d = footprint::derive(k, o);
      RC_ASSERT(d.undecided.empty());
      const auto g = d.graph();
      bool deadlock = false;
      RC_ASSERT(unordered(k, g, &deadlock) == 0u);
      RC_ASSERT(!deadlock);
      // The written graph equal to the derived one is judged ordered for every trip count.
      RC_ASSERT(footprint::compare(k, g, d).verdict == footprint::GraphVerdict::Ordered);
    }
  }, 60);
}

TEST_CASE("footprints: random kernels, the derived graph allocated per loop is bisimilar to its spec") {
  test::rc_check("derived graphs allocate exactly", [] {
    const auto text = random_kernel();
    RC_LOG() << text;
    auto r = formats::load_program_text(text, "random");
    RC_ASSERT(r.ok());
    const auto k = footprint::Kernel::of(r->program, r->index);
    auto spec = r->program;
    spec.deps = footprint::derive(k).graph();
    auto ix = model::ProgramIndex::build(spec);
    RC_ASSERT(ix.ok());
    allocator::Options o;
    o.strategy = allocator::Strategy::PerLoop;
    auto a = allocator::allocate(spec, *ix, o);
    RC_ASSERT(a.ok());
    auto pair = checker::ProgramPair::make(spec, a->impl);
    RC_ASSERT(pair.ok());
    checker::CheckOptions co;
    co.threads = 1;
    co.max_states = 2000000;
    const auto res = checker::check(**pair, co);
    RC_LOG() << formats::write_text(a->impl);
    RC_ASSERT(res.verdict != checker::Verdict::UnderSynchronized);
    RC_ASSERT(res.verdict != checker::Verdict::SpecDeadlock);
  }, 60);
}

TEST_CASE("footprints: removing any dependency the reduction kept leaves a race") {
  // Random kernels have few executions (trips up to 3): every one is enumerated, the reduction is
  // then minimal, and each kept dependency is needed by some conflict in some execution.
  test::rc_check("kept dependencies are needed", [] {
    const auto text = random_kernel();
    RC_LOG() << text;
    auto r = formats::load_program_text(text, "random");
    RC_ASSERT(r.ok());
    const auto k = footprint::Kernel::of(r->program, r->index);
    RC_ASSERT(footprint::all_executions(k, 256, 20000).has_value());
    const auto g = footprint::derive(k).graph();
    for (std::size_t i = 0; i < g.size(); ++i) {
      auto rest = g;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      RC_LOG() << "without " << footprint::dependency_text(g[i]) << "\n";
      RC_ASSERT(unordered(k, rest) > 0u);
    }
  }, 60);
}

TEST_CASE("footprints: every execution of a kernel, trips differing between a loop's entries") {
  const auto spec = load(R"(syncbisim spec/1
engines E0
buffer b sbuf [4]
loop i trip 1..2 {
  loop j trip [1, 2] {
    E0: s writes b[j]
  }
}
)");
  const auto k = footprint::Kernel::of(spec.program, spec.index);
  const auto all = footprint::all_executions(k, 100, 1000);
  REQUIRE(all);
  // i = 1: j runs 1; i = 2: j runs 1 then 2 (the sequence's next value), so two executions.
  REQUIRE(all->size() == 2);
  CHECK((*all)[0].instances.size() == 1);
  CHECK((*all)[1].instances.size() == 3);
  const auto ranged = load(R"(syncbisim spec/1
engines E0
buffer b sbuf [4]
loop i trip 2 {
  loop j trip 0..2 {
    E0: s writes b[j]
  }
}
)");
  const auto k2 = footprint::Kernel::of(ranged.program, ranged.index);
  const auto all2 = footprint::all_executions(k2, 100, 1000);
  REQUIRE(all2);
  CHECK(all2->size() == 9);  // each of the two entries of j picks 0, 1 or 2
  CHECK_FALSE(footprint::all_executions(k2, 8, 1000));
}

TEST_CASE("footprints: random kernels, ISL and the enumerated path derive the same graph") {
  test::rc_check("ISL and enumeration agree", [] {
    const auto text = random_kernel();
    RC_LOG() << text;
    auto r = formats::load_program_text(text, "random");
    RC_ASSERT(r.ok());
    const auto k = footprint::Kernel::of(r->program, r->index);
    footprint::DeriveOptions isl, concrete;
    isl.force_isl = true;
    concrete.max_enumerated_pairs = UINT64_MAX;
    const auto a = footprint::derive(k, isl), b = footprint::derive(k, concrete);
    RC_ASSERT(a.undecided.empty());
    RC_ASSERT(a.deps.size() == b.deps.size());
    for (std::size_t i = 0; i < a.deps.size(); ++i) {
      const auto& x = a.deps[i];
      const auto& y = b.deps[i];
      RC_LOG() << footprint::dependency_text(x.dep) << " / " << footprint::dependency_text(y.dep) << "\n";
      RC_ASSERT(footprint::dependency_text(x.dep) == footprint::dependency_text(y.dep));
      RC_ASSERT(x.carried_by == y.carried_by);
      RC_ASSERT(x.uniform == y.uniform);
      RC_ASSERT(x.distances == y.distances);
      RC_ASSERT(x.over_synchronizes.empty() == y.over_synchronizes.empty());
      RC_ASSERT(x.implied_by == y.implied_by);
      RC_ASSERT(x.why.size() == y.why.size());
      for (std::size_t j = 0; j < x.why.size(); ++j) RC_ASSERT(x.why[j].to_string("p", "c") == y.why[j].to_string("p", "c"));
    }
  }, 60);
}
