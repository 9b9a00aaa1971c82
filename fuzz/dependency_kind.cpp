#include "fuzz/dependency_kind.h"

#include <algorithm>

#include "allocator/body_counts.h"

namespace syncbisim::fuzz {

bool DependencyKind::same_kind_as(const DependencyKind& before) const {
  if (carried_at != before.carried_at || cls != before.cls || forward != before.forward ||
      exclusive_branches != before.exclusive_branches)
    return false;
  for (const auto& [loop, k] : before.offsets) {
    const auto it = offsets.find(loop);
    if (it == offsets.end() || it->second < k) return false;
  }
  return true;
}

std::string DependencyKind::to_string() const {
  std::string s = producer + " -> " + consumer + ": carried at " + carried_at;
  if (!offsets.empty()) {
    s += ", offset";
    for (const auto& [loop, k] : offsets) s += " " + loop + "=" + std::to_string(k);
  }
  s += std::string(", ") + analysis::to_string(cls);
  if (exclusive_branches) s += " (exclusive branches)";
  else if (cls == analysis::DepClass::NotAllocatable) s += forward ? " (forward)" : " (backward)";
  s += ", N=" + std::to_string(n) + " K=" + std::to_string(k);
  return s;
}

namespace {

std::string offsets_text(const std::map<std::string, std::uint32_t>& offsets) {
  if (offsets.empty()) return "0";
  std::string s;
  for (const auto& [loop, k] : offsets) s += (s.empty() ? "" : " ") + loop + "=" + std::to_string(k);
  return s;
}

}  // namespace

std::string kept_quantities(const std::vector<DependencyKind>& before, const std::vector<DependencyKind>& after) {
  std::vector<std::string> parts;
  for (const auto& b : before) {
    const auto a = std::find_if(after.begin(), after.end(), [&](const DependencyKind& x) {
      return x.producer == b.producer && x.consumer == b.consumer;
    });
    const std::string who = before.size() > 1 ? b.producer + " -> " + b.consumer + ": " : "";
    if (a == after.end()) {
      parts.push_back(who + "dropped");
      continue;
    }
    std::vector<std::string> q;
    const auto num = [&](const char* name, std::uint32_t x, std::uint32_t y) {
      q.push_back(std::string(name) +
                  (x == y ? "=" + std::to_string(x) : " " + std::to_string(x) + " -> " + std::to_string(y)));
    };
    num("N", b.n, a->n);
    num("K", b.k, a->k);
    const auto ob = offsets_text(b.offsets), oa = offsets_text(a->offsets);
    q.push_back("offset " + (ob == oa ? ob : ob + " -> " + oa));
    q.push_back("carried at " + (b.carried_at == a->carried_at ? b.carried_at : b.carried_at + " -> " + a->carried_at));
    std::string s = who;
    for (std::size_t i = 0; i < q.size(); ++i) s += (i ? ", " : "") + q[i];
    parts.push_back(std::move(s));
  }
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out;
}

std::vector<DependencyKind> dependency_kinds(const model::Program& spec, const model::ProgramIndex& ix) {
  std::vector<DependencyKind> out;
  const auto a = analysis::analyze_dependencies(spec, ix);
  const auto counts = allocator::count_bodies(spec, ix);
  for (const auto& d : a.deps) {
    DependencyKind k;
    k.producer = ix.instrs[d.producer].name;
    k.consumer = ix.instrs[d.consumer].name;
    k.carried_at = ix.loops[d.S].name;
    k.cls = d.cls;
    k.forward = d.forward;
    k.exclusive_branches = d.exclusive_branches;
    for (std::size_t i = 0; i < d.common.size(); ++i)
      if (d.distance[i] > 0) k.offsets[ix.loops[d.common[i]].name] = d.distance[i];
    k.n = counts.loops[d.P].n[d.producer_engine];
    k.k = counts.k[d.producer];
    out.push_back(std::move(k));
  }
  return out;
}

bool keeps_kinds(const std::vector<DependencyKind>& before, const std::vector<DependencyKind>& after,
                 const std::string& keep_consumer) {
  // Matched by (producer, consumer) in order, so a pair that occurs twice matches its own.
  std::map<std::pair<std::string, std::string>, std::vector<const DependencyKind*>> by_pair;
  for (const auto& b : before) by_pair[{b.producer, b.consumer}].push_back(&b);
  std::map<std::pair<std::string, std::string>, std::size_t> seen;
  for (const auto& a : after) {
    const auto key = std::make_pair(a.producer, a.consumer);
    const auto it = by_pair.find(key);
    if (it == by_pair.end()) continue;  // not one of the original dependencies
    const std::size_t n = seen[key]++;
    if (n >= it->second.size()) continue;
    if (!a.same_kind_as(*it->second[n])) return false;
    if (!keep_consumer.empty() && a.consumer == keep_consumer && !a.same_counts(*it->second[n])) return false;
  }
  if (!keep_consumer.empty())
    for (const auto& [key, kinds] : by_pair)
      if (key.second == keep_consumer && seen[key] < kinds.size()) return false;
  return true;
}

}  // namespace syncbisim::fuzz
