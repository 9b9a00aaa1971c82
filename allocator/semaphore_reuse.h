#pragma once
// Semaphores by liveness (docs/allocator.md "Reusing registers and semaphores"). A semaphore
// only ever signalled by one engine E, and never reset by a barrier, counts E's retirements of
// its signallers in order (docs/semantics.md §3: an engine retires in issue order). Two such
// semaphores g and h of E whose lives (the top-level statements from the first that signals or
// waits on one to the last) do not overlap, g's before h's, can be one semaphore P: h's signals
// go on counting P, and a wait for h's w-th signal (w >= 1) becomes a wait for P's (base + w)-th,
// where base = g's signals in total. base is a number every engine knows once it has passed g's
// last top-level statement: per body holding signallers, the signals it adds per iteration times
// the iterations it ran, which a monotone iteration counter r_ℓ of that engine holds (one is
// added where the engine has none). Waits for g's own signals are untouched: P >= w holds exactly
// when g's w-th signal has retired, since h's signals retire after all of g's. A wait for 0 stays
// a wait for 0. Each waiting engine keeps base in one register per P, brought up to date before
// each later semaphore's first statement: `b := b + <count of the one before>`.
#include <cstddef>
#include <map>
#include <string>

#include "model/program.h"

namespace syncbisim::allocator {

struct SemaphoreReuse {
  std::size_t before = 0, after = 0;  // semaphores declared
  std::size_t unused = 0;             // declared, never signalled nor waited on, nor reset: dropped
  std::map<std::string, std::string> joined;  // semaphore -> the one it now counts on
};

SemaphoreReuse reuse_semaphores(model::Program& impl);

}  // namespace syncbisim::allocator
