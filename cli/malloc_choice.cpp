#include "cli/malloc_choice.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace syncbisim::cli {

namespace {

// Set in the environment of the second start; LD_PRELOAD as it was before (when there was one)
// is given back from this, so that programs the run starts do not inherit the preload.
constexpr char kLoaded[] = "SYNCBISIM_MALLOC_LOADED";
constexpr char kPreloadWas[] = "SYNCBISIM_MALLOC_PRELOAD_WAS";

bool wants_tcmalloc(int argc, char** argv) {
  const char* choice = std::getenv("SYNCBISIM_MALLOC");
  if (choice && std::strcmp(choice, "tcmalloc") == 0) return true;
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

}  // namespace

void choose_malloc([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
#if defined(SYNCBISIM_TCMALLOC_PATH) && !defined(__SANITIZE_ADDRESS__)
  if (std::getenv(kLoaded)) {  // the second start: tcmalloc is in; put LD_PRELOAD back
    if (const char* was = std::getenv(kPreloadWas))
      ::setenv("LD_PRELOAD", was, 1);
    else
      ::unsetenv("LD_PRELOAD");
    ::unsetenv(kPreloadWas);
    ::unsetenv(kLoaded);
    return;
  }
  if (!wants_tcmalloc(argc, argv) || ::access(SYNCBISIM_TCMALLOC_PATH, R_OK) != 0) return;
  const char* old = std::getenv("LD_PRELOAD");
  const std::string preload = old && *old ? std::string(SYNCBISIM_TCMALLOC_PATH) + ":" + old : SYNCBISIM_TCMALLOC_PATH;
  if (old) ::setenv(kPreloadWas, old, 1);
  ::setenv(kLoaded, "1", 1);
  ::setenv("LD_PRELOAD", preload.c_str(), 1);
  ::execv("/proc/self/exe", argv);
  // Not replaced (no /proc, say): go on here, on glibc's malloc, with the environment as it was.
  if (old)
    ::setenv("LD_PRELOAD", old, 1);
  else
    ::unsetenv("LD_PRELOAD");
  ::unsetenv(kPreloadWas);
  ::unsetenv(kLoaded);
#endif
}

}  // namespace syncbisim::cli
