#include "semantics/step.h"

namespace syncbisim::semantics {

bool is_visible(StepKind k) { return k == StepKind::Issue || k == StepKind::Retire || k == StepKind::Choose; }

const char* to_string(StepKind k) {
  switch (k) {
    case StepKind::Issue: return "issue";
    case StepKind::Commit: return "commit";
    case StepKind::Retire: return "retire";
    case StepKind::Choose: return "choose";
    case StepKind::LoopEntry: return "loop-entry";
    case StepKind::LoopExit: return "loop-exit";
    case StepKind::BackEdge: return "back-edge";
    case StepKind::RegOp: return "regop";
    case StepKind::BarrierArrive: return "barrier-arrive";
    case StepKind::BarrierRelease: return "barrier-release";
  }
  return "?";
}

std::string describe(const CompiledProgram& p, const Step& s) {
  std::string out = to_string(s.kind);
  if (s.kind == StepKind::BarrierRelease) return out;
  out += " " + p.engines[s.engine];
  switch (s.kind) {
    case StepKind::Issue:
    case StepKind::Retire: return out + " " + p.instrs[s.arg].name;
    case StepKind::Commit: return out + " #" + std::to_string(s.arg);
    case StepKind::Choose: {
      const auto& l = p.loops[s.aux];
      if (l.kind == model::LoopKind::CondThen) {
        const auto dot = l.name.rfind('.');
        return out + " " + l.name.substr(0, dot) + " = " + (s.arg == 0 ? "then" : "else");
      }
      return out + " " + l.name + " = " + std::to_string(s.arg);
    }
    case StepKind::LoopEntry:
    case StepKind::LoopExit:
    case StepKind::BackEdge: return out + " " + p.loops[s.arg].name;
    case StepKind::RegOp: return out + " [" + p.regops[s.arg].text + "]";
    default: return out;
  }
}

}  // namespace syncbisim::semantics
