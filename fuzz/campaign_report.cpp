#include "fuzz/campaign_report.h"

#include <cstdio>
#include <sstream>

namespace syncbisim::fuzz {

namespace {

constexpr std::size_t kNotesShown = 10;  // refusals and inconclusive runs listed in the text

// What the shrunk case of a violation kept of the failing wait's quantities (N, K, offset, the
// carrying loop); "" for an allocator's fault, whose dependencies are not one wait's.
std::string kept_of(const RunFailure& f) {
  if (!f.shrunk || !std::holds_alternative<ViolationAt>(f.failure)) return "";
  return kept_quantities(f.shrunk->kinds_before, f.shrunk->kinds_after);
}

nlohmann::json notes_json(const std::vector<RunNote>& notes, const ReportContext& c) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& n : notes) {
    nlohmann::json j{{"run", n.run}, {"seed", n.seed}, {"why", n.why}};
    if (c.replay) j["replay"] = c.replay(n.run);
    a.push_back(std::move(j));
  }
  return a;
}

void notes_text(std::ostringstream& s, const char* what, std::uint64_t count, const std::vector<RunNote>& notes,
                const ReportContext& c) {
  if (count == 0) return;
  s << what << ": " << count << (count == 1 ? " run" : " runs");
  if (notes.size() > kNotesShown) s << " (the first " << kNotesShown << ")";
  s << "\n";
  for (std::size_t i = 0; i < notes.size() && i < kNotesShown; ++i) {
    s << "  run " << notes[i].run << ": " << notes[i].why << "\n";
    if (c.replay) s << "    " << c.replay(notes[i].run) << "\n";
  }
}

}  // namespace

std::string summary_line(const CampaignResult& r) {
  const double rate = r.seconds > 0 ? static_cast<double>(r.runs) / r.seconds : 0.0;
  char line[256];
  std::snprintf(line, sizeof line,
                "runs %llu, failures %llu, declined %llu, inconclusive %llu, skipped %llu, %.1f runs/s (%.2f s)%s",
                static_cast<unsigned long long>(r.runs), static_cast<unsigned long long>(r.failures),
                static_cast<unsigned long long>(r.declined), static_cast<unsigned long long>(r.inconclusive),
                static_cast<unsigned long long>(r.skipped), rate, r.seconds, r.interrupted ? ", interrupted" : "");
  return line;
}

nlohmann::json campaign_json(const CampaignResult& r, const CampaignOptions& o, const ReportContext& c) {
  nlohmann::json failed = nlohmann::json::array();
  for (const auto& f : r.failed) {
    nlohmann::json j{{"run", f.run}, {"seed", f.seed}, {"class", failure_class(f.failure)}, {"failure", f.what}};
    if (c.replay) j["replay"] = c.replay(f.run);
    if (f.shrunk) {
      j["before"] = f.shrunk->before.to_string();
      j["after"] = f.shrunk->after.to_string();
      if (const auto kept = kept_of(f); !kept.empty()) j["kept"] = kept;
    }
    if (auto w = c.written.find(f.run); w != c.written.end()) {
      j["files"] = w->second.stem;
      j["repro"] = w->second.repro;
      if (std::holds_alternative<ViolationAt>(f.failure)) j["check"] = w->second.repro;
    }
    failed.push_back(std::move(j));
  }
  const double rate = r.seconds > 0 ? static_cast<double>(r.runs) / r.seconds : 0.0;
  return nlohmann::json{{"syncbisim", "fuzz/1"},
                        {"allocator", c.allocator},
                        {"seed", o.seed},
                        {"start", o.start},
                        {"shard", std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count)},
                        {"specs", to_string(o.specs)},
                        {"jobs", o.jobs},
                        {"runs", r.runs},
                        {"passed", r.passed},
                        {"failures", r.failures},
                        {"declined", r.declined},
                        {"inconclusive", r.inconclusive},
                        {"skipped", r.skipped},
                        {"interrupted", r.interrupted},
                        {"seconds", r.seconds},
                        {"runs_per_second", rate},
                        {"failed", failed},
                        {"declines", notes_json(r.declines, c)},
                        {"inconclusive_runs", notes_json(r.inconclusive_runs, c)},
                        {"generator", stats_json(r.generator)}};
}

std::string campaign_text(const CampaignResult& r, const ReportContext& c, bool full_stats) {
  std::ostringstream s;
  for (const auto& f : r.failed) {
    s << "run " << f.run << ": " << f.what;
    if (f.shrunk) {
      s << " (shrunk from " << f.shrunk->before.to_string() << " to " << f.shrunk->after.to_string();
      if (const auto kept = kept_of(f); !kept.empty()) s << "; kept " << kept;
      s << ")";
    }
    s << "\n";
    if (auto w = c.written.find(f.run); w != c.written.end()) s << "  " << w->second.repro << "\n";
    if (c.replay) s << "  " << c.replay(f.run) << "\n";
  }
  notes_text(s, "declined", r.declined, r.declines, c);
  notes_text(s, "inconclusive", r.inconclusive, r.inconclusive_runs, c);
  s << (full_stats ? stats_text(r.generator) : stats_line(r.generator) + "\n");
  s << summary_line(r) << "\n";
  return s.str();
}

}  // namespace syncbisim::fuzz
