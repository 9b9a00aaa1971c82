#include "model/footprint_check.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "model/quote.h"
#include "model/walk.h"

namespace syncbisim::model {

namespace {

struct Interval {
  std::int64_t lo = 0, hi = 0;
};

// Interval arithmetic over the tree; values far from overflow (indices are below 2^40 and trips
// below 2^32), so products of two bounds fit in 64 bits once one factor is a constant.
std::optional<Interval> interval(const IndexExpr& e, const std::function<std::int64_t(const std::string&)>& max_iter) {
  std::vector<Interval> v(e.nodes.size());
  for (std::size_t i = 0; i < e.nodes.size(); ++i) {
    const auto& n = e.nodes[i];
    const auto a = v[n.lhs], b = v[n.rhs];
    Interval r;
    switch (n.op) {
      case IndexOp::Const: r = {n.value, n.value}; break;
      case IndexOp::Loop: r = {0, max_iter(n.loop)}; break;
      case IndexOp::Neg: r = {-a.hi, -a.lo}; break;
      case IndexOp::Add: r = {a.lo + b.lo, a.hi + b.hi}; break;
      case IndexOp::Sub: r = {a.lo - b.hi, a.hi - b.lo}; break;
      case IndexOp::Mul: {
        std::int64_t c[4];
        if (__builtin_mul_overflow(a.lo, b.lo, &c[0]) || __builtin_mul_overflow(a.lo, b.hi, &c[1]) ||
            __builtin_mul_overflow(a.hi, b.lo, &c[2]) || __builtin_mul_overflow(a.hi, b.hi, &c[3]))
          return std::nullopt;
        r = {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
        break;
      }
      case IndexOp::FloorDiv: r = {floor_div(a.lo, b.lo), floor_div(a.hi, b.lo)}; break;
      case IndexOp::Mod:
        // Exact when the operand stays within one period, else every residue.
        if (floor_div(a.lo, b.lo) == floor_div(a.hi, b.lo)) r = {floor_mod(a.lo, b.lo), floor_mod(a.hi, b.lo)};
        else r = {0, b.lo - 1};
        break;
    }
    v[i] = r;
  }
  return v.empty() ? Interval{} : v.back();
}

}  // namespace

std::optional<IndexBounds> index_bounds(const IndexExpr& e,
                                        const std::function<std::int64_t(const std::string&)>& max_iter) {
  const auto r = interval(e, max_iter);
  if (!r) return std::nullopt;
  return IndexBounds{r->lo, r->hi};
}

namespace {

class FootprintChecker {
 public:
  FootprintChecker(const Program& p, const ProgramIndex& ix) : p_(p), ix_(ix) {}

  Status run() {
    if (!p_.has_footprints()) return Ok{};
    if (p_.kind != ProgramKind::Spec) {
      const auto where = p_.buffers.empty() ? std::string("/buffers") : p_.buffers.front().where;
      return make_error(where, "impl-has-footprints", "footprints and buffers belong to a spec, not an impl");
    }
    for (const auto& b : p_.buffers) {
      // docs/formats.md "Names": a letter or '_', then letters, digits, '_', '.' and '-'.
      bool good = !b.name.empty() && (std::isalpha(static_cast<unsigned char>(b.name[0])) || b.name[0] == '_');
      for (char c : b.name)
        good = good && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-');
      if (!good)
        return make_error(b.where, "bad-name",
                          "buffer name " + quote(b.name) + " must start with a letter or '_' and hold only letters, "
                          "digits, '_', '.' and '-'");
      if (!buffers_.emplace(b.name, &b).second)
        return make_error(b.where, "duplicate-buffer", "buffer " + quote(b.name) + " is declared twice");
      if (b.shape.empty()) return make_error(b.where, "bad-shape", "buffer " + quote(b.name) + " has no dimension");
    }
    // The loops' largest iteration numbers (0-based), and whether a trip is of a kind
    // footprints cannot yet be read under.
    for (LoopId l = 1; l < ix_.loops.size(); ++l) {
      const auto& info = ix_.loops[l];
      if (info.kind == LoopKind::CondThen || info.kind == LoopKind::CondElse)
        return make_error(info.loc.where, "footprint-cond",
                          "cond " + quote(info.cond) +
                              ": footprints under conds are not designed yet (docs/footprints.md); write the spec "
                              "without the cond or without footprints");
      if (info.trip && info.trip->divergent)
        return make_error(info.loc.where, "footprint-divergent",
                          "loop " + quote(info.name) +
                              ": footprints with per-engine (divergent) trips are not designed yet (docs/footprints.md)");
      max_iter_[info.name] = info.trip ? static_cast<std::int64_t>(choice_max(info.trip->uniform)) - 1 : 0;
    }
    Status status = Ok{};
    for_each_stream_in(p_.body, [&](const Stream& st, const LoopPath& path) {
      for (const auto& item : st.items)
        if (const auto* in = std::get_if<Instr>(&item); in && status)
          for (auto k : {AccessKind::Read, AccessKind::Write, AccessKind::Accumulate})
            for (const auto& a : in->footprint->of(k))
              if (status) status = access(*in, a, path);
    });
    return status;
  }

 private:
  Status access(const Instr& in, const Access& a, const LoopPath& path) {
    const auto where = a.where.empty() ? in.loc.where : a.where;
    const auto it = buffers_.find(a.buffer);
    if (it == buffers_.end())
      return make_error(where, "undeclared-buffer",
                        "instruction " + quote(in.id) + " accesses " + quote(a.buffer) +
                            ", which no 'buffer' line declares");
    const Buffer& b = *it->second;
    if (a.index.size() != b.shape.size())
      return make_error(where, "bad-rank",
                        "instruction " + quote(in.id) + ": " + a.to_string() + " gives " + std::to_string(a.index.size()) +
                            " indices; buffer " + quote(b.name) + " has " + std::to_string(b.shape.size()) +
                            " dimensions");
    // Loops the index may read: those around the instruction (not @top).
    std::set<std::string> around(path.begin() + 1, path.end());
    bool never_runs = false;
    for (const auto& l : around)
      if (max_iter_.at(l) < 0) never_runs = true;
    const auto max_iter = [&](const std::string& l) { return max_iter_.at(l); };
    for (std::size_t d = 0; d < a.index.size(); ++d) {
      std::vector<const IndexExpr*> exprs;
      bool range = false;
      if (const auto* pt = std::get_if<IndexPoint>(&a.index[d])) exprs.push_back(&pt->at);
      else if (const auto* r = std::get_if<IndexRange>(&a.index[d])) {
        range = true;
        if (r->lo) exprs.push_back(&*r->lo);
        if (r->hi) exprs.push_back(&*r->hi);
      }
      for (const auto* e : exprs) {
        for (const auto& l : e->loops())
          if (!around.count(l))
            return make_error(where, "unknown-loop",
                              "instruction " + quote(in.id) + ": index " + quote(e->to_string()) + " reads " +
                                  quote(l) + ", which is not a loop around the instruction");
        if (never_runs) continue;
        // A point lies in [0, size); a range's ends in [0, size].
        const auto size = static_cast<std::int64_t>(b.shape[d]);
        const std::int64_t top = range ? size : size - 1;
        const auto bounds = index_bounds(*e, max_iter);
        if (bounds && bounds->lo >= 0 && bounds->hi <= top) continue;
        if (auto bad = witness(in, a, d, *e, 0, top, path); !bad) return bad;
      }
    }
    return Ok{};
  }

  // Looks for an iteration where `e` leaves [lo, hi]: at the corners of the iteration box, and
  // over the whole box when it is small; reports the first found.
  Status witness(const Instr& in, const Access& a, std::size_t dim, const IndexExpr& e, std::int64_t lo,
                 std::int64_t hi, const LoopPath& path) {
    const auto loops = e.loops();
    std::vector<std::int64_t> at(loops.size(), 0);
    std::uint64_t points = 1;
    for (const auto& l : loops) points = points > (1u << 20) ? points : points * static_cast<std::uint64_t>(max_iter_.at(l) + 1);
    const bool whole = points <= (1u << 20);
    std::map<std::string, std::int64_t> iter;
    const auto out_of_bounds = [&]() -> std::optional<std::int64_t> {
      for (std::size_t i = 0; i < loops.size(); ++i) iter[loops[i]] = at[i];
      const auto v = e.eval([&](const std::string& l) { return iter.at(l); });
      if (!v || *v < lo || *v > hi) return v ? *v : INT64_MAX;
      return std::nullopt;
    };
    const auto report = [&](std::int64_t v) {
      std::string it;
      for (std::size_t i = 1; i < path.size(); ++i)
        if (iter.count(path[i])) it += (it.empty() ? "" : ", ") + path[i] + "=" + std::to_string(iter[path[i]]);
      return make_error(a.where.empty() ? in.loc.where : a.where, "index-out-of-shape",
                        "instruction " + quote(in.id) + ": " + a.to_string() + " index " + std::to_string(dim + 1) +
                            " is " + (v == INT64_MAX ? std::string("out of range") : std::to_string(v)) +
                            (it.empty() ? std::string() : " at " + it) + ", outside [0, " + std::to_string(hi) +
                            "] for buffer " + quote(a.buffer));
    };
    // Corners first: exact for a linear index.
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << std::min<std::size_t>(loops.size(), 16)); ++mask) {
      for (std::size_t i = 0; i < loops.size(); ++i) at[i] = (mask >> i) & 1 ? max_iter_.at(loops[i]) : 0;
      if (auto v = out_of_bounds()) return report(*v);
    }
    if (!whole) return Ok{};
    std::fill(at.begin(), at.end(), 0);
    for (;;) {
      if (auto v = out_of_bounds()) return report(*v);
      std::size_t i = 0;
      while (i < loops.size() && at[i] == max_iter_.at(loops[i])) at[i++] = 0;
      if (i == loops.size()) return Ok{};
      ++at[i];
    }
  }

  const Program& p_;
  const ProgramIndex& ix_;
  std::map<std::string, const Buffer*> buffers_;
  std::map<std::string, std::int64_t> max_iter_;
};

}  // namespace

Status check_footprints(const Program& p, const ProgramIndex& ix) { return FootprintChecker(p, ix).run(); }

}  // namespace syncbisim::model
