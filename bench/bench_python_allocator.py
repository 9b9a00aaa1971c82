#!/usr/bin/env python3
"""A Python callable as the allocator (GitHub issue 11): runs per second of syncbisim.fuzz with
examples/allocators/per_instruction.allocate, one and two jobs, on the campaign's allocatable
specs. Run from the source tree with the module on the path:

    PYTHONPATH=build/python /usr/bin/python3 bench/bench_python_allocator.py [RUNS]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "allocators"))
import per_instruction  # noqa: E402
import syncbisim  # noqa: E402

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
print("python callable: examples/allocators/per_instruction.allocate (%d runs)" % runs)
for jobs in (1, 2):
    r = syncbisim.fuzz(per_instruction.allocate, runs=runs, seed=1, specs="allocatable", jobs=jobs)
    print("  syncbisim.fuzz(jobs=%d): %7.1f runs/s  (%d runs, %d failures, %d declined, %.2f s)"
          % (jobs, r.runs / r.seconds, r.runs, r.failures, r.declined, r.seconds))
