#include "formats/json_text.h"
#include "fuzz/failure_files.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "formats/json_format.h"
#include "formats/load.h"
#include "fuzz/command_allocator.h"

namespace syncbisim::fuzz {

std::string repro_line(const RunFailure& f, const std::string& stem, const std::string& allocator_command) {
  const std::string spec = stem + ".spec.json";
  if (std::holds_alternative<ViolationAt>(f.failure)) return "syncbisim check " + spec + " " + stem + ".impl.json";
  if (std::get<AllocatorFault>(f.failure) == AllocatorFault::TreeMismatch)
    return "syncbisim check " + spec + " " + stem + ".impl.json  # exit 2: the impl does not correspond";
  if (!allocator_command.empty()) return command_invocation(allocator_command, spec);
  return "# give " + spec + " to the allocator (in-process: no command line)";
}

model::Result<WrittenFailure> write_failure_files(const RunFailure& f, const FailureFileOptions& o) {
  WrittenFailure w;
  w.stem = (std::filesystem::path(o.dir) / ("f" + std::to_string(f.run))).string();
  w.repro = repro_line(f, w.stem, o.allocator_command);
  const auto& impl = f.written_impl();
  const auto& reply = f.written_reply();
  std::vector<std::pair<std::string, std::string>> files = {
      {w.stem + ".spec.json", formats::write_json(f.written_spec())}};
  if (!impl.engines.empty()) files.push_back({w.stem + ".impl.json", formats::write_json(impl)});
  if (!f.traces.is_null()) files.push_back({w.stem + ".trace.json", formats::json_text(f.traces)});
  if (!o.allocator_command.empty() || !reply.output.empty() || !reply.errors.empty()) {
    files.push_back({w.stem + ".allocator.out", reply.output});
    files.push_back({w.stem + ".allocator.err", reply.errors});
  }
  nlohmann::json j{{"syncbisim", "failure/1"},  // docs/schema/failure.schema.json
                   {"run", f.run},
                   {"seed", f.seed},
                   {"class", failure_class(f.failure)},
                   {"failure", f.what},
                   {"repro", w.repro}};
  if (!o.replay.empty()) j["replay"] = o.replay;
  if (!o.allocator_command.empty()) j["allocator"] = o.allocator_command;
  if (f.shrunk) {
    j["before"] = f.shrunk->before.to_string();
    j["after"] = f.shrunk->after.to_string();
  }
  files.push_back({w.stem + ".failure.json", formats::json_text(j)});
  files.push_back({w.stem + ".repro.sh", w.repro + "\n" + (o.replay.empty() ? "" : o.replay + "\n")});
  for (const auto& [path, content] : files) {
    if (auto s = formats::write_file_atomically(path, content); !s) {
      auto d = s.error();
      if (d.file.empty()) d.file = path;
      return d;
    }
  }
  return w;
}

}  // namespace syncbisim::fuzz
