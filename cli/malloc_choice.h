#pragma once
// How glibc's malloc is set up for a run of `syncbisim` (docs/choices.md "Memory allocator").
//
// Large programs (allocate and stats on thousands of loop nests, long blocks) build and drop
// hundreds of MB of small nodes; on this kind of machine a page fault is dear, and glibc's malloc
// with transparent huge pages, no trimming and a large top pad answers them faster than tcmalloc
// did. Those settings are glibc tunables, read only when a process starts: a run that will need
// them executes itself again, once, with them in GLIBC_TUNABLES, before anything else happens.
// Short runs do not pay for that second start.

namespace syncbisim::cli {

// Inputs at least this large (any argument that names a regular file) run tuned.
inline constexpr long long kLargeInputBytes = 256 * 1024;

// The tunables of a tuned run: huge pages for the heap (glibc 2.35+; the kernel's "madvise"
// mode needs it asked), never give memory back at free, grow the heap 64 MiB at a time, and keep
// blocks up to 32 MiB in the heap rather than in mappings of their own.
inline constexpr char kTunedMalloc[] =
    "glibc.malloc.hugetlb=1:glibc.malloc.trim_threshold=4294967296:glibc.malloc.top_pad=67108864:"
    "glibc.malloc.mmap_threshold=33554432";

// Called first thing in main(). Returns when the run goes on in this process (untuned, or tuned
// already); otherwise it does not return (the process is replaced). The environment variable
// SYNCBISIM_MALLOC chooses: `tuned`, `system`, or `auto` (the default: tuned for `fuzz` and for
// inputs of at least kLargeInputBytes). GLIBC_TUNABLES of the user's own come after ours, so they
// win. SYNCBISIM_MALLOC_SAY=1 prints on stderr which it was. Under Valgrind, or when the exec
// fails, the run stays untuned.
void choose_malloc(int argc, char** argv);

}  // namespace syncbisim::cli
