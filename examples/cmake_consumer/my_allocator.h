#pragma once
// A small allocator of "your own", the way a compiler backend would hand one to syncbisim: it
// takes the spec as JSON and returns the impl as JSON. It handles the dependencies whose
// producer sits directly in the innermost loop both ends share (paper section 5.3, the
// per-instruction scheme: s_p >= isgt(rh_S, k) * (r_S - k)) and declines the others.
//
// plant_bug = true forgets the mask isgt(rh_S, k): the consumer then waits for an instance of
// the previous trip of S in the first k iterations of every later trip. Only dependencies with
// an offset, carried by a loop that is entered more than once, show it.
#include <syncbisim/syncbisim.h>
#include <cctype>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace my_compiler {

using nlohmann::ordered_json;

struct Place {
  std::string engine;
  std::vector<std::string> loops;  // enclosing loops, outermost first ("@top" not included)
};

inline void walk(const ordered_json& body, std::vector<std::string>& loops, std::map<std::string, Place>& out) {
  for (const auto& stmt : body) {
    if (stmt.contains("block")) {
      for (const auto& [engine, items] : stmt["block"].items())
        for (const auto& item : items)
          out[item.is_string() ? item.get<std::string>() : item["id"].get<std::string>()] = Place{engine, loops};
    } else if (stmt.contains("loop")) {
      loops.push_back(stmt["loop"]);
      walk(stmt["body"], loops, out);
      loops.pop_back();
    } else {
      for (const char* branch : {"then", "else"}) {
        loops.push_back(stmt["cond"].get<std::string>() + "." + branch);
        if (stmt.contains(branch)) walk(stmt[branch], loops, out);
        loops.pop_back();
      }
    }
  }
}

inline std::string reg(const std::string& prefix, const std::string& loop) {
  std::string r = prefix + "_";
  for (char c : loop) r += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return r;
}

inline std::string allocate(const std::string& spec_json, bool plant_bug) {
  const auto spec = ordered_json::parse(spec_json);
  std::map<std::string, Place> where;
  std::vector<std::string> loops;
  walk(spec["program"], loops, where);

  struct Wait {
    std::string sem, reg, value;
  };
  std::map<std::string, std::vector<Wait>> waits;            // consumer -> its waits
  std::map<std::string, std::string> signals;                // producer -> its semaphore
  std::map<std::string, std::set<std::string>> r_of, rh_of;  // loop -> engines keeping r_loop / rh_loop
  int n = 0;
  const auto deps = spec.value("deps", ordered_json::array());
  for (const auto& dep : deps) {
    const std::string p = dep["producer"], c = dep["consumer"];
    const auto& lp = where[p].loops;
    const auto& lc = where[c].loops;
    std::size_t common = 0;
    while (common < lp.size() && common < lc.size() && lp[common] == lc[common]) ++common;
    if (common != lp.size())
      throw syncbisim::Declined(p + " -> " + c + ": the producer is nested below the shared loop");
    const std::string S = common == 0 ? "@top" : lc[common - 1];
    std::uint64_t k = 0;
    const auto distance = dep.value("distance", ordered_json::object());
    for (const auto& [loop, offset] : distance.items()) {
      if (offset.get<std::uint64_t>() == 0) continue;
      if (loop != S) throw syncbisim::Declined(p + " -> " + c + ": a distance above the shared loop");
      k = offset.get<std::uint64_t>();
    }
    if (S == "@top" && k > 0) continue;  // @top runs once: the target lies before it, nothing is owed
    const std::string engine = where[c].engine;
    std::string value = "1";  // @top runs once
    if (S != "@top") {
      r_of[S].insert(engine);
      value = k == 0 ? reg("r", S) : reg("r", S) + " - " + std::to_string(k);
      if (k > 0 && !plant_bug) {
        rh_of[S].insert(engine);
        value = "isgt(" + reg("rh", S) + ", " + std::to_string(k) + ") * (" + value + ")";
      }
    }
    signals[p] = "s_" + p;
    waits[c].push_back(Wait{"s_" + p, "w" + std::to_string(n++), value});
  }

  // The impl: the spec's tree, counters at the top of every iteration, trip registers reset
  // before their loop, each wait value computed right before its consumer.
  const auto counters = [&](const std::string& loop) {
    ordered_json streams = ordered_json::object();
    for (const auto& e : r_of[loop]) streams[e].push_back({{"set", reg("r", loop)}, {"expr", reg("r", loop) + " + 1"}});
    for (const auto& e : rh_of[loop])
      streams[e].push_back({{"set", reg("rh", loop)}, {"expr", reg("rh", loop) + " + 1"}});
    return streams.empty() ? ordered_json::array() : ordered_json::array({{{"block", streams}}});
  };
  const auto resets = [&](const std::vector<std::string>& of) {
    ordered_json streams = ordered_json::object();
    for (const auto& loop : of)
      for (const auto& e : rh_of[loop]) streams[e].push_back({{"set", reg("rh", loop)}, {"expr", 0}});
    return streams.empty() ? ordered_json::array() : ordered_json::array({{{"block", streams}}});
  };
  std::function<ordered_json(const ordered_json&)> body = [&](const ordered_json& stmts) {
    ordered_json out = ordered_json::array();
    for (const auto& stmt : stmts) {
      if (stmt.contains("block")) {
        ordered_json streams = ordered_json::object();
        for (const auto& [engine, items] : stmt["block"].items()) {
          auto& stream = streams[engine] = ordered_json::array();
          for (const auto& item : items) {
            const std::string id = item.is_string() ? item.get<std::string>() : item["id"].get<std::string>();
            ordered_json instr{{"instr", id}};
            for (const auto& w : waits[id]) {
              stream.push_back({{"set", w.reg}, {"expr", w.value}});
              instr["wait"].push_back({{"sem", w.sem}, {"ge", w.reg}});
            }
            if (signals.count(id)) instr["signal"] = signals[id];
            stream.push_back(instr);
          }
        }
        out.push_back({{"block", streams}});
      } else if (stmt.contains("loop")) {
        ordered_json loop = stmt;
        loop["body"] = counters(stmt["loop"]);
        for (auto& s : body(stmt["body"])) loop["body"].push_back(s);
        for (auto& s : resets({stmt["loop"]})) out.push_back(s);
        out.push_back(loop);
      } else {
        ordered_json cond = stmt;
        const std::string name = stmt["cond"];
        for (const char* branch : {"then", "else"}) {
          cond[branch] = counters(name + "." + branch);
          if (stmt.contains(branch))
            for (auto& s : body(stmt[branch])) cond[branch].push_back(s);
        }
        for (auto& s : resets({name + ".then", name + ".else"})) out.push_back(s);
        out.push_back(cond);
      }
    }
    return out;
  };
  ordered_json impl{{"syncbisim", "impl/1"}, {"engines", spec["engines"]}, {"semaphores", ordered_json::array()}};
  for (const auto& [p, sem] : signals) impl["semaphores"].push_back(sem);
  impl["program"] = body(spec["program"]);
  return impl.dump();
}

}  // namespace my_compiler
