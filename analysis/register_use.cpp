#include "analysis/register_use.h"

#include <map>
#include <set>
#include <string>

#include "model/walk.h"

namespace syncbisim::analysis {

std::vector<Warning> unwritten_registers(const model::Program& impl, const model::ProgramIndex&) {
  // engine -> registers written; engine -> register -> place of its first read
  std::map<std::string, std::set<std::string>> written;
  std::map<std::string, std::map<std::string, std::string>> read;
  model::for_each_stream(impl.body, [&](const model::Stream& s) {
    for (const auto& item : s.items) {
      if (const auto* op = std::get_if<model::RegOp>(&item)) {
        for (const auto& r : op->expr.registers()) read[s.engine].emplace(r, op->loc.where);
        written[s.engine].insert(op->dst);
      } else if (const auto* in = std::get_if<model::Instr>(&item)) {
        for (const auto& w : in->waits)
          if (const auto* r = std::get_if<std::string>(&w.ge)) read[s.engine].emplace(*r, in->loc.where);
      }
    }
  });
  std::vector<Warning> out;
  for (const auto& [engine, regs] : read)
    for (const auto& [reg, place] : regs)
      if (!written[engine].count(reg))
        out.push_back(Warning{
            place, "register '" + reg + "' is read on engine " + engine + " but never written there: it is always 0"});
  return out;
}

}  // namespace syncbisim::analysis
