"""Every command of the tool has its call in the module, and the call says what the command says
(GitHub issue 42, item 5): each call's str() and to_json() are compared with the command's output for
the same input (SYNCBISIM_EXE, which CTest sets), its fields with known figures of the corpus, and
every class and field of the module is documented for help().

Run by CTest with PYTHONPATH at build/python, SYNCBISIM_SOURCE_DIR at the source tree and
SYNCBISIM_EXE at the built tool.
"""
import inspect
import json
import os
import re
import subprocess

import pytest

import syncbisim

SOURCE = os.environ.get("SYNCBISIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXE = os.environ.get("SYNCBISIM_EXE")


def src(path):
    return os.path.join(SOURCE, path)


def tool(*args):
    """The command's (exit status, stdout, stderr) for the same input, run from the source tree."""
    if not EXE:
        pytest.skip("SYNCBISIM_EXE is not set (CTest sets it)")
    p = subprocess.run([EXE, *args], cwd=SOURCE, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


FIG1 = "corpus/figures/fig1_motivating.json"
FIG1_PER_LOOP = "corpus/good/fig1_per_loop.impl.sb"
UNIT_COSTS = "tests/timing/unit_costs.json"


# --- documentation -----------------------------------------------------------------------------


def described(doc, name):
    """The text of a pybind11 docstring past its signature line(s)."""
    if not doc:
        return ""
    lines = [ln for ln in doc.splitlines() if not ln.startswith(name + "(")]
    return "\n".join(lines).strip()


# Methods the module defines itself (pybind11 adds others, such as __init__, that are not ours).
OWN_DUNDERS = {"__str__", "__repr__", "__bool__", "__eq__"}


def test_every_class_field_method_and_function_has_a_docstring():
    classes = [c for _, c in inspect.getmembers(syncbisim, inspect.isclass)]
    assert len(classes) >= 25, [c.__name__ for c in classes]
    missing = []
    for cls in classes:
        if not (cls.__doc__ or "").strip():
            missing.append(cls.__name__)
        for name, attr in vars(cls).items():
            if isinstance(attr, property):
                if not (attr.__doc__ or "").strip():
                    missing.append("%s.%s" % (cls.__name__, name))
            elif callable(attr) and (not name.startswith("_") or name in OWN_DUNDERS):
                if not described(getattr(attr, "__doc__", ""), name):
                    missing.append("%s.%s()" % (cls.__name__, name))
    for name, f in inspect.getmembers(syncbisim, inspect.isbuiltin):
        if not described(f.__doc__, name):
            missing.append(name + "()")
    assert not missing, "no docstring: " + ", ".join(missing)
    assert (syncbisim.__doc__ or "").strip()


def test_the_doc_check_sees_a_missing_docstring():
    # The walk above must be able to fail: a property without a doc and a signature alone count as missing.
    assert described("to_json(self: syncbisim.X) -> str\n", "to_json") == ""
    assert described("to_json(self: syncbisim.X) -> str\n\nthe JSON\n", "to_json") == "the JSON"
    assert (property(lambda self: 1).__doc__ or "").strip() == ""
    help_text = syncbisim.CheckResult.verdict.__doc__ + syncbisim.StrategyRow.cycles.__doc__
    assert "bisimilar" in help_text and "timing model" in help_text


# --- allocate: every option of the command ------------------------------------------------------


@pytest.mark.parametrize("args,kwargs", [
    (["--strategy", "mixed"], {"strategy": "mixed"}),
    (["--strategy", "per-loop", "--no-licm"], {"strategy": "per-loop", "licm": False}),
    (["--strategy", "per-loop", "--no-cse", "--share-waits"], {"strategy": "per-loop", "cse": False, "share_waits": True}),
    (["--strategy", "per-engine", "--barrier-fallback", "--prune-registers"],
     {"strategy": "per-engine", "barrier_fallback": True, "prune_registers": True}),
    (["--max-semaphores", "2"], {"max_semaphores": 2}),
    (["--strategy", "per-instruction", "--max-registers", "6"], {"strategy": "per-instruction", "max_registers": 6}),
    (["--strategy", "per-loop", "--reuse", "always", "--jobs", "2"], {"strategy": "per-loop", "reuse": "always", "jobs": 2}),
    (["--strategy", "expert", "--reuse", "never"], {"strategy": "expert", "reuse": "never"}),
])
def test_allocate_gives_the_impl_the_command_writes(args, kwargs):
    spec = "corpus/kernels/flash_attention.json"
    status, out, _ = tool("allocate", spec, *args)
    assert status == 0
    a = syncbisim.allocate(src(spec), **kwargs)
    assert a.to_json() == out
    assert json.loads(a.to_json())["syncbisim"] == "impl/1"


def test_a_budget_gives_up_exactness_where_nothing_exact_fits():
    spec = src("corpus/kernels/flash_attention.json")
    tight = syncbisim.allocate(spec, max_semaphores=2)
    assert not tight.exact
    assert any(not d.exact for d in tight.decisions)
    assert syncbisim.stats(tight.impl).figures.semaphores <= 2
    assert syncbisim.allocate(spec).exact
    assert syncbisim.check(spec, syncbisim.allocate(spec, strategy="mixed").impl).verdict == "bisimilar"
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.allocate(spec, strategy="fastest")
    assert err.value.rule == "usage" and "mixed" in err.value.message


def test_allocate_with_unroll_gives_the_unrolled_spec_the_command_writes(tmp_path):
    spec_out = str(tmp_path / "u.spec.json")
    status, out, _ = tool("allocate", FIG1, "--strategy", "per-loop", "--unroll", "A", "--spec-out", spec_out)
    assert status == 0
    a = syncbisim.allocate(src(FIG1), strategy="per-loop", unroll=["A"])
    assert a.to_json() == out
    assert a.unrolled_spec is not None and a.unrolled_spec.to_json() == open(spec_out).read()
    assert "I2.A.1" in a.unrolled_spec.instructions
    assert syncbisim.check(a.unrolled_spec, a.impl).verdict == "bisimilar"
    assert syncbisim.allocate(src(FIG1)).unrolled_spec is None
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.allocate(src(FIG1), unroll=["A"], max_unroll=2)
    assert err.value.rule == "unroll-too-large"


# --- stats and stats --compare ----------------------------------------------------------------


def test_stats_prints_what_the_command_prints():
    impl = "corpus/figures/fig8_per_loop.impl.json"
    for args, kwargs in [([], {}), (["--max-semaphores", "1"], {"max_semaphores": 1}),
                         (["--trips", "A=4"], {"trips": "A=4"})]:
        _, out, _ = tool("stats", impl, *args)
        assert str(syncbisim.stats(src(impl), **kwargs)) == out
        _, out, _ = tool("stats", impl, "--json", *args)
        assert syncbisim.stats(src(impl), **kwargs).to_json() == out
    s = syncbisim.stats(src(impl), max_semaphores=2, max_registers=3)
    assert (s.figures.semaphores, s.figures.registers_max, s.within_budget) == (2, 3, True)
    assert dict(s.figures.registers_per_engine) == {"E0": 2, "E1": 3}
    assert s.figures.code_bytes == 172 and s.figures.regops_executed == 7
    assert not syncbisim.stats(src(impl), max_semaphores=1).within_budget
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.stats(src(impl), trips="A=")
    assert err.value.rule == "bad-trips"


def test_compare_strategies_prints_the_commands_table_with_each_strategys_makespan():
    _, out, _ = tool("stats", "--compare", FIG1)
    c = syncbisim.compare_strategies(src(FIG1))
    assert str(c) == out
    _, out, _ = tool("stats", "--compare", FIG1, "--json")
    assert c.to_json() == out
    assert [r.strategy for r in c.rows] == ["barrier", "per-instruction", "per-loop", "per-engine", "auto", "mixed",
                                            "expert"]
    # The cycles column is what simulate() gives each strategy's allocation.
    for r in c.rows:
        impl = syncbisim.allocate(src(FIG1), strategy=r.strategy).impl
        assert r.cycles == syncbisim.simulate(src(FIG1), impl).makespan, r.strategy
    assert c.rows[0].cycles == 3008 and c.rows[2].cycles == 1824
    # The same table on any number of threads.
    assert str(syncbisim.compare_strategies(src(FIG1), jobs=1)) == str(syncbisim.compare_strategies(src(FIG1), jobs=2))


def test_compare_strategies_in_a_tight_budget():
    spec = "corpus/kernels/flash_attention.json"
    _, out, _ = tool("stats", "--compare", spec, "--max-semaphores", "2", "--json")
    c = syncbisim.compare_strategies(src(spec), max_semaphores=2)
    assert c.to_json() == out
    assert [r.strategy for r in c.rows if r.over_budget] == ["barrier"]
    assert all(r.figures.semaphores <= 2 and not r.exact for r in c.rows if not r.over_budget)
    tm = syncbisim.compare_strategies(src("corpus/kernels/tiled_matmul.json"))
    per_loop = tm.rows[2]
    assert (per_loop.figures.alu_max, per_loop.alu_max_before) == (8, 11)


# --- simulate ------------------------------------------------------------------------------------


def test_simulate_prints_what_the_command_prints():
    for args, kwargs in [([], {}), (["--costs", UNIT_COSTS], {"costs_file": src(UNIT_COSTS)}),
                         (["--trips", "A=5"], {"trips": "A=5"})]:
        _, out, _ = tool("simulate", FIG1, FIG1_PER_LOOP, *args)
        r = syncbisim.simulate(src(FIG1), src(FIG1_PER_LOOP), **kwargs)
        assert str(r) == out
        _, out, _ = tool("simulate", FIG1, FIG1_PER_LOOP, "--json", *args)
        assert r.to_json() == out


def test_simulate_figures_costs_and_picture():
    r = syncbisim.simulate(src(FIG1), src(FIG1_PER_LOOP), costs_file=src(UNIT_COSTS))
    assert r.makespan == 6 and not r.deadlock and r.exit_status == 0
    assert r.trips == ["A=3 (rule)"]
    assert [(e.engine, e.busy, e.stalled) for e in r.engines] == [("E0", 2, 0), ("E1", 4, 0), ("E2", 4, 1)]
    assert (r.stalls[0].instr, r.stalls[0].semaphore, r.stalls[0].cycles) == ("I2", "s_A_E1", 1)
    assert r.without_op == ["I0", "I1", "I2", "I3", "I4", "I5"]
    with open(src(UNIT_COSTS)) as f:
        assert syncbisim.simulate(src(FIG1), src(FIG1_PER_LOOP), costs_json=f.read()).to_json() == r.to_json()
    assert r.svg == ""
    pic = syncbisim.simulate(src(FIG1), src(FIG1_PER_LOOP), svg=True)
    assert pic.svg.startswith("<?xml") and "<svg" in pic.svg and pic.svg_next_page is None
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.simulate(src(FIG1), src(FIG1_PER_LOOP), costs_file=src(UNIT_COSTS), costs_json="{}")
    assert err.value.rule == "usage"
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.simulate(src(FIG1), src(FIG1_PER_LOOP), trips="A=x")
    assert err.value.rule == "bad-trips"


def test_simulate_deadlock_and_limit_exit_statuses():
    for case in ("simulate_deadlock", "simulate_step_limit"):
        with open(src("tests/cli/%s.case" % case)) as f:
            args = next(ln[len("args: "):].split() for ln in f if ln.startswith("args: "))
        status, out, _ = tool(*args)
        r = syncbisim.simulate(src(args[1]), src(args[2]))
        assert r.exit_status == status and str(r) == out
        assert (r.deadlock, bool(r.limit)) == ((True, False) if case == "simulate_deadlock" else (False, True))


# --- table2 ---------------------------------------------------------------------------------------


def test_table2_prints_what_the_command_prints():
    spec = "corpus/kernels/tiled_matmul.json"
    _, out, _ = tool("table2", spec, "--unroll", "k")
    t = syncbisim.table2([src(spec)], unroll=["k"])
    assert str(t) == out
    _, out, _ = tool("table2", spec, "--unroll", "k", "--json")
    assert t.to_json() == out
    assert [r.kernel for r in t.rows] == ["tiled_matmul", "tiled_matmul+k"]
    barrier = t.rows[0].ours[0]
    assert (barrier.variant, barrier.lat, barrier.makespan, barrier.sema) == ("barrier", 1.0, 2135413, 5)
    assert [(p.variant, p.code) for p in t.rows[0].paper][0] == ("barrier", "4.7 KB")
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.table2([])
    assert err.value.rule == "usage"


def test_table2_with_derived_graphs():
    spec = "tests/inputs/footprints/over_synchronized.sb"
    _, out, _ = tool("table2", spec, "--derived")
    t = syncbisim.table2([src(spec)], derived=True)
    assert str(t) == out
    assert t.rows[0].kernel.endswith(" (derived)")


# --- replay ---------------------------------------------------------------------------------------


def test_replay_prints_what_the_command_prints(tmp_path):
    spec, impl = "corpus/figures/fig5_offset_two.json", "corpus/bugs/fig5_trip_reg_in_expr.sb"
    trace = "tests/inputs/traces/fig5_trip_reg_in_expr.check.json"
    status, out, _ = tool("replay", spec, impl, trace)
    r = syncbisim.replay(src(spec), src(impl), src(trace))
    assert (str(r), r.exit_status) == (out, status) and status == 1
    assert r.reproduced is True and r.violations and r.fits
    assert r.steps[1].step == "retire E0 P" and "R(P) 0 -> 1" in r.steps[1].changes
    _, out, _ = tool("replay", spec, impl, trace, "--json")
    assert r.to_json() == out
    # The trace's text works as well as its path, and a trace from check() itself replays.
    with open(src(trace)) as f:
        assert str(syncbisim.replay(src(spec), src(impl), f.read())) == str(r)
    found = syncbisim.check(src("corpus/figures/fig7_fig8.json"), src("corpus/bugs/fig8_nk_off_by_one.sb"))
    again = syncbisim.replay(src("corpus/figures/fig7_fig8.json"), src("corpus/bugs/fig8_nk_off_by_one.sb"),
                             found.to_json())
    assert again.reproduced and again.violations == ["under-sync"]


def test_replay_after_the_fix_and_a_trace_that_does_not_fit():
    for case in ("replay_after_fix", "replay_misfit"):
        with open(src("tests/cli/%s.case" % case)) as f:
            args = next(ln[len("args: "):].split() for ln in f if ln.startswith("args: "))
        status, out, _ = tool(*args)
        r = syncbisim.replay(src(args[1]), src(args[2]), src(args[3]))
        assert (r.exit_status, str(r)) == (status, out)
    assert not r.fits and r.misfit
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.replay(src(args[1]), src(args[2]), "{ not json")
    assert err.value.rule == "bad-json"


# --- deps and deps --compare -----------------------------------------------------------------------


def test_derive_dependencies_prints_what_deps_prints():
    spec = "corpus/footprints/double_buffer.sb"
    status, out, err = tool("deps", spec)
    d = syncbisim.derive_dependencies(src(spec))
    assert (str(d), d.exit_status) == (out, status)
    assert err.endswith(d.report) and d.report.endswith("4 dependencies derived, 3 more implied by them "
                                                        "(waits the reduction saved)\n")
    _, out, _ = tool("deps", spec, "--json")
    assert d.to_json() == out
    _, out, _ = tool("deps", spec, "--no-reduce")
    assert str(syncbisim.derive_dependencies(src(spec), reduce=False)) == out


@pytest.mark.parametrize("spec", ["corpus/footprints/missing_evac_store.sb",
                                  "tests/inputs/footprints/over_synchronized.sb",
                                  "corpus/footprints/double_buffer.sb"])
def test_compare_dependencies_prints_what_deps_compare_prints(spec):
    status, out, _ = tool("deps", spec, "--compare")
    c = syncbisim.compare_dependencies(src(spec))
    assert (str(c), c.exit_status) == (out, status)
    _, out, _ = tool("deps", spec, "--compare", "--json")
    assert c.to_json() == out
    assert json.loads(c.to_json())["verdict"] == c.verdict


def test_an_over_synchronizing_dependency_is_priced():
    c = syncbisim.compare_dependencies(src("tests/inputs/footprints/over_synchronized.sb"))
    assert c.verdict == "ordered"
    assert any("price on the timing model" in o for o in c.over_synchronized)
    race = syncbisim.compare_dependencies(src("corpus/footprints/missing_evac_store.sb"))
    assert race.exit_status == 1 and race.race_pairs > 0


# --- show --dot, check (its price and --coverage), check --all-trips, run: the last gaps ----------


def untimed(text):
    """A report without the seconds it prints ("0.134 s"), which differ from run to run."""
    return re.sub(r"[0-9]+\.[0-9]+ s\b", "T s", text)


def without_seconds(x):
    """A JSON document without its "seconds" members, at any depth."""
    if isinstance(x, dict):
        return {k: without_seconds(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [without_seconds(v) for v in x]
    return x


def test_to_dot_prints_what_show_dot_prints():
    for path in (FIG1, FIG1_PER_LOOP, "corpus/kernels/flash_attention.json"):
        status, out, _ = tool("show", path, "--dot")
        assert status == 0
        assert syncbisim.load(src(path)).to_dot() == out
    assert syncbisim.load(src(FIG1)).to_dot().startswith("digraph program {\n")


def test_check_prints_an_over_synchronizations_price_as_check_does():
    impl = "corpus/good/fig1_barrier.impl.sb"
    r = syncbisim.check(src(FIG1), src(impl))
    # --threads 1 as the call's search: the JSON's "bytes" is the state store's, which the threads change.
    status, out, _ = tool("check", FIG1, impl, "--threads", "1")
    assert (r.verdict, r.exit_status) == ("over-synchronized", status)
    assert untimed(str(r)) == untimed(out)
    assert str(r).endswith("price on the timing model: 1184 cycles (impl 3008, exact per-loop allocation 1824, "
                           "trips A=3 (rule))\n")
    _, out, _ = tool("check", FIG1, impl, "--threads", "1", "--json")
    assert without_seconds(json.loads(r.to_json())) == without_seconds(json.loads(out))
    assert r.coverage is None and r.coverage_text == "" and r.coverage_json == ""


@pytest.mark.parametrize("impl,blocked", [(FIG1_PER_LOOP, 18), ("corpus/bugs/fig1_offset_too_large.sb", 0)])
def test_check_coverage_prints_what_check_coverage_prints(impl, blocked):
    r = syncbisim.check(src(FIG1), src(impl), coverage=True)
    status, out, _ = tool("check", FIG1, impl, "--coverage")
    assert r.exit_status == status
    assert out.endswith("\n" + r.coverage_text)  # byte for byte
    assert untimed(str(r)) == untimed(out)
    _, out, _ = tool("check", FIG1, impl, "--coverage", "--json")
    assert json.loads(r.coverage_json) == json.loads(out)["coverage"]
    assert without_seconds(json.loads(r.to_json())) == without_seconds(json.loads(out))
    c = r.coverage
    assert c.states == 89
    [d] = c.dependencies
    assert (d.producer, d.consumer, d.distance, d.reached, d.owed, d.held, d.finding) == \
        ("I3", "I2", "A: 2", 35, 27, 18, "held")
    assert str(d) == "I3 -> I2 {A: 2}: held"
    [w] = c.waits
    assert (w.engine, w.instr, w.semaphore, w.threshold, w.reached, w.blocked) == \
        ("E2", "I2", "s_A_E1", "w", 35, blocked)
    # The summary counts the wait as blocked at least once, or never.
    assert ("waits (1): 1 blocked, 0 never blocked" in r.coverage_text) == (blocked > 0)
    assert ("waits (1): 0 blocked, 1 never blocked" in r.coverage_text) == (blocked == 0)


@pytest.mark.parametrize("spec,impl,args,verdict,found_by", [
    (FIG1, FIG1_PER_LOOP, [], "bisimilar", "explorer"),
    ("corpus/figures/fig1_motivating.json", "corpus/good/fig1_barrier.impl.sb", [], "over-synchronized", "explorer"),
    ("tests/inputs/prover/deep.spec.sb", "tests/inputs/prover/deep_wrong_from_20000.impl.sb", [],
     "under-synchronized", "prover"),
    ("corpus/figures/fig7_fig8.json", "corpus/bugs/fig8_nk_off_by_one.sb", [], "under-synchronized", "explorer"),
    ("tests/inputs/overflow/counter_spec.sb", "tests/inputs/overflow/counter_impl.sb", ["--register-bits", "8"],
     "overflow", "explorer"),
])
def test_check_all_trips_prints_what_check_all_trips_prints(spec, impl, args, verdict, found_by):
    kwargs = {"register_bits": 8} if args else {}
    r = syncbisim.check_all_trips(src(spec), src(impl), **kwargs)
    # --threads 1: the command's prover on one thread, as the call's (jobs=1) is.
    status, out, _ = tool("check", spec, impl, "--all-trips", "--threads", "1", *args)
    assert (r.exit_status, untimed(str(r))) == (status, untimed(out))
    _, out, _ = tool("check", spec, impl, "--all-trips", "--threads", "1", "--json", *args)
    doc = json.loads(out)
    assert without_seconds(json.loads(r.to_json())) == without_seconds(doc)
    assert (r.verdict, r.found_by, r.verdict_line) == (verdict, found_by, doc["verdict"])
    assert str(r).startswith(r.verdict_line + "\n")
    assert r.all_trip_counts == bool(r) == (verdict == "bisimilar")
    # Each part as its own report: the prover's, and the explorer's at the capped trips.
    assert without_seconds(json.loads(r.prover.to_json())) == without_seconds(doc["prover"])
    assert without_seconds(json.loads(r.explorer.to_json())) == without_seconds(doc["explorer"])
    assert r.trip_cap == doc["explorer"]["trip_cap"] == 3


def test_check_all_trips_options():
    r = syncbisim.check_all_trips(src(FIG1), src(FIG1_PER_LOOP))
    assert r.all_trip_counts and r.exit_status == 0 and r.not_proved == []
    assert r.prover.verdict == "proved" and r.explorer.states == 89
    assert str(r).startswith("bisimilar for all trip counts\nprover: 1 of 1 consumers proved safe and exact")
    _, out, _ = tool("check", FIG1, FIG1_PER_LOOP, "--all-trips", "--max-trip", "2")
    assert untimed(str(syncbisim.check_all_trips(src(FIG1), src(FIG1_PER_LOOP), max_trip=2))) == untimed(out)
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.check_all_trips(src(FIG1), src(FIG1_PER_LOOP), semaphore_bits=1)
    assert err.value.rule == "bad-width"
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.check_all_trips(src(FIG1_PER_LOOP), src(FIG1))
    assert err.value.rule == "wrong-order"


FIG5 = "corpus/figures/fig5_offset_two.json"
FIG5_BUG = "corpus/bugs/fig5_trip_reg_in_expr.sb"
FIG5_TRACE = "tests/inputs/traces/fig5_trip_reg_in_expr.check.json"


@pytest.mark.parametrize("args,kwargs", [
    ([FIG5, "--seed", "7"], {"seed": 7}),
    ([FIG5, "--seed", "7", "--visible-only"], {"seed": 7, "visible_only": True}),
    ([FIG5, "--seed", "2", "--max-steps", "3"], {"seed": 2, "max_steps": 3}),
    (["corpus/figures/fig7_fig8.json", "corpus/bugs/fig8_nk_off_by_one.sb", "--seed", "3"], {"seed": 3}),
    (["corpus/figures/fig7_fig8.json", "corpus/figures/fig8_per_loop.impl.json", "--seed", "5"], {"seed": 5}),
    (["corpus/figures/fig7_fig8.json", "corpus/bugs/fig7_missing_signal.sb", "--seed", "1"], {"seed": 1}),
    ([FIG5, FIG5_BUG, "--from", FIG5_TRACE, "--seed", "3"], {"seed": 3, "from_trace": src(FIG5_TRACE)}),
    (["tests/inputs/overflow/counter_spec.sb", "tests/inputs/overflow/counter_impl.sb", "--register-bits", "8"],
     {"register_bits": 8}),
])
def test_run_prints_what_run_prints(args, kwargs):
    files = [a for a in args[:2] if not a.startswith("--")]
    programs = [src(f) for f in files]
    r = syncbisim.run(*programs, **kwargs)
    status, out, _ = tool("run", *args)
    assert (str(r), r.exit_status) == (out, status)  # byte for byte: a seeded run has no clock in it
    _, out, _ = tool("run", *args, "--json")
    assert r.to_json() == out
    doc = json.loads(out)
    assert r.outcome == doc["outcome"]
    assert len(r.events) == len(doc["events"])
    assert r.stuck == doc.get("stuck", [])
    assert (r.mismatch is not None) == ("mismatch" in doc)
    assert len(r.overflows) == len(doc.get("overflows", []))


def test_run_events_outcomes_and_errors():
    r = syncbisim.run(src("corpus/figures/fig7_fig8.json"), src("corpus/bugs/fig8_nk_off_by_one.sb"), seed=3)
    assert (r.outcome, r.exit_status) == ("mismatch", 1)
    m = r.mismatch
    assert (m.kind, m.engine, m.instr, m.dependency) == ("under-sync", "E1", "I2", "I1 -> I2")
    assert "the wait needs s0 >= 2 at least" in m.fix and m.description in str(r) and m.trace == []
    assert r.events[0] == {"step": "regop", "engine": "E0", "instr": "rh_A := 0", "value": "", "detail": "rh_A=0"}
    alone = syncbisim.run(src(FIG5), seed=7)
    assert alone.outcome == "finished" and alone.mismatch is None
    assert alone.events[0]["step"] == "loop-entry" and alone.events[0]["detail"] == "A #1"
    assert str(syncbisim.run(src(FIG5), seed=7)) == str(alone)  # the same seed, the same run
    cut = syncbisim.run(src("corpus/figures/fig7_fig8.json"), src("corpus/figures/fig8_per_loop.impl.json"),
                        max_steps=2)
    assert (cut.outcome, cut.exit_status) == ("step-limit", 3)
    with open(src(FIG5_TRACE)) as f:
        assert str(syncbisim.run(src(FIG5), src(FIG5_BUG), from_trace=f.read(), seed=3)) == \
            str(syncbisim.run(src(FIG5), src(FIG5_BUG), from_trace=src(FIG5_TRACE), seed=3))
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.run(src("corpus/figures/fig7_fig8.json"), src("corpus/bugs/fig8_nk_off_by_one.sb"),
                      from_trace=src(FIG5_TRACE))
    assert err.value.rule == "trace-misfit"
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.run(src(FIG5), from_trace=src(FIG5_TRACE))
    assert err.value.rule == "usage"


# --- the command's files: --svg and --trace-out ------------------------------------------------


def _written(tmp_path, name, *args):
    """The file a command writes with an output option (and its exit status)."""
    out = os.path.join(str(tmp_path), name)
    status, _, _ = tool(*args, out)
    with open(out) as f:
        return status, f.read()


def test_check_svg_and_traces_are_the_files_check_writes(tmp_path):
    spec, impl = "corpus/figures/fig7_fig8.json", "corpus/bugs/fig8_nk_off_by_one.sb"
    r = syncbisim.check(src(spec), src(impl), svg=True)
    status, svg = _written(tmp_path, "cx.svg", "check", spec, impl, "--svg")
    assert status == r.exit_status == 1
    assert r.svg == svg and "here the two sides part" in svg
    _, traces = _written(tmp_path, "t.json", "check", spec, impl, "--trace-out")
    assert json.loads(r.traces) == json.loads(traces)
    # No violation: nothing to draw, and no trace.
    ok = syncbisim.check(src(FIG1), src(FIG1_PER_LOOP), svg=True)
    assert ok.svg == "" and json.loads(ok.traces)["violations"] == []
    assert syncbisim.check(src(spec), src(impl)).svg == ""  # only when asked


def test_prove_traces_are_the_file_prove_writes(tmp_path):
    spec, impl = "corpus/figures/fig7_fig8.json", "corpus/bugs/fig8_nk_off_by_one.sb"
    r = syncbisim.prove(src(spec), src(impl), jobs=1)
    _, traces = _written(tmp_path, "w.json", "prove", "--jobs", "1", spec, impl, "--trace-out")
    assert r.traces == traces
    assert json.loads(r.traces)["witnesses"]


def test_run_svg_is_the_file_run_writes(tmp_path):
    args = ["corpus/figures/fig7_fig8.json", "corpus/bugs/fig7_missing_signal.sb", "--seed", "1"]
    r = syncbisim.run(src(args[0]), src(args[1]), seed=1, svg=True)
    _, svg = _written(tmp_path, "run.svg", "run", *args, "--svg")
    assert r.svg == svg and "<svg" in svg
    with pytest.raises(syncbisim.Error) as err:
        syncbisim.run(src(args[0]), svg=True)
    assert err.value.rule == "usage"


def test_replay_svg_is_the_file_replay_writes(tmp_path):
    r = syncbisim.replay(src(FIG5), src(FIG5_BUG), src(FIG5_TRACE), svg=True)
    _, svg = _written(tmp_path, "r.svg", "replay", FIG5, FIG5_BUG, FIG5_TRACE, "--svg")
    assert r.svg == svg and "<svg" in svg
