#include "cli/check_batch.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli/inputs.h"
#include "formats/load.h"
#include "parallel/run_indexed.h"

namespace syncbisim::cli {

namespace {

namespace fs = std::filesystem;

const std::vector<std::string>& verdict_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (auto x : {checker::Verdict::Bisimilar, checker::Verdict::OverSynchronized, checker::Verdict::UnderSynchronized,
                   checker::Verdict::SpecDeadlock, checker::Verdict::Inconclusive, checker::Verdict::Overflow})
      v.push_back(checker::to_string(x));
    return v;
  }();
  return names;
}

bool is_verdict(const std::string& s) {
  return std::find(verdict_names().begin(), verdict_names().end(), s) != verdict_names().end();
}

// A path as the output shows it: from the current directory when it lies below it, else whole.
std::string shown(const std::string& p) {
  std::error_code ec;
  const auto abs = fs::absolute(p, ec).lexically_normal();
  const auto rel = abs.lexically_relative(fs::current_path(ec));
  const auto s = rel.string();
  return !s.empty() && s.rfind("..", 0) != 0 ? s : abs.string();
}

// A path of a manifest line or a header: as written if it exists from the current directory,
// else from `base` or the first directory above it where it exists (the corpus writes its
// headers relative to the source tree), else as written (the error will name it).
std::string resolve(const std::string& p, const fs::path& base) {
  std::error_code ec;
  if (fs::path(p).is_absolute() || fs::exists(p, ec)) return shown(p);
  for (fs::path d = fs::absolute(base, ec); !d.empty(); d = d.parent_path()) {
    if (fs::exists(d / p, ec)) return shown((d / p).string());
    if (d == d.root_path()) break;
  }
  return p;
}

// The value of a `# key: value` line among a file's leading comment lines.
std::optional<std::string> header(const fs::path& file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) != 0) break;
    const std::string tag = "# " + key + ":";
    if (line.rfind(tag, 0) == 0) {
      auto v = line.substr(tag.size());
      v.erase(0, v.find_first_not_of(' '));
      v.erase(v.find_last_not_of(" \r") + 1);
      return v;
    }
  }
  return std::nullopt;
}

bool is_impl_name(const std::string& name) { return name.find(".impl.") != std::string::npos; }

model::Result<std::vector<BatchEntry>> from_directory(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& f : fs::recursive_directory_iterator(dir))
    if (f.is_regular_file() && (f.path().extension() == ".sb" || f.path().extension() == ".json"))
      files.push_back(f.path());
  std::sort(files.begin(), files.end());
  std::vector<BatchEntry> out;
  for (const auto& f : files) {
    const auto spec = header(f, "spec");
    if (!spec && !is_impl_name(f.filename().string())) continue;  // a spec, or not a pair of ours
    BatchEntry e;
    e.impl = shown(f.string());
    e.origin = e.impl;
    e.expected = header(f, "expect");
    if (spec) {
      e.spec = resolve(*spec, f.parent_path());
    } else {
      // X.impl.json pairs with X.spec.json, else X.json (the corpus's naming).
      const std::string name = f.filename().string();
      const std::string stem = name.substr(0, name.find(".impl."));
      for (const auto& candidate : {stem + ".spec" + f.extension().string(), stem + f.extension().string(),
                                    stem + ".spec.json", stem + ".json", stem + ".spec.sb", stem + ".sb"})
        if (fs::exists(f.parent_path() / candidate)) {
          e.spec = shown((f.parent_path() / candidate).string());
          break;
        }
    }
    out.push_back(std::move(e));
  }
  if (out.empty())
    return model::Diagnostic{dir.string(), "", "io", "no impl files (*.impl.* or with a '# spec:' header) here"};
  return out;
}

model::Result<std::vector<BatchEntry>> from_manifest(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return model::Diagnostic{file.string(), "", "io", "cannot open the file for reading"};
  std::vector<BatchEntry> out;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.empty()) continue;
    const std::string place = std::to_string(n) + ":1";
    if (w.size() < 2 || w.size() > 3)
      return model::Diagnostic{file.string(), place, "syntax", "a manifest line is SPEC IMPL [expected verdict]"};
    if (w.size() == 3 && !is_verdict(w[2]))
      return model::Diagnostic{file.string(), place, "syntax",
                               "'" + w[2] +
                                   "' is no verdict (bisimilar, over-synchronized, under-synchronized, "
                                   "spec-deadlock, inconclusive)"};
    BatchEntry e;
    e.spec = resolve(w[0], file.parent_path());
    e.impl = resolve(w[1], file.parent_path());
    if (w.size() == 3) e.expected = w[2];
    e.origin = file.string() + ":" + std::to_string(n);
    out.push_back(std::move(e));
  }
  if (out.empty()) return model::Diagnostic{file.string(), "", "syntax", "the manifest lists no pair"};
  return out;
}

BatchResult run_one(const BatchEntry& e, const BatchOptions& o) {
  BatchResult r;
  r.entry = e;
  r.status = 2;
  if (e.spec.empty()) {
    r.error = e.impl + ": no spec found for this impl (give it a '# spec: PATH' header or a matching name)";
    return r;
  }
  auto spec = formats::load_program_file(e.spec, model::ProgramKind::Spec);
  if (!spec) {
    r.error = spec.error().to_string();
    return r;
  }
  auto impl = formats::load_program_file(e.impl, model::ProgramKind::Impl);
  if (!impl) {
    r.error = impl.error().to_string();
    return r;
  }
  // An impl that unrolls loops of its spec is checked against the spec unrolled to match, as
  // `check` does; the note that says so is left out of the batch's table.
  std::string note;
  auto pair = make_pair(std::move(*spec), std::move(*impl), e.spec, e.impl, o.pair, note);
  if (!pair) {
    r.error = pair.error().to_string();
    return r;
  }
  auto co = o.check;
  if (o.seconds_left) co.max_seconds = o.seconds_left();
  r.check = checker::check(*pair->checked, co);
  const std::string verdict = checker::to_string(r.check.verdict);
  r.status = e.expected ? (*e.expected == verdict ? 0 : 1) : checker::exit_status(r.check.verdict);
  return r;
}

int severity(int status) { return status == 2 ? 3 : status == 1 ? 2 : status == 3 ? 1 : 0; }

}  // namespace

model::Result<std::vector<BatchEntry>> read_batch(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return from_directory(path);
  return from_manifest(path);
}

std::vector<BatchResult> run_batch(const std::vector<BatchEntry>& entries, const BatchOptions& options) {
  std::vector<BatchResult> out(entries.size());
  parallel::run_indexed(entries.size(), options.jobs, [&](std::size_t i) { out[i] = run_one(entries[i], options); });
  return out;
}

int batch_status(const std::vector<BatchResult>& results) {
  int worst = 0;
  for (const auto& r : results)
    if (severity(r.status) > severity(worst)) worst = r.status;
  return worst;
}

std::string batch_text(const std::vector<BatchResult>& results, double seconds) {
  std::ostringstream s;
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_verdict;  // pairs, mismatches
  std::size_t errors = 0, mismatches = 0;
  for (const auto& r : results) {
    char line[512];
    if (!r.error.empty()) {
      ++errors;
      s << "error     " << r.error << "\n";
      continue;
    }
    const std::string verdict = checker::to_string(r.check.verdict);
    auto& v = by_verdict[verdict];
    ++v.first;
    const bool mismatch = r.entry.expected && *r.entry.expected != verdict;
    if (mismatch) {
      ++v.second;
      ++mismatches;
    }
    const std::string what =
        verdict + (r.entry.expected ? (mismatch ? ", expected " + *r.entry.expected : " (expected)") : "");
    std::snprintf(line, sizeof line, "%-9s %s %s: %s, %llu states, %.3f s%s%s\n", mismatch ? "MISMATCH" : "ok",
                  r.entry.spec.c_str(), r.entry.impl.c_str(), what.c_str(),
                  static_cast<unsigned long long>(r.check.states), r.check.seconds,
                  r.check.limit.empty() ? "" : ", limit: ", r.check.limit.c_str());
    s << line;
  }
  s << "\n"
    << "verdict              pairs  mismatches\n";
  for (const auto& name : verdict_names()) {
    const auto it = by_verdict.find(name);
    char line[128];
    std::snprintf(line, sizeof line, "%-20s %5zu  %10zu\n", name.c_str(), it == by_verdict.end() ? 0 : it->second.first,
                  it == by_verdict.end() ? 0 : it->second.second);
    s << line;
  }
  char line[200];
  std::snprintf(line, sizeof line, "%zu pairs, %zu mismatches, %zu errors, %.2f s\n", results.size(), mismatches,
                errors, seconds);
  s << line;
  return s.str();
}

nlohmann::json batch_json(const std::vector<BatchResult>& results, double seconds) {
  nlohmann::json pairs = nlohmann::json::array();
  std::size_t mismatches = 0, errors = 0;
  for (const auto& r : results) {
    nlohmann::json j{{"spec", r.entry.spec}, {"impl", r.entry.impl}, {"origin", r.entry.origin}, {"status", r.status}};
    j["expected"] = r.entry.expected ? nlohmann::json(*r.entry.expected) : nlohmann::json(nullptr);
    if (!r.error.empty()) {
      ++errors;
      j["error"] = r.error;
    } else {
      const std::string verdict = checker::to_string(r.check.verdict);
      j["verdict"] = verdict;
      j["as_expected"] = !r.entry.expected || *r.entry.expected == verdict;
      if (r.entry.expected && *r.entry.expected != verdict) ++mismatches;
      j["exhaustive"] = r.check.exhaustive;
      j["states"] = r.check.states;
      j["transitions"] = r.check.transitions;
      j["seconds"] = r.check.seconds;
      if (!r.check.limit.empty()) j["limit"] = r.check.limit;
    }
    pairs.push_back(std::move(j));
  }
  return nlohmann::json{{"syncbisim", "check-batch/1"},
                        {"pairs", pairs},
                        {"summary",
                         {{"pairs", results.size()},
                          {"mismatches", mismatches},
                          {"errors", errors},
                          {"status", batch_status(results)},
                          {"seconds", seconds}}}};
}

}  // namespace syncbisim::cli
