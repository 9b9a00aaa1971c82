#pragma once
// A campaign's result for people (one line per failure with the commands that reproduce it, the
// refusals and inconclusive runs apart, a summary line last) and for tools (one JSON document,
// docs/fuzzing.md "Output"). The command line, the C++ API and the Python module print the same.
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz/campaign.h"
#include "fuzz/failure_files.h"

namespace syncbisim::fuzz {

struct ReportContext {
  std::string allocator;                                 // "per-loop", "command: ./alloc.py", "callback"
  std::function<std::string(std::uint64_t run)> replay;  // the command that replays run r, if there is one
  std::map<std::uint64_t, WrittenFailure> written;       // by run: the files written for it
};

nlohmann::json campaign_json(const CampaignResult& r, const CampaignOptions& o, const ReportContext& c);
// The generator's line (fuzz/generator_stats.h) comes before the summary; with `full_stats` its
// whole breakdown.
std::string campaign_text(const CampaignResult& r, const ReportContext& c, bool full_stats = false);
// "runs N, failures F, declined D, inconclusive I, skipped S, X runs/s (T s)"
std::string summary_line(const CampaignResult& r);

}  // namespace syncbisim::fuzz
