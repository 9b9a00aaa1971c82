"""`check`, `prove` and `simulate --html FILE` in a real headless browser (docs/report.md): Debian's
chromium through chromedriver and python3-selenium. Each page is loaded from file://, must make no
request at all (its own Content-Security-Policy forbids them; the browser's network log must show
none), shows the verdict the command printed, and a trace is stepped with the buttons and the
arrow keys while the highlighted row and the state panel are compared with the numbers that
`check --json`, `--trace-out` and `prove --json` give for the same pair. Paths with markup in them
(`<b>`, `&`, quotes, `</script>`) must come out as text. Screenshots of every page go to
$SYNCBISIM_SCREENSHOTS if set, else to a temporary directory (printed; pytest -s shows it).

Without chromium, chromedriver or selenium the tests are skipped, except under CI (CI set in the
environment), where `make test` has installed them and their absence is a failure.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import pytest

EXE = os.environ.get("SYNCBISIM_EXE", "")
SRC = os.environ.get("SYNCBISIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

# An under-synchronized pair whose shortest trace has 7 steps, and its correct allocation.
SPEC = "corpus/figures/fig5_offset_two.json"
BUG = "corpus/bugs/fig5_trip_reg_in_expr.sb"
GOOD = "corpus/good/fig5_per_loop.impl.sb"
VISIBLE = ("issue", "retire", "choose", "commit")


def _missing():
    missing = [p for p, f in (("chromium", CHROMIUM), ("chromium-driver", CHROMEDRIVER)) if not os.path.exists(f)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("python3-selenium")
    return missing


@pytest.fixture(scope="module")
def shots():
    d = os.environ.get("SYNCBISIM_SCREENSHOTS") or tempfile.mkdtemp(prefix="syncbisim-html-shots-")
    os.makedirs(d, exist_ok=True)
    print("screenshots in", d)
    return d


def _new_driver(javascript=True):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
              "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions"):
        o.add_argument(a)
    if not javascript:
        o.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    o.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)


@pytest.fixture(scope="module")
def driver():
    missing = _missing()
    if missing:
        message = ("the browser test needs " + " ".join(missing) +
                   " (apt-get install chromium chromium-driver python3-selenium; `make test` installs them)")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    assert EXE and os.path.exists(EXE), "set SYNCBISIM_EXE to the built syncbisim"
    d = _new_driver()
    yield d
    d.quit()


def run(*args, status=None):
    p = subprocess.run([EXE, *args], cwd=SRC, capture_output=True, text=True, timeout=300)
    if status is not None:
        assert p.returncode == status, (args, p.returncode, p.stdout, p.stderr)
    return p


def odd_dir():
    """A directory whose path holds markup: a name may hold `<`, `&` and quotes, and two
    components make `</script>`."""
    base = tempfile.mkdtemp(prefix="syncbisim-html-")
    d = os.path.join(base, "a<", "script><b>bold</b> & \"quoted\" 'x'")
    os.makedirs(d)
    return d


def load(driver, path):
    driver.get_log("performance")  # drop what earlier pages logged
    driver.get(Path(path).as_uri())
    requests = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            requests.append(msg["params"]["request"]["url"])
    # Nothing but the page itself (and its data: icon) is asked for.
    others = [u for u in requests
              if not u.startswith("data:") and urllib.parse.unquote(u.split("#")[0]) != "file://" + path]
    assert others == [], others
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == [], errors  # a CSP violation or a script error would show here


def static_checks(html_text):
    # Self-contained: the policy in the page, no external script, style, font, image or link.
    assert '<meta http-equiv="Content-Security-Policy" content="%s">' % CSP in html_text
    assert not re.search(r'\b(src|href)\s*=\s*["\']?\s*(https?:|//)', html_text, re.I)
    assert not re.search(r"@import|url\(\s*['\"]?https?:", html_text, re.I)
    assert "<script src" not in html_text and "<link rel=\"stylesheet\"" not in html_text


def by(css):
    from selenium.webdriver.common.by import By

    return By.CSS_SELECTOR, css


def text(driver, css):
    return driver.find_element(*by(css)).text.strip()


def current_row(section):
    rows = section.find_elements(*by("tr.current"))
    assert len(rows) == 1
    return rows[0]


def panel_checks(section):
    """The state panel's both sides at an issue: {dep: (R, owed, answer)}, {sem: (value, threshold, answer)}."""
    deps, waits = {}, {}
    for tr in section.find_elements(*by("aside.panel table.checks tr[data-dep]")):
        deps[tr.get_attribute("data-dep")] = (tr.find_element(*by("td.retired")).text, tr.find_element(*by("td.owed")).text,
                                              tr.find_element(*by("td.answer")).text)
    for tr in section.find_elements(*by("aside.panel table.checks tr[data-sem]")):
        waits[tr.get_attribute("data-sem")] = (tr.find_element(*by("td.value")).text,
                                               tr.find_element(*by("td.threshold")).text,
                                               tr.find_element(*by("td.answer")).text)
    return deps, waits


def panel_value(section, table, name):
    return section.find_element(*by('aside.panel table.%s tr[data-name="%s"] td.value' % (table, name))).text


def expected_issue(detail):
    """--trace-out's numbers at an issue: "spec R=1>=1 | impl s_B_E0=1>=1" (or "no wait", "-")."""
    spec, impl = detail.split(" | ")
    spec_parts = [] if spec == "spec -" else spec[len("spec "):].split(", ")
    impl_parts = [] if impl == "impl -" else impl[len("impl "):].split(", ")
    waits = {}
    for w in impl_parts:
        m = re.fullmatch(r"(\S+)=(\d+)>=(\d+)", w)
        waits[m.group(1)] = (m.group(2), m.group(3))
    return spec_parts, waits


def stdout_without_times(p):
    return re.sub(r"\d+\.\d+ s\b", "T s", p.stdout)


def test_check_violation_steps_the_trace(driver, shots):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    d = odd_dir()
    spec, impl = os.path.join(d, "spec <b>.json"), os.path.join(d, "impl & 'x'.sb")
    shutil.copy(os.path.join(SRC, SPEC), spec)
    shutil.copy(os.path.join(SRC, BUG), impl)
    page = os.path.join(d, "page.html")
    trace_out = os.path.join(d, "trace.json")
    with_html = run("check", "-q", spec, impl, "--html", page, "--trace-out", trace_out, status=1)
    without = run("check", "-q", spec, impl, status=1)
    assert stdout_without_times(with_html) == stdout_without_times(without)  # --html changes no output
    assert with_html.stderr == without.stderr
    verdict = json.loads(run("check", "-q", spec, impl, "--json", status=1).stdout)
    v = verdict["violations"][0]
    events = json.load(open(trace_out))["violations"][0]["trace"]
    visible = [e for e in events if e["step"] in VISIBLE]
    assert len(visible) == 7

    html_text = open(page, encoding="utf-8").read()
    static_checks(html_text)
    assert "</script><b>" not in html_text and "&lt;b&gt;bold&lt;/b&gt;" in html_text
    load(driver, page)
    assert text(driver, "#verdict") == "under-synchronized" == with_html.stdout.splitlines()[0]
    assert "exit status 1" in text(driver, "#exit-status")
    # The paths, markup and all, as text: no element was made of them.
    assert text(driver, "#spec-path") == spec and text(driver, "#impl-path") == impl
    assert driver.find_elements(*by("b")) == []
    assert driver.title.startswith("syncbisim check: under-synchronized")
    # Both programs, as `show` prints them.
    assert text(driver, "#spec-text") == run("show", spec, status=0).stdout.strip()
    assert text(driver, "#impl-text") == run("show", impl, status=0).stdout.strip()

    section = driver.find_element(*by("section#trace-v1"))
    rows = section.find_elements(*by("table.steps tbody tr[data-row]"))
    assert len(rows) == 1 + 7 + 1  # start, the steps, where the two sides part
    assert current_row(section).get_attribute("data-row") == "0"
    assert section.find_element(*by(".stepper .pos")).text == "start"
    nxt = section.find_element(*by("button.next"))
    for _ in range(3):
        nxt.click()
    # Step 3: the row, the panel's title and both sides' numbers are those --trace-out has.
    row = current_row(section)
    assert row.get_attribute("data-row") == "3"
    step = visible[2]
    cells = row.find_elements(*by("td"))
    assert [c.text for c in cells[:3]] == ["3", step["engine"], step["step"]]
    assert cells[3].text.split()[0] == step["instr"]
    assert section.find_element(*by(".stepper .pos")).text == "step 3 of 7"
    assert section.find_element(*by("aside.panel .panel-step")).text == "Step 3 of 7"
    assert section.find_element(*by("aside.panel .panel-what")).text.startswith(
        "issue %s %s" % (step["engine"], step["instr"]))
    spec_parts, waits = expected_issue(step["detail"])
    deps, shown_waits = panel_checks(section)
    assert len(deps) == len(spec_parts) == 1
    (dep_r, dep_owed, dep_answer), = deps.values()
    if spec_parts[0] == "no wait":
        assert dep_answer == "nothing owed"
    else:
        r_, owed_ = re.fullmatch(r"R=(\d+)>=(\d+)", spec_parts[0]).groups()
        assert (dep_r, dep_owed) == (r_, owed_)
    assert {s: w[:2] for s, w in shown_waits.items()} == waits
    # The instruction of the step is marked in both programs.
    assert [s.text for s in driver.find_elements(*by("pre#spec-text span.ins.hl"))] == [step["instr"]]
    assert step["instr"] in [s.text for s in driver.find_elements(*by("pre#impl-text span.ins.hl"))]
    driver.save_screenshot(os.path.join(shots, "check-step3.png"))

    # Step 5, with the arrow keys (to whatever has the focus: the Next button just clicked): the
    # first issue where something is owed.
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT).perform()
    assert current_row(section).get_attribute("data-row") == "5"
    spec_parts, waits = expected_issue(visible[4]["detail"])
    deps, shown_waits = panel_checks(section)
    r_, owed_ = re.fullmatch(r"R=(\d+)>=(\d+)", spec_parts[0]).groups()
    assert list(deps.values())[0][:2] == (r_, owed_)
    assert {s: w[:2] for s, w in shown_waits.items()} == waits

    # The end: where the two sides part, with check --json's numbers.
    section.find_element(*by("button.last")).click()
    row = current_row(section)
    assert "closing" in row.get_attribute("class")
    assert section.find_element(*by(".stepper .pos")).text == "end: part"
    dep = "%s -> %s" % (v["dependency"]["producer"], v["dependency"]["consumer"])
    deps, shown_waits = panel_checks(section)
    assert deps[dep] == (str(v["spec"]["retired"]), str(v["spec"]["owed"]), "not satisfied")
    assert shown_waits[v["impl"]["sem"]] == (str(v["impl"]["value"]), str(v["impl"]["threshold"]), "holds")
    # The state at the end: R of the producer and the semaphore, as --json says.
    assert panel_value(section, "retired", v["dependency"]["producer"]) == str(v["spec"]["retired"])
    assert panel_value(section, "sems", v["impl"]["sem"]) == str(v["impl"]["value"])
    assert section.find_element(*by("button.next")).get_attribute("disabled") is not None
    # Clicking a row goes to it.
    section.find_element(*by('tr[data-row="2"]')).click()
    assert current_row(section).get_attribute("data-row") == "2"
    assert panel_value(section, "retired", visible[1]["instr"]) == "1"  # step 2 retired the producer
    # The timeline is the one check --svg draws, inline.
    assert section.find_elements(*by("#timeline-v1 svg"))
    driver.save_screenshot(os.path.join(shots, "check-step2.png"))
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(shots, "check-top.png"))


def test_check_bisimilar_with_coverage(driver, shots):
    d = odd_dir()
    page = os.path.join(d, "bisimilar.html")
    run("check", "-q", SPEC, GOOD, "--html", page, status=0)
    cov = json.loads(run("check", "-q", SPEC, GOOD, "--json", "--coverage", status=0).stdout)["coverage"]
    static_checks(open(page, encoding="utf-8").read())
    load(driver, page)
    assert text(driver, "#verdict") == "bisimilar"
    assert "exit status 0" in text(driver, "#exit-status")
    assert driver.find_elements(*by("section.trace")) == []
    rows = driver.find_elements(*by("#coverage-deps tr"))[1:]
    assert len(rows) == len(cov["dependencies"])
    for tr, dep in zip(rows, cov["dependencies"]):
        cells = [c.text for c in tr.find_elements(*by("td"))]
        assert cells[0] == "%s -> %s" % (dep["producer"], dep["consumer"])
        assert cells[2:5] == [str(dep["reached"]), str(dep["owed"]), str(dep["held"])]
    waits = driver.find_elements(*by("#coverage-waits tr"))[1:]
    assert [[c.text for c in tr.find_elements(*by("td"))][3:5] for tr in waits] == [
        [str(w["reached"]), str(w["blocked"])] for w in cov["waits"]]
    driver.save_screenshot(os.path.join(shots, "check-bisimilar.png"))


def test_prove_witness_steps(driver, shots):
    d = odd_dir()
    page = os.path.join(d, "prove.html")
    printed = run("prove", SPEC, BUG, "--html", page, status=1)
    proof = json.loads(run("prove", SPEC, BUG, "--json", status=1).stdout)
    static_checks(open(page, encoding="utf-8").read())
    load(driver, page)
    assert text(driver, "#verdict") == printed.stdout.splitlines()[0] == "refuted"
    consumers = driver.find_elements(*by("#consumers tr"))[1:]
    assert len(consumers) == len(proof["consumers"])
    c = proof["consumers"][0]
    cells = [x.text for x in consumers[0].find_elements(*by("td"))]
    assert cells[0] == c["instr"] and cells[1] == c["engine"]
    assert cells[2].startswith(c["safe"]["answer"]) and cells[3].startswith(c["exact"]["answer"])
    w = c["safe"]["witness"]
    section = driver.find_element(*by("section#trace-w1"))
    section.find_element(*by("button.next")).click()
    assert section.find_element(*by(".stepper .pos")).text == "step 1 of %d" % w["steps"]
    first = w["trace"][0]
    assert section.find_element(*by("aside.panel .panel-what")).text.startswith(
        "%s %s %s" % (first["step"], first["engine"], first["instr"]))
    section.find_element(*by("button.last")).click()
    assert section.find_element(*by(".stepper .pos")).text == "end: part"
    # Where the two sides part: the numbers of the witness's description.
    m = re.search(r"(\S+) -> (\S+) at .*R\(\S+\) = (\d+), owed (\d+)", w["description"])
    deps, waits = panel_checks(section)
    assert deps["%s -> %s" % (m.group(1), m.group(2))][:2] == (m.group(3), m.group(4))
    m = re.search(r"wait (\S+) >= \d+: \S+ = (\d+)", w["description"])
    assert waits[m.group(1)][0] == m.group(2)
    section.find_element(*by("button.prev")).click()
    assert section.find_element(*by(".stepper .pos")).text == "step %d of %d" % (w["steps"], w["steps"])
    driver.save_screenshot(os.path.join(shots, "prove.png"))


def test_simulate_page(driver, shots):
    d = odd_dir()
    page = os.path.join(d, "simulate.html")
    printed = run("simulate", SPEC, GOOD, "--html", page, status=0)
    sim = json.loads(run("simulate", SPEC, GOOD, "--json", status=0).stdout)
    static_checks(open(page, encoding="utf-8").read())
    load(driver, page)
    assert text(driver, "#verdict") == "finished"
    assert text(driver, "#makespan") == printed.stdout.splitlines()[0]
    rows = driver.find_elements(*by("#engines tr"))[1:]
    assert [[c.text for c in tr.find_elements(*by("td"))][:5] for tr in rows] == [
        [e["engine"], str(e["busy"]), str(e["stalled"]), str(e["barrier"]), str(e["idle"])] for e in sim["engines"]]
    assert driver.find_elements(*by("#timeline svg"))
    driver.save_screenshot(os.path.join(shots, "simulate.png"))


def test_race_of_the_footprints(driver, shots):
    d = odd_dir()
    page = os.path.join(d, "race.html")
    printed = run("check", "-q", "corpus/footprints/missing_evac_store.sb",
                  "corpus/footprints/missing_evac_store.per_loop.impl.sb", "--html", page, status=1)
    assert printed.stdout.startswith("race:")
    static_checks(open(page, encoding="utf-8").read())
    load(driver, page)
    assert text(driver, "#verdict") == "race"
    race = driver.find_elements(*by("#races tr"))[1]
    cells = [c.text for c in race.find_elements(*by("td"))]
    assert cells[0].startswith("evac -> store")
    row = " | ".join(cells)
    assert "evac (i=0) writes s[" in row and "store (i=0) reads s[" in row  # the two accesses
    driver.save_screenshot(os.path.join(shots, "race.png"))


def test_without_javascript(shots):
    """The verdict, the programs and the trace table are in the page itself."""
    missing = _missing()
    if missing:
        (pytest.fail if os.environ.get("CI") else pytest.skip)("the browser test needs " + " ".join(missing))
    d = odd_dir()
    page = os.path.join(d, "nojs.html")
    run("check", "-q", SPEC, BUG, "--html", page, status=1)
    driver = _new_driver(javascript=False)
    try:
        driver.get(Path(page).as_uri())
        assert text(driver, "#verdict") == "under-synchronized"
        assert "loop A" in text(driver, "#spec-text")
        rows = driver.find_elements(*by("section#trace-v1 table.steps tbody tr[data-row]"))
        assert len(rows) == 9
        assert "not satisfied" in rows[-1].text
        assert not driver.find_element(*by("section#trace-v1 .stepper")).is_displayed()
        driver.save_screenshot(os.path.join(shots, "check-nojs.png"))
    finally:
        driver.quit()
