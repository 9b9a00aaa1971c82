#include "cli/malloc_choice.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace syncbisim::cli {

namespace {

// Set in the environment of the second start; GLIBC_TUNABLES as it was before (when there was
// one) is given back from this, so that programs the run starts (an allocator under `fuzz
// --allocator`) do not inherit the settings.
constexpr char kTuned[] = "SYNCBISIM_MALLOC_TUNED";
constexpr char kTunablesWas[] = "SYNCBISIM_MALLOC_TUNABLES_WAS";

// Under Valgrind (its preload is in LD_PRELOAD) a second start would leave it: its launcher
// refuses an exec of /proc/self/exe, and what it would start is not under Valgrind.
bool under_valgrind() {
  const char* preload = std::getenv("LD_PRELOAD");
  return preload && std::strstr(preload, "vgpreload");
}

bool wants_tuned(int argc, char** argv) {
  if (under_valgrind()) return false;
  const char* choice = std::getenv("SYNCBISIM_MALLOC");
  if (choice && std::strcmp(choice, "tuned") == 0) return true;
  if (choice && std::strcmp(choice, "system") == 0) return false;
  // A fuzz campaign draws, allocates and checks program after program for as long as it is let.
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    if (std::strcmp(argv[i], "fuzz") == 0) return true;
    break;  // the first word that is not an option is the subcommand
  }
  for (int i = 1; i < argc; ++i) {
    struct stat st {};
    if (::stat(argv[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= kLargeInputBytes) return true;
  }
  return false;
}

void restore(const char* was) {
  if (was)
    ::setenv("GLIBC_TUNABLES", was, 1);
  else
    ::unsetenv("GLIBC_TUNABLES");
  ::unsetenv(kTunablesWas);
  ::unsetenv(kTuned);
}

void say(const char* what, const char* tunables) {
  if (const char* s = std::getenv("SYNCBISIM_MALLOC_SAY"); s && std::strcmp(s, "1") == 0)
    std::fprintf(stderr, "syncbisim: malloc: %s%s%s\n", what, tunables ? ", GLIBC_TUNABLES=" : "",
                 tunables ? tunables : "");
}

}  // namespace

void choose_malloc(int argc, char** argv) {
  if (std::getenv(kTuned)) {  // the second start: tuned; put GLIBC_TUNABLES back
    say("tuned", std::getenv("GLIBC_TUNABLES"));
    restore(std::getenv(kTunablesWas));
    return;
  }
  if (!wants_tuned(argc, argv)) {
    say("system", nullptr);
    return;
  }
  const char* env = std::getenv("GLIBC_TUNABLES");
  const bool had = env != nullptr;
  const std::string old = had ? env : "";
  const std::string tunables = old.empty() ? kTunedMalloc : std::string(kTunedMalloc) + ":" + old;
  if (had) ::setenv(kTunablesWas, old.c_str(), 1);
  ::setenv(kTuned, "1", 1);
  ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
  ::execv("/proc/self/exe", argv);
  // Not replaced (no /proc, say): go on here, untuned, with the environment as it was.
  restore(had ? old.c_str() : nullptr);
  say("system (the second start failed)", nullptr);
}

}  // namespace syncbisim::cli
