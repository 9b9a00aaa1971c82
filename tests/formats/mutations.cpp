#include "formats/mutations.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <sstream>

namespace syncbisim::test {

namespace {

// Bytes that mean something to one of the two grammars, and a few that mean nothing.
constexpr char kBytes[] = {'{', '}', '[', ']', '"', ',', ':', '\\', '\n', ' ', '0', '9',  '-',  '+',
                           'e', '.', '@', '#', '=', '>', '(', ')',  '*',  'I', 'x', '\0', '\t', '\x7f'};

std::string json_value_text(std::uint32_t choice) {
  static constexpr const char* kValues[] = {"null",
                                            "true",
                                            "false",
                                            "0",
                                            "-1",
                                            "4294967296",
                                            "18446744073709551615",
                                            "18446744073709551616",
                                            "1e300",
                                            "1.5",
                                            "\"\"",
                                            "\"x\"",
                                            "\"@top\"",
                                            "\"I0\"",
                                            "[]",
                                            "{}",
                                            "[1]",
                                            "{\"a\":1}",
                                            "\"1 +\"",
                                            "\"isgt(\""};
  return kValues[choice % std::size(kValues)];
}

std::string key_name(std::uint32_t choice) {
  static constexpr const char* kKeys[] = {"",        "x",      "id",       "loop",     "block",      "cond",
                                          "trip",    "body",   "then",     "else",     "taken",      "per_engine",
                                          "default", "deps",   "distance", "engines",  "semaphores", "instr",
                                          "wait",    "signal", "set",      "expr",     "barrier",    "reset",
                                          "min",     "max",    "seq",      "producer", "consumer",   "syncbisim"};
  return kKeys[choice % std::size(kKeys)];
}

using Json = nlohmann::ordered_json;

void collect(const Json& j, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
  out.push_back(at);
  if (j.is_object())
    for (const auto& [k, v] : j.items()) collect(v, at / k, out);
  else if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) collect(j[i], at / i, out);
}

// The nodes an operation applies to.
std::vector<Json::json_pointer> candidates(const Json& root, TreeOp op) {
  std::vector<Json::json_pointer> all, out;
  collect(root, Json::json_pointer{}, all);
  for (const auto& p : all) {
    const bool in_object = !p.empty() && root.at(p.parent_pointer()).is_object();
    const bool non_empty_array = root.at(p).is_array() && !root.at(p).empty();
    switch (op) {
      case TreeOp::DeleteKey:
        if (!p.empty()) out.push_back(p);
        break;
      case TreeOp::RenameKey:
        if (in_object) out.push_back(p);
        break;
      case TreeOp::DuplicateElement:
        if (non_empty_array) out.push_back(p);
        break;
      default: out.push_back(p);
    }
  }
  return out;
}

// The text a DeepNest leaves behind, replaced by the deep nesting after dump().
constexpr const char* kDeepMark =
    "\x01"
    "deep-nest"
    "\x01";

std::string nest(const std::string& inner, std::uint32_t choice) {
  static constexpr std::size_t kDepths[] = {2, 50, 199, 200, 201, 1000, 100000};
  const std::size_t depth = kDepths[(choice / 2) % std::size(kDepths)];
  const bool arrays = choice % 2 == 0;
  std::string out;
  out.reserve(depth * 6 + inner.size());
  for (std::size_t i = 0; i < depth; ++i) out += arrays ? "[" : "{\"a\":";
  out += inner;
  for (std::size_t i = 0; i < depth; ++i) out += arrays ? "]" : "}";
  return out;
}

}  // namespace

std::string apply(std::string s, const ByteMutation& m) {
  const std::size_t n = s.size();
  const std::size_t pos = n == 0 ? 0 : m.pos % (n + 1);
  const char byte = m.len % 3 == 0 ? static_cast<char>(m.byte) : kBytes[m.byte % std::size(kBytes)];
  switch (m.op) {
    case ByteOp::Flip:
      if (n > 0) s[m.pos % n] = static_cast<char>(s[m.pos % n] ^ (1 << (m.byte % 8)));
      break;
    case ByteOp::Insert: s.insert(pos, m.len % 4 + 1, byte); break;
    case ByteOp::Delete: s.erase(pos, m.len % 16 + 1); break;
    case ByteOp::Duplicate: {
      const std::string range = s.substr(pos, m.len % 64 + 1);
      s.insert(std::min(s.size(), pos + range.size()), range);
      break;
    }
    case ByteOp::Truncate: s.resize(pos); break;
  }
  return s;
}

std::string apply(const std::string& text, const LineMutation& m) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  if (lines.empty()) return text;
  const std::size_t i = m.line % lines.size();
  switch (m.op) {
    case LineOp::Delete: lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i)); break;
    case LineOp::Duplicate: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]); break;
    case LineOp::Swap:
      if (i + 1 < lines.size()) std::swap(lines[i], lines[i + 1]);
      break;
    case LineOp::Join:
      if (i + 1 < lines.size()) {
        lines[i] += " " + lines[i + 1];
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      }
      break;
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string apply(const std::string& json, const std::vector<TreeMutation>& ms) {
  Json root = Json::parse(json);
  std::string deep_inner;  // at most one deep nesting per input (the last one wins)
  std::uint32_t deep_choice = 0;
  for (const auto& m : ms) {
    const auto nodes = candidates(root, m.op);
    if (nodes.empty()) continue;
    const auto& at = nodes[m.node % nodes.size()];
    switch (m.op) {
      case TreeOp::DeleteKey: {
        auto& parent = root.at(at.parent_pointer());
        if (parent.is_object()) parent.erase(at.back());
        else parent.erase(static_cast<std::size_t>(std::stoul(at.back())));
        break;
      }
      case TreeOp::ChangeType: root.at(at) = Json::parse(json_value_text(m.choice)); break;
      case TreeOp::DuplicateElement: {
        auto& array = root.at(at);
        const std::size_t i = m.choice % array.size();
        const Json copy = array[i];
        array.insert(array.begin() + static_cast<std::ptrdiff_t>(i), copy);
        break;
      }
      case TreeOp::RenameKey: {
        auto& parent = root.at(at.parent_pointer());
        const Json value = parent[at.back()];
        parent.erase(at.back());
        parent[key_name(m.choice)] = value;
        break;
      }
      case TreeOp::DeepNest:
        deep_inner = root.at(at).dump();
        deep_choice = m.choice;
        root.at(at) = kDeepMark;
        break;
    }
  }
  std::string out = root.dump();
  if (!deep_inner.empty()) {
    const std::string mark = Json(kDeepMark).dump();
    // Earlier mutations may have replaced the marked node again; then there is nothing to splice.
    if (const auto p = out.find(mark); p != std::string::npos)
      out.replace(p, mark.size(), nest(deep_inner, deep_choice));
  }
  return out;
}

std::string printable(const std::string& input) {
  constexpr std::size_t kMax = 3000;
  std::string out;
  for (std::size_t i = 0; i < input.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(input[i]);
    if (c == '\n' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (input.size() > kMax) out += "... (" + std::to_string(input.size()) + " bytes in all)";
  return out;
}

}  // namespace syncbisim::test
