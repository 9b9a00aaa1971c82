#pragma once
// Facts about a program tree, computed by the tests' own walk (independent of the generators'
// places.h) so that the generator properties check the generators rather than themselves.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "generators/describe.h"
#include "model/index.h"
#include "model/program.h"

namespace syncbisim::test {

struct TreeFacts {
  std::vector<std::string> instr_ids;  // pre-order
  std::vector<std::string> loop_ids;   // loops and conds, pre-order
  std::uint32_t max_depth = 0;         // deepest loop (a cond branch counts), @top = 0
  std::uint32_t loops = 0, conds = 0, divergent_rules = 0, missing_rules = 0;
  std::uint32_t regops = 0, barriers = 0, barrier_resets = 0, waits = 0, register_waits = 0, signals = 0;
  std::uint32_t extras = 0;
  std::set<std::string> engines_used;

  // A tally over many programs: the counts summed, the deepest depth (the ids and engines left out).
  void add_counts(const TreeFacts& f) {
    max_depth = std::max(max_depth, f.max_depth);
    loops += f.loops;
    conds += f.conds;
    divergent_rules += f.divergent_rules;
    missing_rules += f.missing_rules;
    regops += f.regops;
    barriers += f.barriers;
    barrier_resets += f.barrier_resets;
    waits += f.waits;
    register_waits += f.register_waits;
    signals += f.signals;
    extras += f.extras;
  }
};

inline void walk_facts(const std::vector<model::Stmt>& body, std::uint32_t depth, TreeFacts& f) {
  auto rule = [&f](const std::optional<model::TripRule>& r) {
    if (!r) ++f.missing_rules;
    else if (r->divergent) ++f.divergent_rules;
  };
  for (const auto& stmt : body) {
    if (const auto* b = std::get_if<model::Block>(&stmt.node)) {
      for (const auto& s : b->streams) {
        f.engines_used.insert(s.engine);
        for (const auto& item : s.items) {
          if (const auto* in = std::get_if<model::Instr>(&item)) {
            f.instr_ids.push_back(in->id);
            f.waits += static_cast<std::uint32_t>(in->waits.size());
            for (const auto& w : in->waits) f.register_waits += std::holds_alternative<std::string>(w.ge) ? 1 : 0;
            f.signals += in->signal ? 1 : 0;
            f.extras += in->extra->empty() ? 0 : 1;
          } else if (std::holds_alternative<model::RegOp>(item)) {
            ++f.regops;
          } else {
            ++f.barriers;
            f.barrier_resets += std::get<model::Barrier>(item).reset ? 1 : 0;
          }
        }
      }
    } else if (const auto* l = std::get_if<model::Loop>(&stmt.node)) {
      ++f.loops;
      rule(l->trip);
      f.loop_ids.push_back(l->id);
      f.max_depth = std::max(f.max_depth, depth + 1);
      walk_facts(l->body, depth + 1, f);
    } else {
      const auto& c = std::get<model::Cond>(stmt.node);
      ++f.conds;
      rule(c.taken);
      f.loop_ids.push_back(c.id);
      f.max_depth = std::max(f.max_depth, depth + 1);
      walk_facts(c.then_body, depth + 1, f);
      walk_facts(c.else_body, depth + 1, f);
    }
  }
}

inline TreeFacts facts(const model::Program& p) {
  TreeFacts f;
  walk_facts(p.body, 0, f);
  return f;
}

template <class C>
bool all_unique(const C& c) {
  return std::set<typename C::value_type>(c.begin(), c.end()).size() == c.size();
}

// The checks every generated program must pass, spec or impl: a symbol table builds, the
// program is normalized, instruction and loop ids are unique. Returns the tree's facts for the
// kind-specific checks. Call inside a RapidCheck property.
// A program drawn from `gen`, logged for the report of a failing property.
inline model::Program draw_logged(const rc::Gen<model::Program>& gen) {
  auto p = *gen;
  RC_LOG() << generators::describe(p);
  return p;
}

// A generated program of `kind`: it indexes, is normalized, its ids are unique and its loops at
// most `max_depth` deep. Its facts.
inline TreeFacts check_valid_program(const model::Program& p, model::ProgramKind kind, std::uint32_t max_depth) {
  RC_ASSERT(p.kind == kind);
  const auto ix = model::ProgramIndex::build(p);
  if (!ix) RC_FAIL(ix.error().to_string());
  model::Program again = p;
  model::normalize(again);
  RC_ASSERT(again == p);
  auto f = facts(p);
  RC_ASSERT(all_unique(f.instr_ids));
  RC_ASSERT(all_unique(f.loop_ids));
  RC_ASSERT(f.max_depth <= max_depth);
  return f;
}

}  // namespace syncbisim::test
