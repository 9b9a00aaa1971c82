#include "fuzz/allocate_fn.h"

#include "formats/load.h"
#include "latency/judge.h"

namespace syncbisim::fuzz {

const char* to_string(AllocatorFault f) {
  switch (f) {
    case AllocatorFault::Crash: return "crash";
    case AllocatorFault::Timeout: return "timeout";
    case AllocatorFault::BadOutput: return "bad-output";
    case AllocatorFault::TreeMismatch: return "tree-mismatch";
    case AllocatorFault::Declined: return "declined";
    case AllocatorFault::Error: return "allocator-error";
  }
  return "?";
}

AllocateFn allocate_with(allocator::Strategy strategy) {
  return [strategy](const model::Program& spec, const model::ProgramIndex& ix) {
    AllocatorReply reply;
    allocator::Options o{strategy, false};
    o.judge = latency::timing_judge();  // the expert's (allocator/expert.h), as the CLI's
    auto a = allocator::allocate(spec, ix, o);
    if (a) reply.answer = Allocated{std::move(a->impl)};
    else reply.answer = Faulted{AllocatorFault::Error, a.error().to_string()};
    return reply;
  };
}

AllocatorReply reply_from_output(std::string output, std::string errors, double seconds) {
  AllocatorReply reply;
  reply.seconds = seconds;
  // A text program without a header is read as an impl: that is what an allocator writes.
  auto loaded = formats::load_program_text(output, "<allocator output>", model::ProgramKind::Impl);
  if (!loaded) {
    reply.answer = Faulted{AllocatorFault::BadOutput, loaded.error().to_string()};
  } else if (loaded->program.kind != model::ProgramKind::Impl) {
    reply.answer = Faulted{AllocatorFault::BadOutput,
                           "<allocator output>: /syncbisim: expected an impl/1 program, "
                           "found spec/1 [wrong-kind]"};
  } else {
    reply.answer = Allocated{std::move(loaded->program)};
  }
  reply.output = std::move(output);
  reply.errors = std::move(errors);
  return reply;
}

std::string first_line(const std::string& text) {
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (!line.empty()) return line.size() > 300 ? line.substr(0, 300) + "..." : line;
    begin = end + 1;
  }
  return "";
}

}  // namespace syncbisim::fuzz
