#pragma once
// Which malloc a run of `syncbisim` uses (docs/choices.md "Memory allocator").
//
// tcmalloc pays for itself on large programs (allocate and stats on thousands of loop nests, long
// blocks) but its set-up costs more than the rest of a short run: about 15 ms of page faults at
// the first allocation, against 10 ms for the whole of `syncbisim --version` without it. So the
// executable is not linked with it; a run that will need it executes itself again, once, with
// tcmalloc preloaded, before anything else happens.

namespace syncbisim::cli {

// Inputs at least this large (any argument that names a regular file) run on tcmalloc.
inline constexpr long long kLargeInputBytes = 256 * 1024;

// Called first thing in main(). Returns when the run goes on in this process (glibc's malloc, or
// tcmalloc already loaded); otherwise it does not return (the process is replaced). The
// environment variable SYNCBISIM_MALLOC chooses: `tcmalloc`, `system`, or `auto` (the default:
// tcmalloc for `fuzz` and for inputs of at least kLargeInputBytes). Anything that prevents the
// second start (no tcmalloc library, an exec that fails) leaves the run on glibc's malloc.
void choose_malloc(int argc, char** argv);

}  // namespace syncbisim::cli
