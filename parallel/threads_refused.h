#pragma once
// The system refused to start a thread that a search needed all of (a process limit, no memory
// for a stack): what such a search throws instead of aborting, for the command to say in one line
// (issue 43). Loops that can run on fewer threads (run_indexed) do so instead.
#include <stdexcept>
#include <string>

namespace syncbisim::parallel {

class ThreadsRefused : public std::runtime_error {
 public:
  explicit ThreadsRefused(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace syncbisim::parallel
