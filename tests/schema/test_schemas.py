"""Every JSON document syncbisim reads or writes against its schema in docs/schema/ (issue 15, part 2).

Run by CTest with SYNCBISIM_EXE naming the built tool and SYNCBISIM_SOURCE_DIR the source tree,
under Debian's python3-jsonschema (4.10, draft 2020-12). It runs the tool on the corpus (good
pairs, bugs, kernels, nonallocatable specs) so that every verdict and every command's --json output
is met, validates each document against the schema its version field names, validates every corpus
JSON program, checks the schemas themselves, and checks that broken documents are rejected.
"""
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema
import pytest

SOURCE = os.path.abspath(os.environ.get("SYNCBISIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")))
EXE = os.environ.get("SYNCBISIM_EXE", os.path.join(SOURCE, "build", "syncbisim"))
SCHEMA_DIR = os.path.join(SOURCE, "docs", "schema")
Validator = jsonschema.Draft202012Validator


def _load_schemas():
    schemas = {}
    for path in sorted(glob.glob(os.path.join(SCHEMA_DIR, "*.schema.json"))):
        with open(path) as f:
            schemas[os.path.basename(path)] = json.load(f)
    return schemas


SCHEMAS = _load_schemas()
BY_ID = {s["$id"]: s for s in SCHEMAS.values()}

# The schema for each version field's kind ("check/1" -> check.schema.json).
KIND_SCHEMA = {
    "spec": "program.schema.json",
    "impl": "program.schema.json",
    "check": "check.schema.json",
    "check-batch": "check-batch.schema.json",
    "check-all-trips": "check-all-trips.schema.json",
    "prove": "prove.schema.json",
    "traces": "trace.schema.json",
    "fuzz": "fuzz.schema.json",
    "failure": "failure.schema.json",
    "replay": "replay.schema.json",
    "run": "run.schema.json",
    "simulate": "simulate.schema.json",
    "stats": "stats.schema.json",
    "stats-compare": "stats-compare.schema.json",
    "table2": "table2.schema.json",
}


def validator(name):
    """A validator for docs/schema/NAME whose relative $refs resolve among the other schemas."""
    schema = SCHEMAS[name]
    try:  # jsonschema >= 4.18 resolves through `referencing`; Debian 12's 4.10 through RefResolver.
        from referencing import Registry, Resource

        registry = Registry().with_resources((i, Resource.from_contents(s)) for i, s in BY_ID.items())
        return Validator(schema, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver(schema["$id"], schema, store=dict(BY_ID))
        return Validator(schema, resolver=resolver)


VALIDATORS = {name: validator(name) for name in SCHEMAS}


def errors(doc, name):
    return sorted(VALIDATORS[name].iter_errors(doc), key=lambda e: list(e.absolute_path))


def assert_valid(doc, name, what):
    errs = errors(doc, name)
    if errs:
        lines = [f"{what}: {len(errs)} error(s) against {name}"]
        for e in errs[:5]:
            lines.append(f"  at /{'/'.join(map(str, e.absolute_path))}: {e.message[:400]}")
            for c in sorted(e.context, key=lambda c: len(c.absolute_path))[-3:]:
                lines.append(f"    ({'/'.join(map(str, c.absolute_path))}: {c.message[:200]})")
        pytest.fail("\n".join(lines))


def values_where(node, picked):
    """The values of every key of NODE's objects, at any depth, that PICKED(key, value) takes;
    a taken value is not searched further."""
    if isinstance(node, dict):
        for k, v in node.items():
            if picked(k, v):
                yield v
            else:
                yield from values_where(v, picked)
    elif isinstance(node, list):
        for v in node:
            yield from values_where(v, picked)


def traces_in(doc):
    """Every array of step objects in the document (the one trace encoding), for the checks JSON
    Schema cannot make: a closing element comes only last."""
    return values_where(doc, lambda k, v: k in ("trace", "steps", "events", "head", "tail") and isinstance(v, list)
                        and v and isinstance(v[0], dict) and "step" in v[0])


def check_document(doc, what, expect_kind=None):
    """Validates DOC against the schema its version field names; returns its kind."""
    assert isinstance(doc, dict), f"{what}: not a JSON object"
    version = doc.get("syncbisim")
    assert isinstance(version, str) and re.fullmatch(r"[a-z0-9-]+/1", version), f"{what}: version {version!r}"
    kind = version.split("/")[0]
    if expect_kind is not None:
        assert kind == expect_kind, f"{what}: a {kind} document, expected {expect_kind}"
    assert kind in KIND_SCHEMA, f"{what}: no schema for {version}"
    assert_valid(doc, KIND_SCHEMA[kind], what)
    for trace in traces_in(doc):
        for step in trace[:-1]:
            assert step["step"] not in ("part", "stuck", "overflow"), f"{what}: closing element {step} is not last"
    return kind


# --- running the tool -------------------------------------------------------------------------------

SEEN = {"verdicts": set(), "kinds": set()}


def run(args, expect=(0, 1, 3), cwd=SOURCE):
    p = subprocess.run([EXE] + args, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert p.returncode in expect, f"syncbisim {' '.join(args)}: exit {p.returncode}\n{p.stderr[-2000:]}"
    return p


def run_json(args, kind, expect=(0, 1, 3)):
    p = run(args + ["--json"], expect)
    doc = json.loads(p.stdout)
    check_document(doc, "syncbisim " + " ".join(args), kind)
    SEEN["kinds"].add(kind)
    return doc


def corpus_pairs():
    """(spec, impl) for every hand-written pair: the '# spec:' header of good and bugs, and the
    manifest's JSON pairs."""
    pairs = []
    for impl in sorted(glob.glob(os.path.join(SOURCE, "corpus", "good", "*.sb")) + glob.glob(os.path.join(SOURCE, "corpus", "bugs", "*.sb"))):
        with open(impl) as f:
            m = re.search(r"^# spec: (\S+)", f.read(), re.M)
        assert m, f"{impl}: no '# spec:' header"
        pairs.append((m.group(1), os.path.relpath(impl, SOURCE)))
    with open(os.path.join(SOURCE, "corpus", "pairs.manifest")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                spec, impl = line.split()[:2]
                pairs.append((spec, impl))
    return pairs


PAIRS = corpus_pairs()
CORPUS_SPECS = sorted(
    os.path.relpath(p, SOURCE)
    for d in ("figures", "kernels", "nonallocatable", "schemes")
    for p in glob.glob(os.path.join(SOURCE, "corpus", d, "*.json"))
    if ".impl." not in p
)
CORPUS_PROGRAMS = sorted(
    os.path.relpath(p, SOURCE) for p in glob.glob(os.path.join(SOURCE, "corpus", "*", "*.json"))
) + sorted(os.path.relpath(p, SOURCE) for d in ("long", "footprints")
         for p in glob.glob(os.path.join(SOURCE, "tests", "inputs", d, "*.json")))


# --- the schemas themselves -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_is_a_valid_draft_2020_12_schema_and_its_refs_resolve(name):
    schema = SCHEMAS[name]
    assert schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("/" + name)
    Validator.check_schema(schema)

    for ref in values_where(schema, lambda k, v: k == "$ref"):
        base, _, pointer = ref.partition("#")
        target = SCHEMAS[base] if base else schema
        for part in [p for p in pointer.split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            assert part in target, f"{name}: $ref {ref} does not resolve"
            target = target[part]


def test_every_version_the_tool_writes_has_a_schema():
    """Every "kind/1" literal in the writers' sources names a schema here."""
    found = set()
    for d in ("cli", "checker", "prover", "fuzz", "formats", "timing", "latency", "allocator", "footprint"):
        for path in glob.glob(os.path.join(SOURCE, d, "**", "*.cpp"), recursive=True):
            with open(path) as f:
                found |= set(re.findall(r'"syncbisim"\s*[,\]]\s*=?\s*"([a-z0-9-]+)/1"', f.read()))
                f.seek(0)
                found |= set(re.findall(r'\["syncbisim"\]\s*=\s*"([a-z0-9-]+)/1"', f.read()))
    assert len(found) >= 10, f"only {sorted(found)} found: the pattern is out of date"
    assert found <= set(KIND_SCHEMA), f"versions without a schema: {sorted(found - set(KIND_SCHEMA))}"


# --- programs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CORPUS_PROGRAMS)
def test_corpus_json_program_matches_the_program_schema(path):
    with open(os.path.join(SOURCE, path)) as f:
        check_document(json.load(f), path)


def test_show_json_of_every_text_program_matches_the_program_schema():
    paths = sorted(glob.glob(os.path.join(SOURCE, "corpus", "*", "*.sb")))
    paths += sorted(glob.glob(os.path.join(SOURCE, "tests", "inputs", "prover", "*.sb")))
    assert len(paths) > 40
    for path in paths:
        doc = json.loads(run(["show", path, "--json"], (0,)).stdout)
        check_document(doc, "show --json " + os.path.relpath(path, SOURCE))


def test_footprint_programs_and_derived_graphs_match_the_program_schema():
    """Buffers, reads / writes / accumulates and whole-iteration distances ("k": "*"), as show --json
    and deps --json write them (docs/footprints.md)."""
    paths = sorted(glob.glob(os.path.join(SOURCE, "corpus", "footprints", "*.sb")))
    assert len(paths) >= 10, paths
    paths += sorted(glob.glob(os.path.join(SOURCE, "tests", "inputs", "footprints", "*.sb")))  # the readers' fuzz seeds
    met = set()
    for path in paths:
        doc = json.loads(run(["show", path, "--json"], (0,)).stdout)
        check_document(doc, "show --json " + os.path.relpath(path, SOURCE))
        if doc.get("buffers"):
            met.add("buffers")
        for field in ("reads", "writes", "accumulates"):
            if any(values_where(doc, lambda k, v, field=field: k == field)):
                met.add(field)
    # deps writes the spec with its derived graph on stdout; weight_slots needs n=1, k=*.
    derived = json.loads(run(["deps", "corpus/footprints/weight_slots.sb", "--json"]).stdout)
    check_document(derived, "deps corpus/footprints/weight_slots.sb --json", "spec")
    if any("*" in d.get("distance", {}).values() for d in derived["deps"]):
        met.add("*")
    assert met == {"buffers", "reads", "writes", "accumulates", "*"}, met


def test_broken_footprints_are_rejected_by_the_schema_and_the_reader(tmp_path):
    doc = json.loads(run(["show", "corpus/footprints/weight_slots.sb", "--json"], (0,)).stdout)
    assert not errors(doc, "program.schema.json")
    load = doc["program"][0]["body"][0]["body"][0]["block"]["DMA"][0]
    assert load["id"] == "load_w"
    star = {"producer": "mm", "consumer": "load_w", "distance": {"n": 1, "k": "*"}}
    assert not errors(dict(doc, deps=doc["deps"] + [star]), "program.schema.json")

    def at_load(**fields):
        return lambda d: d["program"][0]["body"][0]["body"][0]["block"]["DMA"][0].update(fields)

    broken = {  # what -> (edit, the reader's rule)
        "a buffer in memory dram": (lambda d: d["buffers"][0].update(memory="dram"), "bad-memory"),
        "a buffer with no dimension": (lambda d: d["buffers"][0].update(shape=[]), "bad-shape"),
        "a dimension of size 0": (lambda d: d["buffers"][1].update(shape=[2, 0, 128]), "bad-shape"),
        "a dimension past 2^32": (lambda d: d["buffers"][3].update(shape=[4, 2 ** 32 + 1]), "bad-shape"),
        "a buffer without a shape": (lambda d: d["buffers"][0].pop("shape"), "missing-field"),
        "an unknown field in a buffer": (lambda d: d["buffers"][0].update(dtype="bf16"), "unknown-field"),
        "buffers in an impl": (lambda d: d.update(syncbisim="impl/1", deps=[], program=[]), "impl-has-footprints"),
        "reads as a string": (at_load(reads="a[n, k, :, :]"), "bad-type"),
        "an access that is not a string": (at_load(writes=[["w", 0]]), "bad-type"),
        "an access without subscripts": (at_load(reads=["a"]), "bad-access"),
        "a distance of '**'": (lambda d: next(x for x in d["deps"] if x.get("distance"))["distance"].update(n="**"), "bad-type"),
    }
    for what, (edit, rule) in broken.items():
        bad = copy.deepcopy(doc)
        edit(bad)
        assert errors(bad, "program.schema.json"), f"program.schema.json accepts a spec with {what}"
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(bad))
        p = run(["show", str(path), "--json"], (2,))
        assert f"[{rule}" in p.stderr, f"{what}: {p.stderr}"


def test_names_with_a_dash_match_the_program_schema(tmp_path):
    """Engines, instructions, loops, conds, semaphores and buffers may hold '-' (docs/formats.md
    "Names"); registers may not (test_broken_documents_are_rejected). Issue 43 item 7."""
    loop = {"loop": "tile-k", "trip": 4, "body": [{"block": {"dma-0": ["load-a"], "pe-1": ["mm-b"]}}]}
    cond = {"cond": "c-1", "then": [{"block": {"dma-0": ["x-1"]}}], "else": [{"block": {"pe-1": ["y-2"]}}]}
    spec = {"syncbisim": "spec/1", "engines": ["dma-0", "pe-1"], "program": [loop, cond],
            "deps": [{"producer": "load-a", "consumer": "mm-b"},
                     {"producer": "mm-b", "consumer": "load-a", "distance": {"tile-k": 1}}]}
    # footprints are refused under a cond (footprint-cond): the buffers go in a spec of their own
    footprints = dict(spec, buffers=[{"name": "x-in", "memory": "hbm", "shape": [4, 8]},
                                     {"name": "t-1", "memory": "sbuf", "shape": [2, 8]}],
                      program=[dict(loop, body=[{"block": {
                          "dma-0": [{"id": "load-a", "reads": ["x-in[3, :]"], "writes": ["t-1[0, :]"]}],
                          "pe-1": [{"id": "mm-b", "reads": ["t-1[0, 0:8]"]}]}}])])
    impl = {"syncbisim": "impl/1", "engines": ["dma-0", "pe-1"], "semaphores": ["s-0"],
            "program": [
                {"loop": "tile-k", "body": [{"block": {
                    "dma-0": [{"set": "r_k", "expr": "r_k + 1"}, {"instr": "load-a", "signal": "s-0"}],
                    "pe-1": [{"set": "w", "expr": "r_k"}, {"instr": "mm-b", "wait": [{"sem": "s-0", "ge": "w"}]}]}}]},
                cond,
                {"block": {"dma-0": [{"barrier": {"reset": ["s-0"]}}], "pe-1": [{"barrier": {}}]}}]}
    for what, doc in (("spec", spec), ("footprints", footprints), ("impl", impl)):
        assert_valid(doc, "program.schema.json", f"a {what} with dashed names")
        path = tmp_path / f"dashed.{what}.json"
        path.write_text(json.dumps(doc))
        check_document(json.loads(run(["show", str(path), "--json"], (0,)).stdout), f"show --json of a dashed {what}")
    p = run(["allocate", str(tmp_path / "dashed.spec.json"), "--strategy", "per-loop"], (0,))
    check_document(json.loads(p.stdout), "allocate of a spec with dashed names", "impl")


def test_a_long_expression_with_spaces_matches_the_program_schema(tmp_path):
    """The reader limits an expression to 4096 characters not counting whitespace, so the writers'
    spaced form may be longer; the schema sets no maximum (issue 43 item 7)."""
    expr = " + ".join(["rA"] + ["1"] * 1249)
    expr += " " * (5000 - len(expr))
    assert len(expr) == 5000 and len(expr.replace(" ", "")) <= 4096
    impl = {"syncbisim": "impl/1", "engines": ["E0"], "semaphores": [],
            "program": [{"block": {"E0": [{"set": "rA", "expr": expr}, "I0"]}}]}
    assert_valid(impl, "program.schema.json", "an impl with a 5000-character expression")
    path = tmp_path / "long.json"
    path.write_text(json.dumps(impl))
    written = json.loads(run(["show", str(path), "--json"], (0,)).stdout)
    check_document(written, "show --json of a long expression", "impl")
    assert len(written["program"][0]["block"]["E0"][0]["expr"]) > 4096


def test_allocate_and_gen_write_programs_that_match_the_program_schema():
    written = 0
    for spec in CORPUS_SPECS:
        for strategy in ("barrier", "per-instruction", "per-loop", "per-engine", "auto"):
            p = run(["allocate", spec, "--strategy", strategy, "--share-waits"], (0, 1, 2))
            if p.returncode == 0:  # else the strategy declines the spec (not allocatable by it)
                check_document(json.loads(p.stdout), f"allocate {spec} --strategy {strategy}", "impl")
                written += 1
    assert written >= 3 * len(CORPUS_SPECS), written
    for spec, loop in (("corpus/kernels/tiled_matmul.json", "k"), ("corpus/kernels/rmsnorm.json", "col")):
        p = run(["allocate", spec, "--unroll", loop], (0,))
        check_document(json.loads(p.stdout), f"allocate {spec} --unroll {loop}", "impl")
    for specs in ("allocatable", "arbitrary", "mixed"):
        p = run(["gen", "--seed", "7", "--runs", "6", "--specs", specs], (0,))
        lines = [l for l in p.stdout.splitlines() if l.strip()]
        assert len(lines) == 6
        for l in lines:
            check_document(json.loads(l), f"gen --specs {specs}", "spec")


# --- check ------------------------------------------------------------------------------------------


def test_check_json_of_every_corpus_pair_and_its_trace_out(tmp_path):
    for spec, impl in PAIRS:
        trace = str(tmp_path / "t.json")
        doc = run_json(["check", spec, impl, "--trace-out", trace, "--coverage"], "check")
        SEEN["verdicts"].add(doc["verdict"])
        if doc["violations"]:
            with open(trace) as f:
                traces = json.load(f)
            check_document(traces, f"check --trace-out of {impl}", "traces")
            assert len(traces["violations"]) == len(doc["violations"])
            os.remove(trace)
    assert {"bisimilar", "over-synchronized", "under-synchronized", "spec-deadlock"} <= SEEN["verdicts"]


def test_check_json_of_limits_random_and_no_reduction():
    fig8 = ["corpus/figures/fig7_fig8.json", "corpus/figures/fig8_per_loop.impl.json"]
    doc = run_json(["check"] + fig8 + ["--max-states", "3"], "check")
    assert doc["verdict"] == "inconclusive" and "limit" in doc
    doc = run_json(["check"] + fig8 + ["--random", "10", "--seed", "5"], "check")
    assert doc["verdict"] == "inconclusive"
    doc = run_json(["check", "corpus/figures/fig1_motivating.json", "corpus/bugs/fig1_offset_too_small.sb", "--no-reduction"], "check")
    assert doc["verdict"] != "bisimilar"
    doc = run_json(["check", "corpus/figures/fig1_motivating.json", "corpus/bugs/fig1_offset_too_small.sb", "--random", "20", "--seed", "1"], "check")
    doc = run_json(["check", "corpus/figures/fig5_offset_two.json", "corpus/good/fig5_per_loop.impl.sb", "--max-trip", "2"], "check")


def test_check_json_of_allocated_kernels_and_nonallocatable_specs(tmp_path):
    for spec in CORPUS_SPECS:
        impl = str(tmp_path / "i.json")
        p = run(["allocate", spec, "--strategy", "auto", "-o", impl], (0, 1, 2))
        if p.returncode != 0:
            continue
        doc = run_json(["check", spec, impl, "--max-states", "20000", "--coverage"], "check")
        SEEN["verdicts"].add(doc["verdict"])


def test_check_batch_json():
    doc = run_json(["check", "--batch", "corpus/good", "--batch", "corpus/bugs", "--batch", "corpus/pairs.manifest", "--jobs", "2"], "check-batch")
    assert len(doc["pairs"]) == len(PAIRS)
    errors_seen = 0
    for manifest in sorted(glob.glob(os.path.join(SOURCE, "tests", "inputs", "batch", "*.manifest"))):
        doc = run_json(["check", "--batch", manifest, "--max-states", "5000"], "check-batch", (0, 1, 2, 3))
        errors_seen += sum("error" in p for p in doc["pairs"])
    assert errors_seen > 0, "no batch pair with an input error was met"


def test_input_errors_write_no_json_document():
    """Bad input is one message on stderr and exit 2 (docs/formats.md "Bad input"), never a JSON
    document on stdout; only a batch reports it, as a pair with "error" (above)."""
    bad = "tests/inputs/bad/unknown-field__top_level.json"
    for args in (["check", bad, "corpus/good/fig1_per_loop.impl.sb"], ["prove", bad, "corpus/good/fig1_per_loop.impl.sb"],
                 ["simulate", bad, "corpus/good/fig1_per_loop.impl.sb"], ["stats", bad]):
        p = run(args + ["--json"], (2,))
        assert p.stdout == "" and "unknown-field" in p.stderr, args


@pytest.fixture
def deep_pair(tmp_path):
    """tests/inputs/prover's deep pair, made smaller so that it runs in a fraction of a second: a
    loop of up to 3,000 iterations whose impl waits wrongly from iteration 700 on. The explorer at
    capped trips misses it, the prover refutes it with a witness long enough to be shortened."""
    prover = os.path.join(SOURCE, "tests", "inputs", "prover")
    with open(os.path.join(prover, "deep.spec.sb")) as f:
        spec = f.read()
    with open(os.path.join(prover, "deep_wrong_from_20000.impl.sb")) as f:
        impl = f.read()
    assert "100000" in spec and "20000" in impl
    (tmp_path / "deep.spec.sb").write_text(spec.replace("100000", "3000"))
    (tmp_path / "deep.impl.sb").write_text(impl.replace("20000", "700"))
    return str(tmp_path / "deep.spec.sb"), str(tmp_path / "deep.impl.sb")


def test_check_all_trips_json(tmp_path, deep_pair):
    cases = [
        ("corpus/figures/fig5_offset_two.json", "corpus/good/fig5_per_loop.impl.sb"),
        ("corpus/figures/fig7_fig8.json", "corpus/bugs/fig8_nk_off_by_one.sb"),
        ("corpus/figures/fig1_motivating.json", "corpus/good/fig1_barrier.impl.sb"),
        deep_pair,
        ("corpus/figures/sec75_divergent.json", "corpus/good/sec75_divergent.impl.sb"),
    ]
    met = set()
    for spec, impl in cases:
        trace = str(tmp_path / "t.json")
        doc = run_json(["check", spec, impl, "--all-trips", "--trace-out", trace], "check-all-trips")
        met |= {doc["verdict"], "found by " + doc["found_by"]}
        if os.path.exists(trace):
            with open(trace) as f:
                check_document(json.load(f), f"check --all-trips --trace-out of {impl}", "traces")
            os.remove(trace)
    assert {"bisimilar for all trip counts", "under-synchronized", "over-synchronized", "spec-deadlock",
            "found by prover", "found by explorer"} <= met, met


# --- prove ------------------------------------------------------------------------------------------


def test_prove_json_and_trace_out(tmp_path, deep_pair):
    cases = [(s, i) for s, i in PAIRS if "fig" in i or "two_producers" in i or "shared" in i]
    cases.append(deep_pair)
    # The one known unknown of the corpus's allocations (docs/prover.md "What `unknown` means").
    barrier = str(tmp_path / "sec75_barrier.impl.json")
    run(["allocate", "corpus/figures/sec75_divergent.json", "--strategy", "barrier", "-o", barrier], (0,))
    cases.append(("corpus/figures/sec75_divergent.json", barrier))
    verdicts, shortened = set(), 0
    for spec, impl in cases:
        trace = str(tmp_path / "w.json")
        doc = run_json(["prove", spec, impl, "--trace-out", trace], "prove", (0, 1, 3))
        verdicts.add(doc["verdict"])
        shortened += '"trace_omitted"' in json.dumps(doc)
        if os.path.exists(trace):
            with open(trace) as f:
                check_document(json.load(f), f"prove --trace-out of {impl}", "traces")
            os.remove(trace)
    assert verdicts == {"proved", "refuted", "unknown"}, verdicts
    assert shortened, "no witness long enough to be shortened (trace_omitted) was met"


def test_prove_json_of_overflows(tmp_path):
    """The overflow questions (docs/prover.md "Overflow"): refuted with and without a trace, proved;
    a traced one in prove --trace-out as a witness closed by its overflow."""
    long = ["tests/inputs/prover/counter_long.spec.sb", "tests/inputs/prover/counter_long.impl.sb"]
    short = ["tests/inputs/prover/counter_300.spec.sb", "tests/inputs/prover/counter_300.impl.sb"]
    doc = run_json(["prove"] + long, "prove", (1,))
    sem = [o for o in doc["overflows"] if o["kind"] == "semaphore"]
    assert sem and sem[0]["answer"] == "refuted" and "no_trace" in sem[0], sem
    doc = run_json(["prove"] + short + ["--register-bits", "8"], "prove", (1,))
    reg = [o for o in doc["overflows"] if o["kind"] == "register"]
    assert reg and reg[0]["answer"] == "refuted" and reg[0]["trace"]["steps"] > 0, reg
    for args, what, value in ((short + ["--register-bits", "8"], "register", 256),
                              (["tests/inputs/overflow/sem_spec.sb", "tests/inputs/overflow/sem_impl.sb",
                                "--semaphore-bits", "4"], "semaphore", 8)):
        trace = str(tmp_path / "witnesses.json")
        run_json(["prove"] + args + ["--trace-out", trace], "prove", (1,))
        with open(trace) as f:
            traces = json.load(f)
        check_document(traces, f"prove --trace-out {args}", "traces")
        found = [w for w in traces["witnesses"] if w["kind"] == "overflow"]
        assert found and found[0]["trace"][-1]["step"] == "overflow", traces
        assert found[0]["trace"][-1]["what"] == what and found[0]["trace"][-1]["value"] == value, found[0]["trace"][-1]
    doc = run_json(["prove"] + long + ["--semaphore-bits", "64"], "prove", (0,))
    assert all(o["answer"] == "proved" for o in doc["overflows"]) and doc["widths"]["semaphore_bits"] == 64


# --- fuzz, shrink, replay, run ----------------------------------------------------------------------


def test_fuzz_json_and_its_failure_files(tmp_path):
    out = tmp_path / "fuzz"
    doc = run_json(["fuzz", "--strategy", "auto", "--runs", "40", "--seed", "3", "--specs", "arbitrary", "--out", str(out)], "fuzz")
    run_json(["fuzz", "--strategy", "per-loop", "--runs", "20", "--seed", "3", "--shard", "1/4"], "fuzz")
    # A strategy that under-synchronizes, so that failures (and their files) exist.
    bad = tmp_path / "bad"
    allocator = f"{sys.executable} {os.path.join(SOURCE, 'examples', 'allocators', 'per_instruction.py')} --bug mask"
    doc = run_json(["fuzz", "--allocator", allocator, "--specs", "allocatable", "--runs", "30", "--seed", "1", "--out", str(bad)], "fuzz", (1,))
    found = {"failure": 0, "traces": 0, "program": 0}
    for d in (out, bad):
        for path in sorted(glob.glob(str(d / "*.json"))):
            with open(path) as f:
                kind = check_document(json.load(f), path)
            found["program" if kind in ("spec", "impl") else kind] += 1
    assert found["failure"] > 0 and found["program"] > 0, found


def test_shrink_out_files(tmp_path):
    run(["shrink", "corpus/figures/fig1_motivating.json", "corpus/bugs/fig1_offset_too_large.sb", "--quiet", "-o", str(tmp_path)], (0,))
    files = sorted(glob.glob(str(tmp_path / "*.json")))
    assert any(f.endswith(".min.trace.json") for f in files), files
    for path in files:
        with open(path) as f:
            check_document(json.load(f), path)


def test_replay_json_of_every_stored_trace_and_a_misfit():
    traces = {
        "fig5_trip_reg_in_expr.check.json": ("corpus/figures/fig5_offset_two.json", "corpus/bugs/fig5_trip_reg_in_expr.sb"),
        "fig5_trip_reg_in_expr.trace.json": ("corpus/figures/fig5_offset_two.json", "corpus/bugs/fig5_trip_reg_in_expr.sb"),
        "fig8_nk_off_by_one.prove.json": ("corpus/figures/fig7_fig8.json", "corpus/bugs/fig8_nk_off_by_one.sb"),
        "fig1_offset_too_small.no_reduction.check.json": ("corpus/figures/fig1_motivating.json", "corpus/bugs/fig1_offset_too_small.sb"),
        # overflows (docs/semantics.md "Widths"), replayed at the widths they were found at
        "counter_4bit_overflow.trace.json": ("tests/inputs/overflow/counter_spec.sb", "tests/inputs/overflow/counter_impl.sb", "--register-bits", "4"),
        "sem_4bit_overflow.trace.json": ("tests/inputs/overflow/sem_spec.sb", "tests/inputs/overflow/sem_impl.sb", "--semaphore-bits", "4"),
        "sem_4bit_overflow.prove.trace.json": ("tests/inputs/overflow/sem_spec.sb", "tests/inputs/overflow/sem_impl.sb", "--semaphore-bits", "4"),
        "accumulate_sum.prove.trace.json": ("tests/inputs/prover/overflow/accumulate.spec.sb", "tests/inputs/prover/overflow/accumulate.impl.sb", "--semaphore-bits", "32"),
    }
    for name, (spec, impl, *widths) in traces.items():
        path = os.path.join("tests", "inputs", "traces", name)
        with open(os.path.join(SOURCE, path)) as f:
            stored = json.load(f)
        check_document(stored, path)
        doc = run_json(["replay", spec, impl, path] + widths, "replay", (1,))
        assert doc["fits"]
        if widths:
            assert doc["violations"] == ["overflow"] and doc["reproduced"], doc
    # Every stored trace is one of those above, or the one of a version replay refuses (the schema too).
    stored = {os.path.basename(p) for p in glob.glob(os.path.join(SOURCE, "tests", "inputs", "traces", "*.json"))}
    assert stored == set(traces) | {"fig5_trip_reg_in_expr.check2.json"}, stored
    with open(os.path.join(SOURCE, "tests", "inputs", "traces", "fig5_trip_reg_in_expr.check2.json")) as f:
        assert errors(json.load(f), "check.schema.json")
    run(["replay", "corpus/figures/fig5_offset_two.json", "corpus/bugs/fig5_trip_reg_in_expr.sb",
         "tests/inputs/traces/fig5_trip_reg_in_expr.check2.json", "--json"], (2,))
    # The trace on the fixed impl: the violation does not come (exit 0) or the trace does not fit (2).
    doc = run_json(["replay", "corpus/figures/fig5_offset_two.json", "corpus/good/fig5_per_loop.impl.sb", "tests/inputs/traces/fig5_trip_reg_in_expr.check.json"], "replay", (0, 2))
    doc = run_json(["replay", "corpus/figures/fig7_fig8.json", "corpus/figures/fig8_per_loop.impl.json", "tests/inputs/traces/fig5_trip_reg_in_expr.check.json"], "replay", (0, 2))
    assert not doc["fits"]


def test_run_json():
    outcomes = set()
    for args in (["corpus/figures/fig5_offset_two.json", "--seed", "11"],
                 ["corpus/figures/fig5_offset_two.json", "corpus/good/fig5_per_loop.impl.sb", "--seed", "3"],
                 ["corpus/figures/fig7_fig8.json", "corpus/bugs/fig8_nk_off_by_one.sb", "--seed", "3"],
                 ["corpus/figures/sec75_divergent.json", "corpus/good/sec75_divergent.impl.sb", "--seed", "3"],
                 ["corpus/kernels/tiled_matmul.json", "--seed", "2", "--max-steps", "5"],
                 ["corpus/figures/fig5_offset_two.json", "corpus/bugs/fig5_trip_reg_in_expr.sb", "--from",
                  "tests/inputs/traces/fig5_trip_reg_in_expr.check.json", "--seed", "3"]):
        outcomes.add(run_json(["run"] + args, "run")["outcome"])
    # an overflow (docs/semantics.md "Widths"): a register past 8 bits, a semaphore past 4, 2^64
    for args in (["tests/inputs/overflow/counter_spec.sb", "tests/inputs/overflow/counter_impl.sb", "--register-bits", "8"],
                 ["tests/inputs/overflow/sem_spec.sb", "tests/inputs/overflow/sem_impl.sb", "--semaphore-bits", "4"],
                 ["tests/inputs/overflow/free_spec.sb", "tests/inputs/overflow/wrap_add.sb"]):
        doc = run_json(["run"] + args, "run")
        assert doc["outcome"] == "overflow" and doc["overflows"], doc
        outcomes.add(doc["outcome"])
    # a step that would not end: an engine with no instruction in a loop of 2^32-1 trips
    doc = run_json(["run", "tests/inputs/limits/no_instr_loop.spec.sb", "tests/inputs/limits/no_instr_loop.impl.sb",
                    "--seed", "1", "--visible-only"], "run")  # not its 2^20 internal events
    assert doc["outcome"] == "step-limit" and doc["limit"].startswith("internal-steps 1048576"), doc["outcome"]
    assert outcomes == {"finished", "deadlock", "mismatch", "step-limit", "overflow"}, outcomes


def test_check_json_of_overflows(tmp_path):
    """Each kind of overflow finding, exhaustive and random, in check --json and --trace-out."""
    seen = set()
    for args in (["tests/inputs/overflow/counter_spec.sb", "tests/inputs/overflow/counter_impl.sb", "--register-bits", "8"],
                 ["tests/inputs/overflow/sem_spec.sb", "tests/inputs/overflow/sem_impl.sb", "--semaphore-bits", "4"],
                 ["tests/inputs/overflow/sem_spec.sb", "tests/inputs/overflow/sem_impl.sb", "--semaphore-bits", "4", "--random", "3"],
                 ["tests/inputs/overflow/free_spec.sb", "tests/inputs/overflow/wrap_add.sb"],
                 ["tests/inputs/overflow/free_spec.sb", "tests/inputs/overflow/wrap_add.sb", "--register-bits", "64"]):
        trace = str(tmp_path / "t.json")
        doc = run_json(["check"] + args + ["--trace-out", trace], "check")
        assert doc["verdict"] == "overflow", doc
        for v in doc["violations"]:
            assert v["kind"] == "overflow" and v["trace"][-1]["step"] == "overflow"
            seen.add(v["overflow"]["what"])
        with open(trace) as f:
            check_document(json.load(f), trace, "traces")
    assert seen == {"register", "semaphore", "past-u64"}, seen


# --- timing and statistics --------------------------------------------------------------------------


def test_simulate_stats_and_table2_json():
    for spec, impl in PAIRS[:12] + [("corpus/figures/sec75_divergent.json", "corpus/good/sec75_divergent.impl.sb")]:
        run_json(["simulate", spec, impl], "simulate")
    run_json(["simulate", "corpus/figures/fig1_motivating.json", "corpus/good/fig1_per_loop.impl.sb", "--costs", "tests/timing/unit_costs.json"], "simulate")
    cut = run_json(["simulate", "tests/inputs/limits/no_instr_loop.spec.sb", "tests/inputs/limits/no_instr_loop.impl.sb"], "simulate", (3,))
    assert cut["limit"].startswith("steps 268435456") and not cut["deadlock"], cut
    for _, impl in PAIRS[:20]:
        run_json(["stats", impl], "stats", (0,))
    run_json(["stats", "--compare", "corpus/figures/fig1_motivating.json"], "stats-compare", (0,))
    run_json(["stats", "--compare", "corpus/kernels/tiled_matmul.json"], "stats-compare", (0,))
    # A tight budget: the barrier baseline's row says why it does not fit, the others how exact they stayed.
    tight = run_json(["stats", "--compare", "corpus/kernels/flash_attention.json", "--max-semaphores", "2"], "stats-compare", (0,))
    assert [r["strategy"] for r in tight["rows"] if "over_budget" in r] == ["barrier"], tight["rows"]
    assert all(r["budget"]["semaphores"]["used"] <= 2 and not r["exact"] for r in tight["rows"] if "over_budget" not in r)
    run_json(["stats", "corpus/good/fig1_per_loop.impl.sb", "--max-semaphores", "1"], "stats", (0,))
    run_json(["table2", "corpus/kernels/tiled_matmul.json", "--unroll", "k"], "table2", (0,))
    run_json(["table2", "corpus/kernels/adamw.json", "corpus/kernels/rmsnorm.json"], "table2", (0,))


def test_cost_tables_match_the_costs_schema_and_the_tool_agrees(tmp_path):
    with open(os.path.join(SOURCE, "tests", "timing", "unit_costs.json")) as f:
        assert_valid(json.load(f), "costs.schema.json", "tests/timing/unit_costs.json")
    # The example of docs/timing.md, every section used: the schema and the tool both accept it.
    full = {"syncbisim": "costs/1", "clock_ghz": 2.4,
            "engines": [["PE", "tensor"], ["DMA*", "dma"], ["*", "generic"]],
            "ops": {"matmul*": {"tensor": {"per_unit": 1, "min": 64, "latency": 256, "default_size": 512}}},
            "sequencer": {"dispatch": 16, "alu_op": 88, "branch": 64},
            "barrier": {"handshake": 240, "reset": 64}}
    pair = ["corpus/figures/fig1_motivating.json", "corpus/good/fig1_per_loop.impl.sb"]
    for what, doc, ok in (("full", full, True), ("no version", {k: v for k, v in full.items() if k != "syncbisim"}, False),
                          ("unknown field", dict(full, extra=1), False), ("clock as text", dict(full, clock_ghz="2.4"), False)):
        path = tmp_path / "costs.json"
        path.write_text(json.dumps(doc))
        p = run(["simulate"] + pair + ["--costs", str(path), "--json"], (0, 2))
        assert (p.returncode == 0) == ok, f"the tool on a cost file with {what}: exit {p.returncode}"
        assert (not errors(doc, "costs.schema.json")) == ok, f"the schema on a cost file with {what}"
        if ok:
            check_document(json.loads(p.stdout), "simulate --costs", "simulate")


# --- the schemas reject what they should ------------------------------------------------------------


def _first_check(impl_path, spec_path):
    p = run(["check", spec_path, impl_path, "--json"])
    return json.loads(p.stdout)


def test_broken_documents_are_rejected():
    under = _first_check("corpus/bugs/fig1_offset_too_large.sb", "corpus/figures/fig1_motivating.json")
    assert under["verdict"] == "under-synchronized"
    assert not errors(under, "check.schema.json")

    def broken(doc, edit):
        d = copy.deepcopy(doc)
        edit(d)
        return d

    bad_checks = {
        "unknown verdict": lambda d: d.update(verdict="safe"),
        "states as a string": lambda d: d.update(states="28"),
        "missing violations": lambda d: d.pop("violations"),
        "unknown top-level field": lambda d: d.update(extra=1),
        "wrong version": lambda d: d.update(syncbisim="check/2"),
        "unknown violation kind": lambda d: d["violations"][0].update(kind="race"),
        "verdict without its violation": lambda d: d.update(verdict="bisimilar", exhaustive=True),
        "step of an unknown kind": lambda d: d["violations"][0]["trace"].insert(0, {"step": "jump", "engine": "E0"}),
        "issue without its instruction": lambda d: d["violations"][0]["trace"][0].pop("instr"),
        "trace without its closing element": lambda d: d["violations"][0]["trace"].pop(),
        "unknown field in a step": lambda d: d["violations"][0]["trace"][0].update(when=3),
        "negative threshold": lambda d: d["violations"][0]["impl"].update(threshold=-1),
    }
    for what, edit in bad_checks.items():
        assert errors(broken(under, edit), "check.schema.json"), f"check.schema.json accepts a check with {what}"

    with open(os.path.join(SOURCE, "corpus", "figures", "fig1_motivating.json")) as f:
        spec = json.load(f)
    assert not errors(spec, "program.schema.json")
    bad_programs = {
        "unknown field": lambda d: d.update(extra=1),
        "no engines": lambda d: d.pop("engines"),
        "engines as a string": lambda d: d.update(engines="E0"),
        "a spec with semaphores": lambda d: d.update(semaphores=["s"]),
        "a negative distance": lambda d: d["deps"][0]["distance"].update(A=-1),
        "an engine named with a digit first": lambda d: d["engines"].append("9E"),
            "a register with a dash": lambda d: d.update(syncbisim="impl/1", deps=[], program=[{"block": {"E0": [{"set": "r-1", "expr": 0}]}}]),
            "an instruction named barrier": lambda d: d["program"][0]["block"]["E0"].append("barrier"),
        "unknown version": lambda d: d.update(syncbisim="spec/2"),
    }
    for what, edit in bad_programs.items():
        assert errors(broken(spec, edit), "program.schema.json"), f"program.schema.json accepts a program with {what}"

    # A trace whose closing element is not last passes the schema (it cannot say so) but not this test.
    bad = broken(under, lambda d: d["violations"][0]["trace"].insert(0, d["violations"][0]["trace"].pop()))
    assert not errors(bad, "check.schema.json")
    with pytest.raises(AssertionError):
        check_document(bad, "a trace with its part first")


# The bad-input corpus (tests/inputs/bad, named RULE__case) whose rule is about structure or types:
# the program schema must reject each. The others need the whole program (names declared, ids unique,
# distances naming common loops, min <= max: the index's rules), expressions (a grammar, not a
# structure), are not JSON that Python reads
# (duplicate keys, malformed), or are text programs.
STRUCTURAL_RULES = {"bad-type", "bad-version", "missing-field", "unknown-field", "bad-number", "bad-trip",
                    "bad-taken", "no-engines", "impl-has-deps", "spec-has-barrier", "spec-has-regop",
                    "spec-has-semaphores", "spec-has-sync", "bad-name", "bad-stmt", "bad-item", "missing-trip",
                    "bad-signal", "bad-memory", "bad-shape", "impl-has-footprints"}
NOT_STRUCTURAL = {"bad-trip__min_gt_max.json",  # min <= max needs two numbers compared: the index's
                  "bad-number__extra_30_digits.json"}  # extra fields are open; the reader refuses past 64 bits
BAD_STRUCTURE = sorted(
    p for p in glob.glob(os.path.join(SOURCE, "tests", "inputs", "bad", "*.json"))
    if os.path.basename(p).split("__")[0] in STRUCTURAL_RULES and os.path.basename(p) not in NOT_STRUCTURAL
)


@pytest.mark.parametrize("path", BAD_STRUCTURE, ids=os.path.basename)
def test_bad_input_that_breaks_the_structure_is_rejected_by_the_program_schema(path):
    with open(path) as f:
        doc = json.load(f)
    assert errors(doc, "program.schema.json"), f"{path}: the program schema accepts it"


def test_the_bad_structure_cases_are_many():
    assert len(BAD_STRUCTURE) >= 25, len(BAD_STRUCTURE)


def _cli_cases_with_json():
    """The command-line cases (tests/cli/*.case) that ask for --json: (file, args, env)."""
    out = []
    for path in sorted(glob.glob(os.path.join(SOURCE, "tests", "cli", "*.case"))):
        with open(path) as f:
            lines = f.read().splitlines()
        args = [l[len("args: "):] for l in lines if l.startswith("args: ")]
        env = [l[len("env: "):] for l in lines if l.startswith("env: ")]
        # A case that pipes the tool's output into a comparison prints the comparison, not a document.
        if args and "--json" in args[0].split() and "| cmp " not in args[0]:
            out.append((path, args[0], env))
    return out


CLI_JSON_CASES = _cli_cases_with_json()


@pytest.mark.parametrize("case", CLI_JSON_CASES, ids=lambda c: os.path.basename(c[0]))
def test_json_output_of_every_cli_case_matches_its_schema(case):
    """Issue 43 item 7: whatever a command-line case prints with --json is one valid document, of
    a kind with a schema and matching it (a program from show --json, the rest by their version)."""
    path, args, env_lines = case
    env = dict(os.environ)
    env.update(kv.split("=", 1) for kv in env_lines)
    p = subprocess.run(["bash", "-c", f'"{EXE}" {args}'], cwd=SOURCE, capture_output=True, text=True, timeout=300,
                       env=env, stdin=subprocess.DEVNULL)
    what = os.path.basename(path)
    if not p.stdout.strip():
        # Input errors and usage write no document (test_input_errors_write_no_json_document).
        assert p.returncode == 2, f"{what}: no JSON on stdout, exit {p.returncode}"
        return
    doc = json.loads(p.stdout)
    if isinstance(doc, dict) and "syncbisim" in doc:
        SEEN["kinds"].add(check_document(doc, what))
    elif isinstance(doc, dict) and "footprints" in doc:
        # A race found before the check (docs/footprints.md): the verdict and the comparison.
        assert doc.get("verdict") == "race", what
    else:
        # deps --json: the derivation report, which has no schema of its own yet (docs/footprints.md).
        assert args.split()[0] == "deps", f"{what}: a JSON document with no version field"


def test_the_cli_cases_with_json_are_many():
    assert len(CLI_JSON_CASES) >= 20, len(CLI_JSON_CASES)


def test_every_kind_of_output_was_met():
    """Run last (pytest keeps file order): every --json output kind above was validated."""
    want = {"check", "check-batch", "check-all-trips", "prove", "fuzz", "replay", "run", "simulate", "stats", "stats-compare", "table2"}
    assert want <= SEEN["kinds"], f"not met: {sorted(want - SEEN['kinds'])}"
