// The Python module `syncbisim` (docs/api.md "The Python module"): the public C++ API
// (include/syncbisim/syncbisim.h) with pybind11, and nothing else of the tool. The GIL is released
// whenever the tool works; a Python allocator takes it only while it runs. Ctrl-C during fuzz()
// stops the campaign and returns what it found (`interrupted` is then True).
#include <pybind11/functional.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <syncbisim/syncbisim.h>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

namespace py = pybind11;
using namespace syncbisim;

namespace {

// Accepts a Program, a path or a program's text, where a program is expected.
using ProgramLike = py::object;
Program program_of(const py::object& p) {
  if (py::isinstance<Program>(p)) return p.cast<Program>();
  if (py::isinstance<py::str>(p)) return Program::load(p.cast<std::string>());
  if (PyObject_HasAttrString(p.ptr(), "__fspath__")) return Program::load(py::str(p.attr("__fspath__")()));
  throw Error("", "", "usage", "a program is a syncbisim.Program, a path or the program's text");
}

SpecMix parse_mix(const std::string& s) {
  if (s == "allocatable") return SpecMix::Allocatable;
  if (s == "arbitrary") return SpecMix::Arbitrary;
  if (s == "mixed") return SpecMix::Mixed;
  if (s == "degenerate") return SpecMix::Degenerate;
  throw Error("", "", "usage", "unknown specs '" + s + "' (allocatable, arbitrary, mixed, degenerate)");
}

// The Python allocator calls in flight, for their deadline: the watching thread (interruptible)
// raises TimeoutError in a call that has run too long (PyThreadState_SetAsyncExc: raised at the
// call's next bytecode, so a call blocked inside C code is only reached when it returns). Only
// touched with the GIL held, which is what guards it.
struct CallWatch {
  double timeout = 0;  // seconds; 0: none
  struct Call {
    std::chrono::steady_clock::time_point start;
    bool raised = false;
  };
  std::map<unsigned long, Call> calls;  // by Python thread id

  void expire() {
    if (timeout <= 0) return;
    const auto now = std::chrono::steady_clock::now();
    for (auto& [tid, call] : calls)
      if (!call.raised && std::chrono::duration<double>(now - call.start).count() > timeout) {
        PyThreadState_SetAsyncExc(tid, PyExc_TimeoutError);
        call.raised = true;
      }
  }
};

// A Python callable as the API's Allocator. The callable is kept behind a shared pointer whose
// deleter takes the GIL, so the campaign may copy the Allocator on any thread without touching
// Python reference counts. Any exception it raises is a refusal, with its message; the
// TimeoutError of its deadline is a timeout.
Allocator python_allocator(py::function fn, std::shared_ptr<CallWatch> watch) {
  std::shared_ptr<py::function> held(new py::function(std::move(fn)), [](py::function* f) {
    py::gil_scoped_acquire gil;
    delete f;
  });
  return [held, watch](const std::string& spec_json) -> std::string {
    py::gil_scoped_acquire gil;
    const unsigned long tid = PyThread_get_thread_ident();
    watch->calls[tid] = CallWatch::Call{std::chrono::steady_clock::now(), false};
    struct Leave {  // with the GIL still held (destroyed before `gil`)
      CallWatch& w;
      unsigned long tid;
      ~Leave() {
        if (w.calls[tid].raised) PyThreadState_SetAsyncExc(tid, nullptr);  // not raised yet: drop it
        w.calls.erase(tid);
      }
    } leave{*watch, tid};
    try {
      py::object r = (*held)(spec_json);
      if (!py::isinstance<py::str>(r))
        throw std::runtime_error(std::string("the allocator returned a ") + Py_TYPE(r.ptr())->tp_name +
                                 ", not a str with the impl");
      return r.cast<std::string>();
    } catch (py::error_already_set& e) {
      if (watch->calls[tid].raised && e.matches(PyExc_TimeoutError)) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "no answer within %g s (timeout); the call was interrupted", watch->timeout);
        throw TimedOut(buf);
      }
      std::string name = py::str(py::type::handle_of(e.value()).attr("__name__"));
      std::string message = py::str(e.value());
      throw Declined(message.empty() ? name : name + ": " + message);
    }
  };
}

// Runs `work` on another thread while this one (holding the GIL between waits) watches for
// Ctrl-C; a pending KeyboardInterrupt requests the stop and is consumed: the caller returns the
// partial result instead.
template <class Result>
Result interruptible(const StopToken& stop, const std::function<Result()>& work, CallWatch* watch = nullptr) {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::optional<Result> result;
  std::exception_ptr error;
  std::thread t;
  {
    py::gil_scoped_release release;
    t = std::thread([&] {
      try {
        result = work();
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(m);
      done = true;
      cv.notify_all();
    });
  }
  for (;;) {
    {
      py::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(m);
      if (cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) break;
    }
    if (watch) watch->expire();
    if (PyErr_CheckSignals() != 0) {
      if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
        PyErr_Clear();
        stop.request();
      } else {
        stop.request();
        {
          py::gil_scoped_release release;
          t.join();
        }
        throw py::error_already_set();
      }
    }
  }
  {
    py::gil_scoped_release release;
    t.join();
  }
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

py::object optional_number(const std::optional<std::uint64_t>& n) {
  return n ? py::object(py::int_(*n)) : py::object(py::none());
}

// A trace (a violation's or a refuted property's witness) as a list of dicts, one per step.
py::list trace_list(const std::vector<TraceStep>& trace) {
  py::list steps;
  for (const auto& s : trace)
    steps.append(py::dict(py::arg("step") = s.step, py::arg("engine") = s.engine, py::arg("instr") = s.instr,
                          py::arg("value") = s.value, py::arg("detail") = s.detail));
  return steps;
}

py::dict violation_dict(const Violation& v) {
  return py::dict(py::arg("kind") = v.kind, py::arg("engine") = v.engine, py::arg("instr") = v.instr,
                  py::arg("description") = v.description, py::arg("dependency") = v.dependency,
                  py::arg("retired") = optional_number(v.retired), py::arg("owed") = optional_number(v.owed),
                  py::arg("semaphore") = v.semaphore, py::arg("value") = optional_number(v.value),
                  py::arg("threshold") = optional_number(v.threshold), py::arg("fix") = v.fix,
                  py::arg("closed_form") = v.closed_form, py::arg("spec_deadlocks_too") = v.spec_deadlocks_too, py::arg("trace") = trace_list(v.trace));
}

std::string json_of(const py::object& o) {
  py::object dumps = py::module_::import("json").attr("dumps");
  return py::str(dumps(o, py::arg("indent") = 2));
}

// What fuzz() and shrink() both report of a failing case: the failure kept, the case's programs,
// the allocator's answer, and the case's sizes before and after shrinking.
template <class Case>
void bind_failing_case(py::class_<Case>& c) {
  c.def_readonly("failure_class", &Case::failure_class,
                 "'under-sync', 'over-sync', 'deadlock', 'crash', 'timeout', 'bad-output', 'tree-mismatch', "
                 "'declined' or 'allocator-error'")
      .def_readonly("failure", &Case::failure, "the failure's message")
      .def_readonly("spec", &Case::spec, "the spec (a Program), minimized if it was shrunk")
      .def_readonly("impl", &Case::impl, "the impl (a Program), or None when the allocator gave none that loads")
      .def_readonly("allocator_output", &Case::allocator_output, "what a command allocator printed on stdout")
      .def_readonly("allocator_errors", &Case::allocator_errors, "what a command allocator printed on stderr")
      .def_readonly("before", &Case::before, "the case's size before shrinking ('' if not shrunk)")
      .def_readonly("after", &Case::after, "the case's size after shrinking ('' if not shrunk)");
}

// A command's result as the command prints it: str() is its text, to_json() its JSON document.
template <class Result>
void bind_printed(py::class_<Result>& c) {
  c.def(
       "__str__", [](const Result& r) { return r.text; }, "what the command prints")
      .def(
          "to_json", [](const Result& r) { return r.json; }, "what the command prints with --json (a JSON string)");
}

// The fields of an impl's resource figures (`syncbisim stats`).
void bind_figures(py::class_<ResourceFigures>& c) {
  c.def_readonly("semaphores", &ResourceFigures::semaphores, "semaphores declared")
      .def_readonly("registers_per_engine", &ResourceFigures::registers_per_engine,
                    "[(engine, distinct registers it uses)]")
      .def_readonly("registers_max", &ResourceFigures::registers_max, "registers on the engine with the most")
      .def_readonly("waiting_instrs", &ResourceFigures::waiting_instrs, "instructions with at least one wait")
      .def_readonly("waits", &ResourceFigures::waits, "waits in all")
      .def_readonly("multi_wait_instrs", &ResourceFigures::multi_wait_instrs, "instructions with more than one wait")
      .def_readonly("alu_max", &ResourceFigures::alu_max,
                    "ALU operations computing the waits before one issue, at most")
      .def_readonly("alu_mean", &ResourceFigures::alu_mean, "the same, on average over the waiting issues")
      .def_readonly("regops_executed", &ResourceFigures::regops_executed,
                    "register operations executed at the trips (None past 2**64 - 1)")
      .def_readonly("barriers_executed", &ResourceFigures::barriers_executed,
                    "barrier instances executed (None past 2**64 - 1)")
      .def_readonly("instrs_executed", &ResourceFigures::instrs_executed,
                    "datapath instructions executed (None past 2**64 - 1)")
      .def_readonly("code_bytes", &ResourceFigures::code_bytes, "code size in bytes (docs/allocator.md's byte model)")
      .def_readonly("assumptions", &ResourceFigures::assumptions,
                    "the trips assumed, 'loop A: 3 iterations per trip (maximum)'");
}

std::vector<Program> programs_of(const py::object& list) {
  std::vector<Program> out;
  if (list.is_none()) return out;
  for (const auto& p : list) out.push_back(program_of(py::reinterpret_borrow<py::object>(p)));
  return out;
}

}  // namespace

PYBIND11_MODULE(syncbisim, m) {
  m.doc() =
      "syncbisim: check the semaphore synchronization of multi-engine accelerator programs.\n\n"
      "Every command of the tool has its call here (docs/api.md): load (and Program.to_dot for show --dot), "
      "allocate, stats, compare_strategies, check (coverage=True for check --coverage), check_all_trips, run, "
      "replay, prove, simulate, table2, derive_dependencies, compare_dependencies, fuzz, shrink, generate; check "
      "--batch and demo are conveniences of the command line with no call. "
      "Wherever a program is expected, a Program, a path or the program's text works. Every result's str() is "
      "what the command prints and its to_json() what it prints with --json; input errors raise syncbisim.Error.";
  m.attr("__version__") = version();

  // syncbisim.Error(ValueError) with .file .place .rule .message
  auto error_type = py::exception<Error>(m, "Error", PyExc_ValueError);
  error_type.attr("__doc__") =
      "An input error (a ValueError): a program or trace that does not parse, a pair that does not correspond, a "
      "bad option. Attributes: file, place (a JSON pointer or line:col, '' if none), rule (docs/formats.md "
      "\"Errors\") and message; str() is the command line's one-line message.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      py::object type = py::module_::import("syncbisim").attr("Error");
      py::object err = type(e.what());
      err.attr("file") = e.file();
      err.attr("place") = e.place();
      err.attr("rule") = e.rule();
      err.attr("message") = e.message();
      PyErr_SetObject(type.ptr(), err.ptr());
    }
  });

  // ---- programs ----------------------------------------------------------------------------

  py::class_<Program>(m, "Program",
                      "A spec (a program with its dependency graph) or an impl (a program with semaphores and "
                      "registers), parsed, normalized and validated (docs/formats.md). str() is the text format.")
      .def_property_readonly(
          "kind", [](const Program& p) { return p.kind() == ProgramKind::Spec ? "spec" : "impl"; }, "'spec' or 'impl'")
      .def_property_readonly("engines", &Program::engines, "the engines' names, in order")
      .def_property_readonly("instructions", &Program::instructions, "datapath instruction ids, in tree order")
      .def_property_readonly("dependencies", &Program::dependencies, "a spec's number of dependencies (0 for an impl)")
      .def("to_json", &Program::to_json, "canonical JSON")
      .def("to_text", &Program::to_text, "the text format")
      .def("to_dot", &Program::to_dot, "a Graphviz digraph, as syncbisim show --dot prints it")
      .def("__str__", &Program::to_text, "the text format")
      .def(
          "__repr__",
          [](const Program& p) {
            return "<syncbisim.Program " + std::string(p.kind() == ProgramKind::Spec ? "spec" : "impl") + ", " +
                   std::to_string(p.engines().size()) + " engines, " + std::to_string(p.instructions().size()) +
                   " instructions>";
          },
          "kind and sizes")
      .def(py::self == py::self, "the same program (not only the same text)");

  m.def("load", &Program::load, py::arg("path_or_text"),
        "A program from a file's path or from its text (JSON or the text format).");

  // ---- allocation --------------------------------------------------------------------------

  py::class_<Decision>(m, "Decision", "What one dependency got from the allocator, and why (allocate's stderr line)")
      .def_readonly("dependency", &Decision::dependency, "'I3 -> I2 {A: 2}'")
      .def_readonly("scheme", &Decision::scheme,
                    "'per-loop', 'per-instruction', 'per-engine', 'barrier', 'fallback' or 'no-wait'")
      .def_readonly("semaphore", &Decision::semaphore, "the semaphore waited on ('' when no wait)")
      .def_readonly("wait", &Decision::wait, "the wait's threshold ('' when no wait)")
      .def_readonly("detail", &Decision::detail, "N, K, the reason for a fallback, ...")
      .def_readonly("exact", &Decision::exact,
                    "False where a budget or a closed form gave up exactness (the wait is stricter: safe)")
      .def(
          "__str__",
          [](const Decision& d) {
            return d.dependency + ": " + d.scheme + (d.wait.empty() ? "" : ", " + d.semaphore + " >= " + d.wait) +
                   (d.detail.empty() ? "" : " (" + d.detail + ")");
          },
          "one line");

  py::class_<Allocation>(m, "Allocation", "An allocation: the impl, a decision per dependency, and notes")
      .def_readonly("impl", &Allocation::impl, "the impl (a Program)")
      .def_readonly("decisions", &Allocation::decisions, "one Decision per dependency, in the spec's order")
      .def_readonly("notes", &Allocation::notes, "what allocate prints as 'note:' lines")
      .def_readonly("unrolled_spec", &Allocation::unrolled_spec,
                    "with unroll=: the spec allocated, its loops unrolled (allocate --spec-out), which the impl is "
                    "checked against; else None")
      .def_readonly("exact", &Allocation::exact,
                    "every decision exact and no barrier a budget added: the impl synchronizes exactly as the spec")
      .def(
          "__str__", [](const Allocation& a) { return a.impl.to_text(); }, "the impl's text (allocate --text)")
      .def(
          "to_json", [](const Allocation& a) { return a.impl.to_json(); }, "the impl's JSON (what allocate writes)");

  m.def(
      "allocate",
      [](const ProgramLike& spec, const std::string& strategy, bool prune_registers, std::size_t max_semaphores,
         std::size_t max_registers, bool licm, bool cse, bool share_waits, bool barrier_fallback,
         const std::vector<std::string>& unroll, std::uint64_t max_unroll, const std::string& reuse, unsigned jobs) {
        const auto s = program_of(spec);
        AllocateOptions o{parse_strategy(strategy), prune_registers};
        o.reuse = reuse;
        o.jobs = jobs;
        o.max_semaphores = max_semaphores;
        o.max_registers = max_registers;
        o.licm = licm;
        o.cse = cse;
        o.share_waits = share_waits;
        o.barrier_fallback = barrier_fallback;
        o.unroll = unroll;
        o.max_unroll = max_unroll;
        py::gil_scoped_release release;
        return allocate(s, o);
      },
      py::arg("spec"), py::arg("strategy") = "auto", py::arg("prune_registers") = false,
      py::arg("max_semaphores") = AllocateOptions{}.max_semaphores,
      py::arg("max_registers") = AllocateOptions{}.max_registers, py::arg("licm") = true, py::arg("cse") = true,
      py::arg("share_waits") = false, py::arg("barrier_fallback") = false,
      py::arg("unroll") = std::vector<std::string>{}, py::arg("max_unroll") = AllocateOptions{}.max_unroll,
      py::arg("reuse") = AllocateOptions{}.reuse, py::arg("jobs") = AllocateOptions{}.jobs,
      "Semaphores for a spec (syncbisim allocate) with one of the tool's strategies: barrier, per-instruction, "
      "per-loop, per-engine, auto, mixed or expert. max_semaphores / max_registers: the budget (--max-semaphores, "
      "--max-registers); licm=False / cse=False: without paper §6.2's reductions (--no-licm, --no-cse); "
      "share_waits, barrier_fallback as --share-waits, --barrier-fallback; unroll: constant-trip loops unrolled "
      "first (--unroll; the impl then belongs to Allocation.unrolled_spec), at most max_unroll instructions; "
      "reuse: auto, always or never (--reuse); jobs: threads, 0 for every core (--jobs), the same result.");

  // ---- resource figures --------------------------------------------------------------------

  py::class_<ResourceFigures> figures(m, "ResourceFigures",
                                      "An impl's resource figures, from its text alone (paper Tables 1 and 2, "
                                      "docs/allocator.md \"Resource figures\")");
  bind_figures(figures);

  py::class_<StatsResult> stats_result(m, "StatsResult",
                                       "What syncbisim stats IMPL says: the figures against a budget");
  stats_result.def_readonly("figures", &StatsResult::figures, "the ResourceFigures")
      .def_readonly("within_budget", &StatsResult::within_budget,
                    "within max_semaphores and max_registers (a count at the limit is within it)");
  bind_printed(stats_result);

  m.def(
      "stats",
      [](const ProgramLike& impl, const std::string& trips, std::size_t max_semaphores, std::size_t max_registers) {
        const auto i = program_of(impl);
        StatsOptions o;
        o.trips = trips;
        o.max_semaphores = max_semaphores;
        o.max_registers = max_registers;
        py::gil_scoped_release release;
        return stats(i, o);
      },
      py::arg("impl"), py::arg("trips") = "", py::arg("max_semaphores") = StatsOptions{}.max_semaphores,
      py::arg("max_registers") = StatsOptions{}.max_registers,
      "An impl's resource figures (syncbisim stats): trips 'A=3,B=4,C=else' for the executed counts (default each "
      "loop's largest), reported against the budget max_semaphores / max_registers.");

  py::class_<StrategyRow>(m, "StrategyRow", "One strategy's row of stats --compare")
      .def_property_readonly(
          "strategy", [](const StrategyRow& r) { return to_string(r.strategy); }, "the strategy's name")
      .def_readonly("over_budget", &StrategyRow::over_budget,
                    "'' or why the strategy cannot fit the budget (then nothing else is set)")
      .def_readonly("figures", &StrategyRow::figures, "the ResourceFigures of its allocation")
      .def_readonly("registers_max_before", &StrategyRow::registers_max_before,
                    "registers on the busiest engine without paper §6.2's LICM and CSE")
      .def_readonly("alu_max_before", &StrategyRow::alu_max_before, "ALU operations per issue at most, without them")
      .def_readonly("alu_mean_before", &StrategyRow::alu_mean_before,
                    "ALU operations per issue on average, without them")
      .def_readonly("fallback_deps", &StrategyRow::fallback_deps, "dependencies that got the fallback")
      .def_readonly("inexact_deps", &StrategyRow::inexact_deps, "dependencies whose wait is stricter than the spec's")
      .def_readonly("exact", &StrategyRow::exact, "the allocation synchronizes exactly as the spec")
      .def_readonly("cycles", &StrategyRow::cycles,
                    "its makespan on the timing model, as simulate() gives it (default costs and trips); None where "
                    "the model deadlocks or stops at its limit")
      .def_readonly("cycles_why", &StrategyRow::cycles_why, "why cycles is None ('' otherwise)")
      .def(
          "__str__", [](const StrategyRow& r) { return to_string(r.strategy); }, "the strategy's name");

  py::class_<StrategyComparison> comparison(m, "StrategyComparison",
                                            "Every strategy on one spec, side by side (syncbisim stats --compare)");
  comparison.def_readonly("rows", &StrategyComparison::rows,
                          "one StrategyRow per strategy: barrier, per-instruction, per-loop, per-engine, auto, mixed, "
                          "expert");
  bind_printed(comparison);

  m.def(
      "compare_strategies",
      [](const ProgramLike& spec, const std::string& trips, std::size_t max_semaphores, std::size_t max_registers,
         unsigned jobs) {
        const auto s = program_of(spec);
        StatsOptions o;
        o.trips = trips;
        o.max_semaphores = max_semaphores;
        o.max_registers = max_registers;
        o.jobs = jobs;
        py::gil_scoped_release release;
        return compare_strategies(s, o);
      },
      py::arg("spec"), py::arg("trips") = "", py::arg("max_semaphores") = StatsOptions{}.max_semaphores,
      py::arg("max_registers") = StatsOptions{}.max_registers, py::arg("jobs") = 0,
      "The spec allocated with every strategy, in the budget (syncbisim stats --compare): each row's figures with "
      "and without the ALU reductions, its exactness and its makespan on the timing model. jobs: allocations at "
      "once (0: every core; the same result for any number).");

  // ---- dependencies from footprints ----------------------------------------------------------

  py::class_<DerivedDependency>(m, "DerivedDependency",
                                "A dependency derived from footprints (docs/footprints.md): the text, its ends, the "
                                "loop carrying its conflicts, the conflicts that justify it, and what the reduction "
                                "made of it")
      .def_readonly("dependency", &DerivedDependency::dependency, "'mm -> load_w distance n=1, k=*'")
      .def_readonly("producer", &DerivedDependency::producer, "the producer instruction")
      .def_readonly("consumer", &DerivedDependency::consumer, "the consumer instruction")
      .def_readonly("carried_by", &DerivedDependency::carried_by,
                    "the common loop carrying it, '' for the same iteration")
      .def_readonly("why", &DerivedDependency::why, "one conflict per access pair, with the element")
      .def_readonly("distances", &DerivedDependency::distances, "'' when uniform, else the range of distances")
      .def_readonly("over_synchronizes", &DerivedDependency::over_synchronizes,
                    "'' or where its cumulative wait owes more than the conflicts need")
      .def_readonly("implied_by", &DerivedDependency::implied_by, "'' when kept in the graph")
      .def(
          "__str__", [](const DerivedDependency& d) { return d.dependency; }, "the dependency's text");

  py::class_<Derivation> derivation(m, "Derivation",
                                    "The graph derived from a spec's footprints (syncbisim deps). str() is what deps "
                                    "prints, to_json() what deps --json prints (the spec)");
  derivation.def_readonly("spec", &Derivation::spec, "the spec with the derived (kept) dependencies")
      .def_readonly("dependencies", &Derivation::dependencies, "kept and implied, each a DerivedDependency")
      .def_readonly("undecided", &Derivation::undecided, "questions ISL left open: the graph is then incomplete")
      .def_readonly("report", &Derivation::report,
                    "what deps writes to stderr: every dependency with the conflicts behind it")
      .def_property_readonly("exit_status", &Derivation::exit_status, "deps' exit status: 0, or 3 when undecided");
  bind_printed(derivation);

  py::class_<Race>(m, "Race", "A conflicting instance pair the written graph leaves unordered")
      .def_readonly("producer", &Race::producer, "the instruction that accesses first")
      .def_readonly("consumer", &Race::consumer, "the instruction that must wait for it")
      .def_readonly("conflict", &Race::conflict, "hazard, element, both instances and accesses")
      .def_readonly("trips", &Race::trips, "the trips it was found at")
      .def_readonly("fix", &Race::fix, "'add dep evac -> store', or the distance to lower to")
      .def_readonly("missing", &Race::missing, "no written dependency between the two");

  py::class_<GraphComparison> graph_comparison(m, "GraphComparison",
                                               "A spec's written graph judged against its footprints (syncbisim deps "
                                               "--compare)");
  graph_comparison.def_readonly("verdict", &GraphComparison::verdict, "'ordered', 'race' or 'inconclusive'")
      .def_readonly("races", &GraphComparison::races, "each a Race, with its fix")
      .def_readonly("unjustified", &GraphComparison::unjustified, "'dep: message': no conflict between the two")
      .def_readonly("over_synchronized", &GraphComparison::over_synchronized,
                    "'dep: message', the message ending with its price on the timing model")
      .def_readonly("implied", &GraphComparison::implied, "'dep: message': implied by other written dependencies")
      .def_readonly("not_shown", &GraphComparison::not_shown,
                    "derived dependencies the written graph was not shown to imply for every trip count")
      .def_readonly("limits", &GraphComparison::limits, "what cut the analysis")
      .def_readonly("race_pairs", &GraphComparison::race_pairs, "conflicting instance pairs left unordered")
      .def_property_readonly("exit_status", &GraphComparison::exit_status,
                             "deps --compare's exit status: 0 ordered, 1 race, 3 inconclusive");
  bind_printed(graph_comparison);

  m.def(
      "derive_dependencies",
      [](const ProgramLike& spec, bool reduce) {
        const auto s = program_of(spec);
        py::gil_scoped_release release;
        return derive_dependencies(s, reduce);
      },
      py::arg("spec"), py::arg("reduce") = true,
      "The dependency graph derived from the spec's footprints (reads/writes/accumulates), for every trip count "
      "(syncbisim deps; reduce=False as --no-reduce).");
  m.def(
      "compare_dependencies",
      [](const ProgramLike& spec) {
        const auto s = program_of(spec);
        py::gil_scoped_release release;
        return compare_dependencies(s);
      },
      py::arg("spec"),
      "The spec's written graph against its footprints (syncbisim deps --compare): races with their fix, "
      "unjustified, over-synchronizing (priced on the timing model) and implied dependencies.");

  // ---- checking and replaying ------------------------------------------------------------------

  py::class_<Violation>(m, "Violation",
                        "One violation check found: its kind, where, both sides' numbers and a shortest trace")
      .def_readonly("kind", &Violation::kind, "'under-sync', 'over-sync', 'deadlock' or 'overflow'")
      .def_readonly("engine", &Violation::engine, "the engine whose next instruction it is about")
      .def_readonly("instr", &Violation::instr, "that instruction ('' for a deadlock with none in front)")
      .def_readonly("description", &Violation::description, "both sides' numbers, for a person")
      .def_readonly("dependency", &Violation::dependency, "'I3 -> I2 {A: 2}' (under- and over-sync; '' otherwise)")
      .def_readonly("retired", &Violation::retired, "the spec's side: retirements of the producer (or None)")
      .def_readonly("owed", &Violation::owed, "the spec's side: the count the dependency owes (or None)")
      .def_readonly("semaphore", &Violation::semaphore, "the impl's side: the semaphore waited on")
      .def_readonly("value", &Violation::value, "the impl's side: the semaphore's value (or None)")
      .def_readonly("threshold", &Violation::threshold, "the impl's side: the wait's threshold (or None)")
      .def_readonly("fix", &Violation::fix,
                    "under- and over-sync: what the parting state asks of the impl, e.g. 'the wait needs s0 >= 2 at least'")
      .def_readonly("closed_form", &Violation::closed_form,
                    "the per-loop closed form of the deciding dependency ('' when it has none)")
      .def_readonly("spec_deadlocks_too", &Violation::spec_deadlocks_too, "a deadlock: the spec is stuck there as well")
      .def_property_readonly(
          "trace", [](const Violation& v) { return trace_list(v.trace); },
          "a shortest trace from the initial state: dicts with step, engine, instr, value, detail; the last step "
          "'part' or 'stuck' (empty for a run's mismatch: the run is RunResult.events)")
      .def(
          "__str__",
          [](const Violation& v) {
            return v.kind + " on " + v.engine + (v.instr.empty() ? "" : " at " + v.instr) + ": " + v.description;
          },
          "one line")
      .def(
          "to_json", [](const Violation& v) { return json_of(violation_dict(v)); }, "the fields as a JSON string");

  py::class_<DependencyCoverage>(m, "DependencyCoverage",
                                 "What one dependency of the spec did over the explored states (check --coverage)")
      .def_readonly("producer", &DependencyCoverage::producer, "the producer instruction")
      .def_readonly("consumer", &DependencyCoverage::consumer, "the consumer instruction")
      .def_readonly("distance", &DependencyCoverage::distance,
                    "'A: 2, B: *' as the coverage text writes it ('' for none)")
      .def_readonly("reached", &DependencyCoverage::reached, "states with the consumer next on its engine")
      .def_readonly("owed", &DependencyCoverage::owed, "... and something owed (its target did not underflow)")
      .def_readonly("held", &DependencyCoverage::held,
                    "... and not satisfied: it held its consumer back (held > 0: it ever did)")
      .def_readonly("finding", &DependencyCoverage::finding,
                    "'held', 'owed' (only owed: its producer was always ahead), 'never-owed' (a bug in its wait "
                    "cannot show at these trips) or 'not-reached'")
      .def(
          "__str__",
          [](const DependencyCoverage& d) {
            return d.producer + " -> " + d.consumer + (d.distance.empty() ? "" : " {" + d.distance + "}") + ": " +
                   d.finding;
          },
          "the dependency and its finding");

  py::class_<WaitCoverage>(m, "WaitCoverage", "What one wait of the impl did over the explored states")
      .def_readonly("engine", &WaitCoverage::engine, "the waiting engine")
      .def_readonly("instr", &WaitCoverage::instr, "the waiting instruction")
      .def_readonly("semaphore", &WaitCoverage::semaphore, "the semaphore waited on")
      .def_readonly("threshold", &WaitCoverage::threshold, "what it compares with: a register, or a constant")
      .def_readonly("reached", &WaitCoverage::reached, "states with the instruction next on its engine")
      .def_readonly("blocked", &WaitCoverage::blocked,
                    "... and this wait did not hold (0: it never blocked, redundant at these trips?)")
      .def(
          "__str__",
          [](const WaitCoverage& w) {
            return w.engine + " " + w.instr + ": " + w.semaphore + " >= " + w.threshold + ": blocked in " +
                   std::to_string(w.blocked) + " of " + std::to_string(w.reached) + " states";
          },
          "the wait and its counts");

  py::class_<Coverage>(m, "Coverage",
                       "What the explored states exercised (check --coverage, docs/checker.md \"Coverage\")")
      .def_readonly("states", &Coverage::states, "states counted")
      .def_readonly("dependencies", &Coverage::dependencies, "each a DependencyCoverage, in the spec's order")
      .def_readonly("waits", &Coverage::waits, "each a WaitCoverage, in the impl's order");

  py::class_<CheckResult> check_result(m, "CheckResult",
                                       "What syncbisim check says of an impl against its spec; true when bisimilar");
  check_result
      .def_property_readonly(
          "verdict", [](const CheckResult& r) { return to_string(r.verdict); },
          "'bisimilar', 'over-synchronized', 'under-synchronized', 'spec-deadlock', 'inconclusive' or 'overflow'")
      .def_readonly("exhaustive", &CheckResult::exhaustive, "every state was explored")
      .def_readonly("limit", &CheckResult::limit, "the limit that was hit ('max-states 1000'), if any")
      .def_readonly("states", &CheckResult::states, "states explored")
      .def_readonly("transitions", &CheckResult::transitions, "transitions explored")
      .def_readonly("seconds", &CheckResult::seconds, "time taken")
      .def_readonly("violations", &CheckResult::violations, "each a Violation")
      .def_readonly("coverage", &CheckResult::coverage, "with coverage=True: a Coverage, else None")
      .def_readonly("coverage_text", &CheckResult::coverage_text,
                    "with coverage=True: the coverage as check --coverage prints it after the report")
      .def_readonly("coverage_json", &CheckResult::coverage_json,
                    "with coverage=True: the 'coverage' object of check --coverage --json (a JSON string)")
      .def_readonly("traces", &CheckResult::traces,
                    "what check --trace-out writes: every violation's whole trace, internal steps included (JSON)")
      .def_readonly("svg", &CheckResult::svg,
                    "with svg=True: the counterexample as check --svg draws it ('' without a violation)")
      .def_property_readonly("exit_status", &CheckResult::exit_status,
                             "check's exit status: 0 bisimilar, 1 a violation, 3 inconclusive")
      .def(
          "__bool__", [](const CheckResult& r) { return r.verdict == Verdict::Bisimilar; }, "bisimilar");
  bind_printed(check_result);

  m.def(
      "check",
      [](const ProgramLike& spec, const ProgramLike& impl, std::uint64_t max_states, double max_seconds,
         std::uint32_t max_trip, std::uint64_t random_walks, std::uint64_t seed, std::uint64_t depth, bool reduction,
         unsigned register_bits, unsigned semaphore_bits, const std::string& state_store, bool coverage, bool svg) {
        const auto s = program_of(spec), i = program_of(impl);
        const CheckOptions o{.max_states = max_states,
                             .max_seconds = max_seconds,
                             .max_trip = max_trip,
                             .random_walks = random_walks,
                             .seed = seed,
                             .depth = depth,
                             .reduction = reduction,
                             .register_bits = register_bits,
                             .semaphore_bits = semaphore_bits,
                             .state_store = parse_state_store(state_store),
                             .coverage = coverage,
                             .svg = svg};
        py::gil_scoped_release release;
        return check(s, i, o);
      },
      py::arg("spec"), py::arg("impl"), py::arg("max_states") = 0, py::arg("max_seconds") = 0.0,
      py::arg("max_trip") = 0, py::arg("random_walks") = 0, py::arg("seed") = 1, py::arg("depth") = 100000,
      py::arg("reduction") = true, py::arg("register_bits") = 32, py::arg("semaphore_bits") = 32,
      py::arg("state_store") = "flat", py::arg("coverage") = false, py::arg("svg") = false,
      "Checks an impl against its spec: bisimilar, over- or under-synchronized, spec-deadlock, inconclusive or "
      "overflow (a value past --register-bits / --semaphore-bits). coverage=True: also what each dependency and "
      "wait did over the explored states (check --coverage; the search then runs on one thread). svg=True: the "
      "counterexample drawn as check --svg draws it (CheckResult.svg).");

  py::class_<RunResult> run_result(m, "RunResult",
                                   "One execution under a seeded random scheduler (syncbisim run): its outcome and "
                                   "its events");
  run_result
      .def_property_readonly(
          "outcome", [](const RunResult& r) { return to_string(r.outcome); },
          "'finished', 'deadlock', 'mismatch', 'step-limit' or 'overflow'")
      .def_property_readonly(
          "events", [](const RunResult& r) { return trace_list(r.events); },
          "the events, internal ones too unless visible_only: dicts with step, engine, instr (or the loop, or a "
          "register operation's text), value and detail (the numbers worth showing)")
      .def_readonly("mismatch", &RunResult::mismatch,
                    "a mismatch: a Violation with where the two sides part and both sides' numbers, else None")
      .def_readonly("stuck", &RunResult::stuck, "a deadlock: the engines not finished")
      .def_readonly("overflows", &RunResult::overflows, "an overflow: what passed its width, for a person")
      .def_readonly("limit", &RunResult::limit, "a step limit: the limit that stopped it, when not max_steps")
      .def_readonly("svg", &RunResult::svg, "with svg=True (and an impl): the run as run --svg draws it")
      .def_property_readonly("exit_status", &RunResult::exit_status,
                             "run's exit status: 0 finished, 3 step limit, 1 otherwise");
  bind_printed(run_result);

  m.def(
      "run",
      [](const ProgramLike& spec, const py::object& impl, std::uint64_t seed, std::size_t max_steps, bool visible_only,
         const py::object& from_trace, unsigned register_bits, unsigned semaphore_bits, bool svg) {
        const auto s = program_of(spec);
        std::optional<Program> i;
        if (!impl.is_none()) i = program_of(impl);
        RunOptions o;
        o.seed = seed;
        o.max_steps = max_steps;
        o.visible_only = visible_only;
        if (!from_trace.is_none())
          o.from = PyObject_HasAttrString(from_trace.ptr(), "__fspath__")
                       ? py::str(from_trace.attr("__fspath__")()).cast<std::string>()
                       : from_trace.cast<std::string>();
        o.register_bits = register_bits;
        o.semaphore_bits = semaphore_bits;
        o.svg = svg;
        py::gil_scoped_release release;
        return i ? syncbisim::run(s, *i, o) : syncbisim::run(s, o);
      },
      py::arg("spec"), py::arg("impl") = py::none(), py::arg("seed") = 1, py::arg("max_steps") = 100000,
      py::arg("visible_only") = false, py::arg("from_trace") = py::none(), py::arg("register_bits") = 32,
      py::arg("semaphore_bits") = 32, py::arg("svg") = false,
      "One execution under a seeded random scheduler (syncbisim run): the spec alone, or with impl both in lock "
      "step, stopping at the first mismatch. max_steps random steps at most; visible_only: issue, retire and "
      "choices only; from_trace (with impl): a trace's JSON text or path whose steps are taken first (--from); "
      "svg=True (with impl): the run drawn as run --svg draws it (RunResult.svg).");

  py::class_<ReplayStep>(m, "ReplayStep", "One visible step of a replayed trace, with what it changed")
      .def_readonly("number", &ReplayStep::number, "1-based")
      .def_readonly("step", &ReplayStep::step, "'issue E1 C'")
      .def_readonly("changes", &ReplayStep::changes, "'impl E1: r_B 2 -> 3', 's_B_E0 0 -> 1', 'R(P) 0 -> 1', ...")
      .def_readonly("checks", &ReplayStep::checks, "at an issue: both sides' numbers")
      .def(
          "__str__", [](const ReplayStep& s) { return std::to_string(s.number) + ". " + s.step; }, "number and step");

  py::class_<ReplayResult> replay_result(m, "ReplayResult", "A trace replayed step by step (syncbisim replay)");
  replay_result.def_readonly("fits", &ReplayResult::fits, "False: the trace does not fit the pair (see misfit)")
      .def_readonly("misfit", &ReplayResult::misfit, "where and why the trace does not fit ('' when it does)")
      .def_readonly("steps", &ReplayResult::steps, "each a ReplayStep")
      .def_readonly("violations", &ReplayResult::violations,
                    "the violations at the end: 'under-sync', 'over-sync', 'deadlock', 'overflow'")
      .def_readonly("reproduced", &ReplayResult::reproduced,
                    "when the trace ends with a violation: whether the end shows it (else None)")
      .def_readonly("svg", &ReplayResult::svg, "with svg=True: the replayed counterexample as replay --svg draws it")
      .def_property_readonly("exit_status", &ReplayResult::exit_status,
                             "replay's exit status: 0 no violation at the end, 1 one, 2 the trace does not fit");
  bind_printed(replay_result);

  m.def(
      "replay",
      [](const ProgramLike& spec, const ProgramLike& impl, const py::object& trace, std::size_t violation,
         unsigned register_bits, unsigned semaphore_bits, bool svg) {
        const auto s = program_of(spec), i = program_of(impl);
        const std::string t = PyObject_HasAttrString(trace.ptr(), "__fspath__")
                                  ? py::str(trace.attr("__fspath__")()).cast<std::string>()
                                  : trace.cast<std::string>();
        const ReplayOptions o{violation, register_bits, semaphore_bits, svg};
        py::gil_scoped_release release;
        return replay(s, i, t, o);
      },
      py::arg("spec"), py::arg("impl"), py::arg("trace"), py::arg("violation") = 0, py::arg("register_bits") = 32,
      py::arg("semaphore_bits") = 32, py::arg("svg") = false,
      "Replays a trace that check, prove, fuzz or shrink wrote (its JSON text or its file's path) step by step on "
      "the pair (syncbisim replay): violation picks the trace in the file (1-based; 0 the first); the widths are "
      "those the trace was found at; svg=True: the replayed counterexample drawn (ReplayResult.svg).");

  // ---- proving -------------------------------------------------------------------------------

  py::class_<PropertyProof>(m, "PropertyProof", "One property of a consumer: safe or exact (docs/prover.md)")
      .def_property_readonly(
          "answer", [](const PropertyProof& p) { return to_string(p.answer); }, "'proved', 'refuted' or 'unknown'")
      .def_readonly("reason", &PropertyProof::reason, "unknown: why; refuted: a summary")
      .def_property_readonly(
          "witness", [](const PropertyProof& p) { return trace_list(p.witness); },
          "refuted: a concrete execution to the violation, as a trace (dicts), ending with 'part'")
      .def(
          "__str__",
          [](const PropertyProof& p) { return to_string(p.answer) + (p.reason.empty() ? "" : ": " + p.reason); },
          "the answer and the reason");

  py::class_<ConsumerProof>(m, "ConsumerProof", "What the prover says of one consumer's waits")
      .def_readonly("instr", &ConsumerProof::instr, "the consumer instruction")
      .def_readonly("engine", &ConsumerProof::engine, "its engine")
      .def_property_readonly(
          "answer", [](const ConsumerProof& c) { return to_string(c.answer); },
          "refuted if either property is, proved if both are, else unknown")
      .def_readonly("safe", &ConsumerProof::safe, "PropertyProof: it never issues before its dependencies hold")
      .def_readonly("exact", &ConsumerProof::exact, "PropertyProof: it never waits when nothing is owed")
      .def_readonly("seconds", &ConsumerProof::seconds, "time taken")
      .def(
          "__str__",
          [](const ConsumerProof& c) {
            return c.instr + " (" + c.engine + "): safe " + to_string(c.safe.answer) + ", exact " +
                   to_string(c.exact.answer);
          },
          "one line");

  py::class_<ProveResult> prove_result(m, "ProveResult", "What syncbisim prove says of an impl's waits");
  prove_result
      .def_property_readonly(
          "verdict", [](const ProveResult& r) { return to_string(r.verdict); }, "'proved', 'refuted' or 'unknown'")
      .def_readonly("consumers", &ProveResult::consumers, "each a ConsumerProof, in consumer order")
      .def_readonly("seconds", &ProveResult::seconds, "time taken")
      .def_readonly("traces", &ProveResult::traces, "what prove --trace-out writes: every witness's whole trace (JSON)")
      .def_property_readonly("exit_status", &ProveResult::exit_status,
                             "prove's exit status: 0 proved, 1 refuted, 3 unknown");
  bind_printed(prove_result);

  m.def(
      "prove",
      [](const ProgramLike& spec, const ProgramLike& impl, unsigned timeout_ms, bool replay, unsigned register_bits,
         unsigned semaphore_bits, unsigned jobs) {
        const auto s = program_of(spec), i = program_of(impl);
        py::gil_scoped_release release;
        return prove(s, i, ProveOptions{timeout_ms, replay, register_bits, semaphore_bits, jobs});
      },
      py::arg("spec"), py::arg("impl"), py::arg("timeout_ms") = 10000, py::arg("replay") = true,
      py::arg("register_bits") = 32, py::arg("semaphore_bits") = 32, py::arg("jobs") = 1,
      "Proves with Z3, for every trip count, that each wait holds exactly when its dependencies are satisfied, and "
      "that no register or semaphore passes its width (register_bits, semaphore_bits; a value past one refutes). "
      "jobs: consumers proved at once, on that many threads (the same result for any number).");

  py::class_<AllTripsResult> all_trips_result(m, "AllTripsResult",
                                              "One verdict for every trip count (syncbisim check --all-trips): the "
                                              "prover on every consumer plus the explorer at bounded trips");
  all_trips_result
      .def_property_readonly(
          "verdict", [](const AllTripsResult& r) { return to_string(r.verdict); },
          "'bisimilar', 'over-synchronized', 'under-synchronized', 'spec-deadlock', 'inconclusive' or 'overflow'")
      .def_readonly("all_trip_counts", &AllTripsResult::all_trip_counts,
                    "the verdict (bisimilar) holds for every trip count")
      .def_readonly("verdict_line", &AllTripsResult::verdict_line,
                    "the text's first line: 'bisimilar for all trip counts' or the verdict")
      .def_readonly("found_by", &AllTripsResult::found_by,
                    "'prover' or 'explorer': where a violation's trace comes from")
      .def_readonly("not_proved", &AllTripsResult::not_proved, "what keeps the verdict from every trip count")
      .def_readonly("prover", &AllTripsResult::prover, "the prover's part, a ProveResult")
      .def_readonly("explorer", &AllTripsResult::explorer, "the explorer's part at the capped trips, a CheckResult")
      .def_readonly("trip_cap", &AllTripsResult::trip_cap, "the explorer's trip cap")
      .def_property_readonly("exit_status", &AllTripsResult::exit_status,
                             "check's exit status: 0 bisimilar, 1 a violation, 3 inconclusive")
      .def(
          "__bool__", [](const AllTripsResult& r) { return r.all_trip_counts; }, "bisimilar for all trip counts");
  bind_printed(all_trips_result);

  m.def(
      "check_all_trips",
      [](const ProgramLike& spec, const ProgramLike& impl, std::uint32_t max_trip, unsigned timeout_ms, unsigned jobs,
         double max_seconds, std::uint64_t max_states, unsigned register_bits, unsigned semaphore_bits) {
        const auto s = program_of(spec), i = program_of(impl);
        AllTripsOptions o;
        o.max_trip = max_trip;
        o.z3_timeout_ms = timeout_ms;
        o.jobs = jobs;
        o.max_seconds = max_seconds;
        o.max_states = max_states;
        o.register_bits = register_bits;
        o.semaphore_bits = semaphore_bits;
        py::gil_scoped_release release;
        return check_all_trips(s, i, o);
      },
      py::arg("spec"), py::arg("impl"), py::arg("max_trip") = 3, py::arg("timeout_ms") = 10000, py::arg("jobs") = 1,
      py::arg("max_seconds") = 0.0, py::arg("max_states") = 0, py::arg("register_bits") = 32,
      py::arg("semaphore_bits") = 32,
      "One verdict for every trip count (syncbisim check --all-trips): the prover on every consumer plus the "
      "explorer at trips capped at max_trip; 'bisimilar for all trip counts' only when both agree. max_seconds "
      "bounds the whole call (the prover's queries, then the explorer), as --max-seconds.");

  // ---- the timing model ------------------------------------------------------------------------

  py::class_<EngineTime>(m, "EngineTime", "One engine's time on the timing model, in cycles")
      .def_readonly("engine", &EngineTime::engine, "the engine")
      .def_readonly("busy", &EngineTime::busy, "pipeline held or sequencer working")
      .def_readonly("stalled", &EngineTime::stalled, "at a wait whose semaphore is short")
      .def_readonly("barrier", &EngineTime::barrier, "at a barrier")
      .def_readonly("idle", &EngineTime::idle, "the rest of the makespan")
      .def_readonly("finish", &EngineTime::finish, "its last retirement or step");

  py::class_<Stall>(m, "Stall", "The stall cycles one wait caused, over all its issues")
      .def_readonly("instr", &Stall::instr, "the waiting instruction")
      .def_readonly("engine", &Stall::engine, "its engine")
      .def_readonly("semaphore", &Stall::semaphore, "the semaphore waited on")
      .def_readonly("cycles", &Stall::cycles, "stall cycles in all")
      .def_readonly("issues", &Stall::issues, "issues that stalled")
      .def_readonly("longest", &Stall::longest, "the longest stall");

  py::class_<SimulateResult> simulate_result(m, "SimulateResult",
                                             "An impl on the timing model (syncbisim simulate, docs/timing.md)");
  simulate_result.def_readonly("makespan", &SimulateResult::makespan, "cycles")
      .def_readonly("clock_ghz", &SimulateResult::clock_ghz, "the cost table's clock")
      .def_readonly("deadlock", &SimulateResult::deadlock, "the run ended in a deadlock")
      .def_readonly("deadlock_detail", &SimulateResult::deadlock_detail, "who waits for what")
      .def_readonly("limit", &SimulateResult::limit, "'' or the step limit that stopped the model")
      .def_readonly("trips", &SimulateResult::trips, "the trips run, 'A=3'")
      .def_readonly("engines", &SimulateResult::engines, "each an EngineTime")
      .def_readonly("instrs_issued", &SimulateResult::instrs_issued, "datapath instructions issued")
      .def_readonly("regops", &SimulateResult::regops, "register operations executed")
      .def_readonly("branches", &SimulateResult::branches, "loop branches taken")
      .def_readonly("barriers", &SimulateResult::barriers, "barriers passed")
      .def_readonly("stalls", &SimulateResult::stalls, "each a Stall, the longest total first")
      .def_readonly("without_op", &SimulateResult::without_op,
                    "the spec's instructions with no op: each costs its engine's default")
      .def_property_readonly(
          "svg", [](const SimulateResult& r) { return r.svg; }, "with svg=True: the timeline picture (SVG text)")
      .def_readonly("svg_next_page", &SimulateResult::svg_next_page,
                    "with svg=True: where the next page starts (cycles) when the range held more than a page, else "
                    "None")
      .def_property_readonly("exit_status", &SimulateResult::exit_status,
                             "simulate's exit status: 0, 1 deadlock, 3 limit");
  bind_printed(simulate_result);

  m.def(
      "simulate",
      [](const ProgramLike& spec, const ProgramLike& impl, const std::string& trips,
         std::optional<std::string> costs_file, std::optional<std::string> costs_json, bool svg,
         const std::string& svg_range) {
        const auto s = program_of(spec), i = program_of(impl);
        SimulateOptions o;
        o.trips = trips;
        o.costs_file = costs_file.value_or("");
        o.costs_json = costs_json.value_or("");
        o.svg = svg;
        o.svg_range = svg_range;
        py::gil_scoped_release release;
        return simulate(s, i, o);
      },
      py::arg("spec"), py::arg("impl"), py::arg("trips") = "", py::arg("costs_file") = py::none(),
      py::arg("costs_json") = py::none(), py::arg("svg") = false, py::arg("svg_range") = "",
      "Runs the impl on the timing model (syncbisim simulate): makespan in cycles, per-engine time, the waits that "
      "stalled longest. trips 'A=3,B=else' (default each loop's sim_trip), a cost table as a file or JSON text "
      "(default the built-in Trainium2 table), svg=True for the timeline picture (svg_range 'FROM:TO').");

  py::class_<VariantFigures>(m, "VariantFigures", "One variant's figures in a Table 2 row, on the timing model")
      .def_readonly("variant", &VariantFigures::variant,
                    "'barrier', 'per-loop', 'per-instruction', 'per-engine' or 'unrolled'")
      .def_readonly("available", &VariantFigures::available, "False: see why_not")
      .def_readonly("why_not", &VariantFigures::why_not, "why the variant has no figures")
      .def_readonly("lat", &VariantFigures::lat, "makespan over the barrier-based makespan")
      .def_readonly("makespan", &VariantFigures::makespan, "cycles")
      .def_readonly("code_bytes", &VariantFigures::code_bytes, "code size in bytes")
      .def_readonly("regs", &VariantFigures::regs, "registers on the busiest engine")
      .def_readonly("sema", &VariantFigures::sema, "semaphores")
      .def_readonly("deadlock", &VariantFigures::deadlock, "the simulation deadlocked (never expected)");

  py::class_<PaperFigures>(m, "PaperFigures", "The paper's own figures for one column of its Table 2, as printed")
      .def_readonly("variant", &PaperFigures::variant, "'barrier', 'barrier-free', 'manual' or 'unrolled'")
      .def_readonly("available", &PaperFigures::available, "the paper gives this column")
      .def_readonly("lat", &PaperFigures::lat, "normalized latency (barrier-based = 1.00)")
      .def_readonly("code", &PaperFigures::code, "code size as printed, '2.5 KB'")
      .def_readonly("regs", &PaperFigures::regs, "registers added per engine")
      .def_readonly("sema", &PaperFigures::sema, "semaphores");

  py::class_<Table2Row>(m, "Table2Row", "One kernel's row of Table 2: ours beside the paper's")
      .def_readonly("kernel", &Table2Row::kernel, "the spec file's stem, '+L' per loop unrolled first")
      .def_readonly("title", &Table2Row::title, "what the row is")
      .def_readonly("loops", &Table2Row::loops, "hardware loops")
      .def_readonly("offsets", &Table2Row::offsets, "the dependencies' offsets")
      .def_readonly("trips", &Table2Row::trips, "the trips run")
      .def_readonly("ours", &Table2Row::ours,
                    "VariantFigures: barrier, per-loop, per-instruction, per-engine, unrolled")
      .def_readonly("paper_benchmark", &Table2Row::paper_benchmark, "the paper's name for the row ('' if none)")
      .def_readonly("paper", &Table2Row::paper,
                    "PaperFigures: barrier, barrier-free, manual, unrolled (empty if none)");

  py::class_<Table2Result> table2_result(m, "Table2Result",
                                         "The paper's Table 2 on the timing model (syncbisim table2)");
  table2_result.def_readonly("rows", &Table2Result::rows, "each a Table2Row");
  bind_printed(table2_result);

  m.def(
      "table2",
      [](const py::object& specs, const std::vector<std::string>& unroll, std::uint64_t max_unroll,
         std::optional<std::string> costs_file, std::optional<std::string> costs_json, bool derived,
         std::optional<std::string> corpus) {
        const auto s = programs_of(specs);
        Table2Options o;
        o.unroll = unroll;
        o.max_unroll = max_unroll;
        o.costs_file = costs_file.value_or("");
        o.costs_json = costs_json.value_or("");
        o.derived = derived;
        o.corpus = corpus.value_or("");
        py::gil_scoped_release release;
        return table2(s, o);
      },
      py::arg("specs") = py::none(), py::arg("unroll") = std::vector<std::string>{},
      py::arg("max_unroll") = Table2Options{}.max_unroll, py::arg("costs_file") = py::none(),
      py::arg("costs_json") = py::none(), py::arg("derived") = false, py::arg("corpus") = py::none(),
      "The paper's Table 2 on the timing model (syncbisim table2): a row per spec (a list of programs or paths), "
      "each also with the loops in unroll unrolled first; with no spec the kernels of the corpus directory at the "
      "paper's scale. derived=True: a spec with footprints gets its derived graph first.");

  // ---- fuzzing and shrinking -------------------------------------------------------------------

  py::class_<FuzzFailure> fuzz_failure(m, "FuzzFailure", "One failure a fuzz campaign found, minimized and written");
  fuzz_failure.def_readonly("run", &FuzzFailure::run, "the run that found it")
      .def_readonly("seed", &FuzzFailure::seed, "the campaign's seed");
  bind_failing_case(fuzz_failure);
  fuzz_failure.def_readonly("files", &FuzzFailure::files, "the file stem written under out= ('' without)")
      .def_readonly("repro", &FuzzFailure::repro, "the one-line reproduction")
      .def(
          "__str__", [](const FuzzFailure& f) { return "run " + std::to_string(f.run) + ": " + f.failure; },
          "the run and the failure");

  py::class_<FuzzNote>(m, "FuzzNote", "A run of a campaign that was declined or inconclusive, and why")
      .def_readonly("run", &FuzzNote::run, "the run")
      .def_readonly("seed", &FuzzNote::seed, "the campaign's seed")
      .def_readonly("why", &FuzzNote::why, "the reason")
      .def(
          "__str__", [](const FuzzNote& n) { return "run " + std::to_string(n.run) + ": " + n.why; },
          "the run and the reason");

  py::class_<FuzzResult> fuzz_result(m, "FuzzResult", "What a fuzz campaign found (syncbisim fuzz)");
  fuzz_result.def_readonly("runs", &FuzzResult::runs, "runs made")
      .def_readonly("passed", &FuzzResult::passed, "runs whose allocation checked")
      .def_readonly("failures", &FuzzResult::failures, "runs that failed")
      .def_readonly("declined", &FuzzResult::declined, "specs the allocator declined")
      .def_readonly("inconclusive", &FuzzResult::inconclusive, "runs whose check hit max_states")
      .def_readonly("skipped", &FuzzResult::skipped, "runs whose generator gave up")
      .def_readonly("seconds", &FuzzResult::seconds, "time taken")
      .def_readonly("interrupted", &FuzzResult::interrupted, "stopped early (Ctrl-C)")
      .def_readonly("failed", &FuzzResult::failed, "each a FuzzFailure")
      .def_readonly("declines", &FuzzResult::declines, "each a FuzzNote")
      .def_readonly("inconclusive_runs", &FuzzResult::inconclusive_runs, "each a FuzzNote")
      .def_property_readonly("exit_status", &FuzzResult::exit_status,
                             "fuzz's exit status: 1 with failures, else 3 if interrupted, else 0");
  bind_printed(fuzz_result);

  py::class_<ShrinkResult> shrink_result(m, "ShrinkResult",
                                         "A failing case minimized with its failure (syncbisim shrink)");
  bind_failing_case(shrink_result);
  shrink_result.def_readonly("steps", &ShrinkResult::steps, "candidates checked")
      .def_readonly("kept", &ShrinkResult::kept, "candidates that kept the failure")
      .def_readonly("seconds", &ShrinkResult::seconds, "time taken")
      .def_readonly("stopped", &ShrinkResult::stopped, "'' at a fixpoint, else the budget that ran out");
  bind_printed(shrink_result);

  m.def(
      "fuzz",
      [](py::object allocator, std::uint64_t runs, std::uint64_t seed, const std::string& specs,
         std::optional<std::string> out, std::optional<std::string> command, double timeout, std::uint64_t start,
         int max_size, std::uint64_t max_states, std::uint64_t max_failures, bool exact, bool declined_is_failure,
         bool shrink, double shrink_max_seconds, unsigned jobs) {
        const FuzzOptions o{.runs = runs,
                            .seed = seed,
                            .start = start,
                            .specs = parse_mix(specs),
                            .max_size = max_size,
                            .max_states = max_states,
                            .max_failures = max_failures,
                            .exact = exact,
                            .declined_is_failure = declined_is_failure,
                            .shrink = shrink,
                            .shrink_max_seconds = shrink_max_seconds,
                            .jobs = jobs,
                            .out = out.value_or("")};
        std::function<FuzzResult()> work;
        auto watch = std::make_shared<CallWatch>();
        watch->timeout = timeout;
        if (command) {
          if (!allocator.is_none()) throw Error("", "", "usage", "give an allocator or a command, not both");
          const Command c{*command, timeout};
          work = [c, o] { return fuzz_allocator(c, o); };
        } else if (py::isinstance<py::str>(allocator)) {
          const auto strategy = parse_strategy(allocator.cast<std::string>());
          work = [strategy, o] { return fuzz_allocator(strategy, o); };
        } else if (py::isinstance<py::function>(allocator) || PyCallable_Check(allocator.ptr())) {
          const auto a = python_allocator(py::reinterpret_borrow<py::function>(allocator), watch);
          work = [a, o] { return fuzz_allocator(a, o); };
        } else {
          throw Error("", "", "usage", "the allocator is a callable (spec JSON -> impl), a strategy name, or command=");
        }
        return interruptible<FuzzResult>(o.stop, work, watch.get());
      },
      py::arg("allocator") = py::none(), py::arg("runs") = 100, py::arg("seed") = 1, py::arg("specs") = "mixed",
      py::arg("out") = py::none(), py::arg("command") = py::none(), py::arg("timeout") = 10.0, py::arg("start") = 0,
      py::arg("max_size") = 100, py::arg("max_states") = 20000, py::arg("max_failures") = 0, py::arg("exact") = true,
      py::arg("declined_is_failure") = false, py::arg("shrink") = true, py::arg("shrink_max_seconds") = 30.0,
      py::arg("jobs") = 1,
      "A fuzz campaign against an allocator: a callable taking the spec as a JSON string and returning the impl as "
      "a JSON or text string (an exception raised in it declines the spec), a strategy name, or command='CMD'. "
      "`timeout` (seconds) bounds each call of a callable or a command. Ctrl-C stops it and returns what it found.");

  m.def(
      "shrink",
      [](const ProgramLike& spec, py::object impl, py::object allocator, std::optional<std::string> command,
         double timeout, std::uint64_t max_steps, double max_seconds, std::uint64_t max_states,
         bool declined_is_failure, bool keep_spec, bool free) {
        const auto s = program_of(spec);
        const ShrinkOptions o{.max_steps = max_steps,
                              .max_seconds = max_seconds,
                              .max_states = max_states,
                              .declined_is_failure = declined_is_failure,
                              .keep_spec = keep_spec,
                              .free = free};
        const int given = (impl.is_none() ? 0 : 1) + (allocator.is_none() ? 0 : 1) + (command ? 1 : 0);
        if (given != 1) throw Error("", "", "usage", "give exactly one of impl, allocator and command");
        std::function<ShrinkResult()> work;
        auto watch = std::make_shared<CallWatch>();
        watch->timeout = timeout;
        if (!impl.is_none()) {
          const auto i = program_of(impl);
          work = [s, i, o] { return syncbisim::shrink(s, i, o); };
        } else if (command) {
          const Command c{*command, timeout};
          work = [s, c, o] { return syncbisim::shrink(s, c, o); };
        } else if (py::isinstance<py::str>(allocator)) {
          const auto strategy = parse_strategy(allocator.cast<std::string>());
          work = [s, strategy, o] { return syncbisim::shrink(s, strategy, o); };
        } else {
          const auto a = python_allocator(py::reinterpret_borrow<py::function>(allocator), watch);
          work = [s, a, o] { return syncbisim::shrink(s, a, o); };
        }
        return interruptible<ShrinkResult>(o.stop, work, watch.get());
      },
      py::arg("spec"), py::arg("impl") = py::none(), py::arg("allocator") = py::none(), py::arg("command") = py::none(),
      py::arg("timeout") = 10.0, py::arg("max_steps") = 5000, py::arg("max_seconds") = 60.0,
      py::arg("max_states") = 100000, py::arg("declined_is_failure") = false, py::arg("keep_spec") = false,
      py::arg("free") = false,
      "Minimizes a failing case, keeping the same failure: a pair (impl=), or a spec whose allocation fails "
      "(allocator= a callable or a strategy name, or command=).");

  m.def(
      "generate",
      [](std::uint64_t seed, std::uint64_t runs, std::uint64_t start, const std::string& specs, int max_size) {
        const FuzzOptions o{
            .runs = runs, .seed = seed, .start = start, .specs = parse_mix(specs), .max_size = max_size};
        py::gil_scoped_release release;
        return generate(o);
      },
      py::arg("seed") = 1, py::arg("runs") = 1, py::arg("start") = 0, py::arg("specs") = "mixed",
      py::arg("max_size") = 100, "The specs a campaign with this seed hands its allocator (syncbisim gen).");
}
