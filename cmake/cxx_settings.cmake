# The language settings every build of the sources shares: the main project and the readers'
# libFuzzer project (fuzz/readers), which compiles the same files with clang.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE RelWithDebInfo)
endif()

# Build time (docs/choices.md "Build time").
# Unity builds: each target's sources are compiled as one file (a batch of all of them), so the
# heavy headers (CLI11, nlohmann/json, RapidCheck, Boost) are parsed, and their inline code
# generated, once per folder instead of once per file; batches of eight took 25% more CPU for the
# executable. Each source stays valid on its own, and the names in one file's anonymous namespace
# must not clash with another's of the same target.
# -DSYNCBISIM_UNITY_BUILD=OFF compiles file by file (quicker when one file changes);
# -DSYNCBISIM_UNITY_BATCH=N puts N sources in a batch (0: all of a target's).
option(SYNCBISIM_UNITY_BUILD "compile each target's sources as one unity file" ON)
set(CMAKE_UNITY_BUILD ${SYNCBISIM_UNITY_BUILD})
set(SYNCBISIM_UNITY_BATCH 0 CACHE STRING "sources per unity batch (0: all of a target's)")
set(CMAKE_UNITY_BUILD_BATCH_SIZE ${SYNCBISIM_UNITY_BATCH})
# RelWithDebInfo keeps line tables and function names (-g1: enough for backtraces, perf and the
# sanitizers' reports) but not variables and types, which cost a fifth of the compile time;
# -DSYNCBISIM_FULL_DEBUG_INFO=ON restores -g.
option(SYNCBISIM_FULL_DEBUG_INFO "RelWithDebInfo with -g instead of -g1" OFF)
if(NOT SYNCBISIM_FULL_DEBUG_INFO)
  add_compile_options($<$<CONFIG:RelWithDebInfo>:-g1>)
endif()
# A compiler cache where one is installed (Debian ccache, in the Makefile's packages): a rebuild
# of a checkout at the same path (after `make clean`, a branch switched back, a fresh clone in the
# same directory) takes its objects from the cache. Not shared between checkouts at different
# paths: the unity batches include their sources by absolute path. -DSYNCBISIM_CCACHE=OFF
# compiles without it; a launcher given with -DCMAKE_CXX_COMPILER_LAUNCHER is kept.
option(SYNCBISIM_CCACHE "compile through ccache where it is installed" ON)
if(SYNCBISIM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(SYNCBISIM_CCACHE_PROGRAM ccache)
  if(SYNCBISIM_CCACHE_PROGRAM)
    # ccache fails every compile when it cannot write its cache (a read-only home, say): one
    # compile through it first, and without it if that fails.
    set(probe ${CMAKE_BINARY_DIR}/ccache_probe)
    file(WRITE ${probe}.cpp "int syncbisim_ccache_probe() { return 0; }\n")
    execute_process(COMMAND ${SYNCBISIM_CCACHE_PROGRAM} ${CMAKE_CXX_COMPILER} -c ${probe}.cpp -o ${probe}.o
                    RESULT_VARIABLE probe_status OUTPUT_VARIABLE probe_output ERROR_VARIABLE probe_output)
    if(probe_status EQUAL 0)
      set(CMAKE_CXX_COMPILER_LAUNCHER ${SYNCBISIM_CCACHE_PROGRAM})
    else()
      string(STRIP "${probe_output}" probe_output)
      message(STATUS "ccache cannot be used (${probe_output}): compiling without it")
    endif()
  endif()
endif()
# lld links in a fraction of ld.bfd's time where it is installed (Debian: lld).
include(CheckLinkerFlag)
check_linker_flag(CXX -fuse-ld=lld SYNCBISIM_HAVE_LLD)
if(SYNCBISIM_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()
