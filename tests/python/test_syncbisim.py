"""The Python module `syncbisim` (docs/api.md "The Python module"), as a user of it would call it.

Run by CTest with PYTHONPATH pointing at build/python and SYNCBISIM_SOURCE_DIR at the source tree.
"""
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import syncbisim

SOURCE = os.environ.get("SYNCBISIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "examples", "allocators"))
import per_instruction  # noqa: E402  (the example allocator, importable as a module)


def corpus(path):
    return os.path.join(SOURCE, "corpus", path)


def test_load_from_a_path_or_text_and_errors_carry_their_place_and_rule():
    spec = syncbisim.load(corpus("figures/fig7_fig8.json"))
    assert spec.kind == "spec"
    assert spec.engines == ["E0", "E1"]
    assert spec.dependencies == 1
    assert syncbisim.load(spec.to_text()) == spec
    assert syncbisim.load(spec.to_json()) == spec
    assert "I2" in str(spec)
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.load("engines E0\nE0: I0 I0\n")
    assert err.value.rule == "duplicate-instr"
    assert err.value.place == "2:8"
    assert isinstance(err.value, ValueError)
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.load("no/such/file.json")
    assert err.value.rule == "io"


def test_allocate_check_prove_and_their_results():
    spec = syncbisim.load(corpus("figures/fig7_fig8.json"))
    a = syncbisim.allocate(spec, strategy="per-loop")
    assert a.impl.kind == "impl"
    assert [d.scheme for d in a.decisions] == ["per-loop"]
    r = syncbisim.check(spec, a.impl)
    assert r.verdict == "bisimilar" and r.exhaustive and r
    assert r.exit_status == 0
    assert str(r).startswith("bisimilar\n")
    assert json.loads(r.to_json())["verdict"] == "bisimilar"
    p = syncbisim.prove(spec, a.impl)
    assert p.verdict == "proved"
    assert [c.answer for c in p.consumers] == ["proved"]
    assert json.loads(p.to_json())["verdict"] == "proved"
    with pytest.raises(syncbisim.Error):
        syncbisim.allocate(spec, strategy="fastest")


def test_the_expert_strategy_is_checked_and_proved():
    spec = syncbisim.load(corpus("kernels/tiled_matmul.json"))
    a = syncbisim.allocate(spec, strategy="expert")
    assert syncbisim.check(spec, a.impl).verdict == "bisimilar"
    assert syncbisim.prove(spec, a.impl).verdict == "proved"


def test_an_impl_that_unrolls_a_loop_is_judged_against_the_spec_unrolled_to_match():
    spec = corpus("figures/fig1_motivating.json")
    unrolled = os.path.join(SOURCE, "tests", "inputs", "unrolled")
    assert syncbisim.check(spec, os.path.join(unrolled, "fig1_A_unrolled.impl.sb")).verdict == "bisimilar"
    r = syncbisim.check(spec, os.path.join(unrolled, "fig1_A_unrolled_wrong_copy.impl.sb"))
    assert r.verdict == "under-synchronized"
    assert "I2.A.3" in str(r)
    assert syncbisim.prove(spec, os.path.join(unrolled, "fig1_A_unrolled.impl.sb")).verdict == "proved"


def test_the_widths_make_a_counter_past_them_an_overflow():
    spec = os.path.join(SOURCE, "tests", "inputs", "overflow", "counter_spec.sb")
    impl = os.path.join(SOURCE, "tests", "inputs", "overflow", "counter_impl.sb")
    assert syncbisim.check(spec, impl).verdict == "bisimilar"  # 32-bit registers by default
    r = syncbisim.check(spec, impl, register_bits=8)
    assert r.verdict == "overflow" and not r
    assert r.violations[0].kind == "overflow"
    assert "past the 8-bit register width" in r.violations[0].description
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.check(spec, impl, semaphore_bits=1)
    assert err.value.rule == "bad-width"


def test_the_tree_state_store_gives_the_flat_stores_search():
    spec = corpus("figures/fig7_fig8.json")
    impl = corpus("bugs/fig8_nk_off_by_one.sb")
    flat = syncbisim.check(spec, impl, reduction=False)
    tree = syncbisim.check(spec, impl, reduction=False, state_store="tree")
    assert flat.verdict == tree.verdict == "under-synchronized"
    assert (tree.states, tree.transitions) == (flat.states, flat.transitions)
    assert [(v.description, v.trace) for v in tree.violations] == [(v.description, v.trace) for v in flat.violations]
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.check(spec, impl, state_store="packed")
    # check --state-store says the same (tests/cli/check_state_store_bad.case): one parser
    assert err.value.rule == "usage"
    assert err.value.message == "unknown state store 'packed' (flat, tree)"


def test_prove_takes_the_widths_too():
    spec = os.path.join(SOURCE, "tests", "inputs", "overflow", "counter_spec.sb")
    impl = os.path.join(SOURCE, "tests", "inputs", "overflow", "counter_impl.sb")
    assert syncbisim.prove(spec, impl).verdict == "proved"  # 32-bit registers by default
    p = syncbisim.prove(spec, impl, register_bits=8)
    assert p.verdict == "refuted" and p.exit_status == 1
    doc = json.loads(p.to_json())
    assert doc["widths"] == {"register_bits": 8, "semaphore_bits": 32}
    assert [(o["kind"], o["name"], o["answer"], o["value"]) for o in doc["overflows"]] == [
        ("register", "r", "refuted", "256")]
    assert "past the 8-bit register's 255" in str(p)
    sem = syncbisim.prove(os.path.join(SOURCE, "tests", "inputs", "overflow", "sem_spec.sb"),
                          os.path.join(SOURCE, "tests", "inputs", "overflow", "sem_impl.sb"), semaphore_bits=4)
    assert sem.verdict == "refuted" and "signed 4-bit semaphore's 7" in str(sem)
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.prove(spec, impl, register_bits=65)
    assert err.value.rule == "bad-width"


def test_prove_on_two_threads_gives_what_one_gives():
    spec = corpus("kernels/flash_attention.json")
    impl = corpus("bugs/flash_attention_backward_wrong_loop.sb")
    one = syncbisim.prove(spec, impl, jobs=1)
    two = syncbisim.prove(spec, impl, jobs=2)
    assert one.verdict == two.verdict == "refuted"
    assert len(one.consumers) > 2  # more consumers than threads
    assert str(two) == str(one)  # every answer, reason and witness, in consumer order

    def without_seconds(x):
        if isinstance(x, dict):
            return {k: without_seconds(v) for k, v in x.items() if k != "seconds"}
        if isinstance(x, list):
            return [without_seconds(v) for v in x]
        return x
    assert without_seconds(json.loads(two.to_json())) == without_seconds(json.loads(one.to_json()))


def test_a_violation_has_both_sides_numbers_and_a_trace():
    r = syncbisim.check(corpus("figures/fig7_fig8.json"), corpus("bugs/fig8_nk_off_by_one.sb"))
    assert r.verdict == "under-synchronized"
    assert not r
    v = r.violations[0]
    assert (v.kind, v.instr, v.dependency) == ("under-sync", "I2", "I1 -> I2")
    assert v.retired < v.owed
    assert v.value >= v.threshold
    assert v.trace and v.trace[0]["step"] == "issue"
    assert json.loads(v.to_json())["kind"] == "under-sync"
    # Spec and impl the wrong way round: an input error, not a verdict.
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.check(corpus("bugs/fig8_nk_off_by_one.sb"), corpus("figures/fig7_fig8.json"))
    assert err.value.rule == "wrong-order"


def test_a_python_allocator_with_a_planted_bug_is_found_shrunk_written_and_rechecks(tmp_path):
    buggy = lambda spec: per_instruction.allocate(spec, bug="backward")  # noqa: E731
    r = syncbisim.fuzz(buggy, runs=1000, seed=1, specs="allocatable", max_failures=1, out=str(tmp_path),
                       shrink_max_seconds=0)
    assert r.failures == 1
    f = r.failed[0]
    assert f.failure_class == "under-sync"
    assert len(f.spec.engines) <= 2
    assert f.after
    assert f.repro == "syncbisim check %s.spec.json %s.impl.json" % (f.files, f.files)
    # From the written files alone.
    again = syncbisim.check(f.files + ".spec.json", f.files + ".impl.json")
    assert again.verdict == "under-synchronized"
    assert json.loads(open(f.files + ".failure.json").read())["class"] == "under-sync"
    # Shrinking the found spec again with the callable keeps the failure.
    s = syncbisim.shrink(f.spec, allocator=buggy)
    assert s.failure_class == "under-sync"
    assert syncbisim.check(s.spec, s.impl).verdict == "under-synchronized"
    # Without the bug the same campaign is clean (refusals apart).
    good = syncbisim.fuzz(per_instruction.allocate, runs=400, seed=1, specs="allocatable")
    assert good.failures == 0
    assert good.declined > 0
    assert good.passed + good.declined + good.inconclusive == good.runs


def test_an_exception_in_the_allocator_declines_with_its_message():
    def refuse(spec):
        raise NotImplementedError("no conds yet")

    r = syncbisim.fuzz(refuse, runs=10, seed=2)
    assert r.declined == r.runs == 10
    assert r.failures == 0
    assert r.declines[0].why == "NotImplementedError: no conds yet"
    strict = syncbisim.fuzz(refuse, runs=10, seed=2, declined_is_failure=True, max_failures=1)
    assert strict.failures == 1 and strict.failed[0].failure_class == "declined"


def test_what_an_allocator_returns_is_judged():
    garbage = syncbisim.fuzz(lambda spec: "{ not an impl", runs=5, max_failures=1)
    assert garbage.failed[0].failure_class == "bad-output"
    assert garbage.failed[0].allocator_output == "{ not an impl"
    # Not a refusal (nothing was raised): the allocator is wrong.
    not_a_string = syncbisim.fuzz(lambda spec: 42, runs=5, max_failures=1)
    assert not_a_string.failed[0].failure_class == "allocator-error"
    assert "returned a int, not a str" in not_a_string.failed[0].failure


def test_a_command_and_a_strategy_as_the_allocator():
    cmd = "%s %s --bug mask" % (sys.executable, os.path.join(SOURCE, "examples", "allocators", "per_instruction.py"))
    r = syncbisim.fuzz(command=cmd, runs=200, seed=1, specs="allocatable", max_failures=1, jobs=2)
    assert r.failures == 1
    assert r.failed[0].failure_class == "over-sync"
    assert syncbisim.fuzz("per-loop", runs=50).failures == 0
    with pytest.raises(syncbisim.Error):
        syncbisim.fuzz(per_instruction.allocate, command="true")


def test_jobs_give_the_result_of_one_job():
    buggy = lambda spec: per_instruction.allocate(spec, bug="mask")  # noqa: E731
    one = syncbisim.fuzz(buggy, runs=150, seed=1, specs="allocatable", shrink_max_seconds=0)
    two = syncbisim.fuzz(buggy, runs=150, seed=1, specs="allocatable", shrink_max_seconds=0, jobs=2)
    assert one.failures > 0
    assert [(f.run, f.failure, f.spec.to_json()) for f in one.failed] == \
        [(f.run, f.failure, f.spec.to_json()) for f in two.failed]
    assert (one.runs, one.passed, one.declined) == (two.runs, two.passed, two.declined)


def test_the_gil_is_released_while_the_checker_runs():
    spec = syncbisim.load(corpus("kernels/stress_5engine.json"))
    impl = syncbisim.allocate(spec, strategy="per-loop").impl
    done = []
    t = threading.Thread(target=lambda: done.append(syncbisim.check(spec, impl)))
    t.start()
    spins = 0
    while t.is_alive():
        spins += 1
    t.join()
    assert done[0].verdict == "bisimilar"
    # With the GIL held for the whole check this thread could not have run in the meantime.
    assert spins > 1000


def test_ctrl_c_stops_a_campaign_with_what_it_found(tmp_path):
    script = textwrap.dedent("""
        import sys, time
        sys.path.insert(0, %r)
        import syncbisim, per_instruction
        def slow_and_buggy(spec):
            time.sleep(0.002)
            return per_instruction.allocate(spec, bug="backward")
        print("started", flush=True)
        r = syncbisim.fuzz(slow_and_buggy, runs=10**6, seed=1, specs="allocatable", out=%r)
        print("interrupted", r.interrupted, "runs", r.runs, "failures", r.failures, flush=True)
    """ % (os.path.join(SOURCE, "examples", "allocators"), str(tmp_path)))
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ))
    assert p.stdout.readline().strip() == "started"
    time.sleep(2.0)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=20)
    assert p.returncode == 0, out
    words = out.split()
    assert words[:2] == ["interrupted", "True"], out
    runs, failures = int(words[3]), int(words[5])
    assert 0 < runs < 10**6
    assert failures == len(list(tmp_path.glob("f*.failure.json")))


def test_generate_gives_the_campaign_specs():
    specs = syncbisim.generate(seed=9, runs=5)
    assert len(specs) == 5
    assert syncbisim.generate(seed=9, start=2, runs=1)[0] == specs[2]
    seen = []

    def record(spec):
        seen.append(spec)
        raise RuntimeError("only looking")

    syncbisim.fuzz(record, seed=9, start=2, runs=1)
    assert syncbisim.load(seen[0]) == specs[2]


def test_a_hanging_python_allocator_times_out_and_the_campaign_goes_on():
    calls = []

    def hangs_on_the_second(spec):
        calls.append(1)
        if len(calls) == 2:
            while True:  # a bug: never returns
                pass
        return per_instruction.allocate(spec)

    t0 = time.time()
    r = syncbisim.fuzz(hangs_on_the_second, runs=5, seed=1, specs="allocatable", timeout=0.5, shrink=False)
    assert time.time() - t0 < 10
    assert r.failures == 1
    assert r.failed[0].failure_class == "timeout"
    assert "0.5 s" in r.failed[0].failure
    assert r.runs == 5


def test_a_kernel_with_footprints_derives_its_graph_and_judges_a_written_one():
    kernel = textwrap.dedent("""\
        syncbisim spec/1
        engines DMA PE ACT
        buffer x hbm [1024, 512]
        buffer t sbuf [2, 128, 512]
        buffer s sbuf [2, 512]
        loop i trip 1..8 {
          DMA: load reads x[i*128 : i*128+128, :] writes t[i mod 2, :, :]
          PE: mm reads t[i mod 2, :, :] writes s[i mod 2, :]
          ACT: store reads s[i mod 2, :]
        }
        dep load -> mm
        """)
    spec = syncbisim.load(kernel)
    derived = syncbisim.derive_dependencies(spec)
    texts = [str(d) for d in derived.dependencies if not d.implied_by]
    assert "load -> mm" in texts
    assert "mm -> load distance i=2" in texts
    assert "mm -> store" in texts
    assert all(d.why for d in derived.dependencies)
    assert derived.spec.dependencies == len(texts)
    # The derived graph allocates and checks bisimilar.
    impl = syncbisim.allocate(derived.spec, strategy="per-loop").impl
    assert syncbisim.check(derived.spec, impl).verdict == "bisimilar"
    # The written graph misses mm -> store and the slot reuse: races, each with its fix.
    cmp = syncbisim.compare_dependencies(spec)
    assert cmp.verdict == "race"
    fixes = {(r.producer, r.consumer): r.fix for r in cmp.races}
    assert fixes[("mm", "store")] == "add dep mm -> store"
    assert syncbisim.compare_dependencies(derived.spec).verdict == "ordered"
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.derive_dependencies(syncbisim.load(corpus("figures/fig7_fig8.json")))
    assert err.value.rule == "no-footprints"


def test_a_violation_names_the_fix_and_the_closed_form():
    spec = syncbisim.load(corpus("figures/fig7_fig8.json"))
    impl = syncbisim.load(corpus("bugs/fig8_nk_off_by_one.sb"))
    r = syncbisim.check(spec, impl)
    v = r.violations[0]
    assert v.kind == "under-sync"
    assert "the wait needs s0 >= 2 at least (s0 = 1 now" in v.fix
    assert v.closed_form == "per-loop s_A_E0 N=2 K=2, wait s_A_E0 >= 2 * r_A"
    assert "fix: " + v.fix in str(r)
