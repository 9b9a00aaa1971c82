// The Python module `syncbisim` (docs/api.md "Python"): the public C++ API
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
  throw Error("", "", "usage", "unknown specs '" + s + "' (allocatable, arbitrary, mixed)");
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
                          py::arg("value") = s.value));
  return steps;
}

py::dict violation_dict(const Violation& v) {
  return py::dict(py::arg("kind") = v.kind, py::arg("engine") = v.engine, py::arg("instr") = v.instr,
                  py::arg("description") = v.description, py::arg("dependency") = v.dependency,
                  py::arg("retired") = optional_number(v.retired), py::arg("owed") = optional_number(v.owed),
                  py::arg("semaphore") = v.semaphore, py::arg("value") = optional_number(v.value),
                  py::arg("threshold") = optional_number(v.threshold),
                  py::arg("spec_deadlocks_too") = v.spec_deadlocks_too, py::arg("trace") = trace_list(v.trace));
}

std::string json_of(const py::object& o) {
  py::object dumps = py::module_::import("json").attr("dumps");
  return py::str(dumps(o, py::arg("indent") = 2));
}

// What fuzz() and shrink() both report of a failing case: the failure kept, the case's programs,
// the allocator's answer, and the case's sizes before and after shrinking.
template <class Case>
void bind_failing_case(py::class_<Case>& c) {
  c.def_readonly("failure_class", &Case::failure_class)
      .def_readonly("failure", &Case::failure)
      .def_readonly("spec", &Case::spec)
      .def_readonly("impl", &Case::impl)
      .def_readonly("allocator_output", &Case::allocator_output)
      .def_readonly("allocator_errors", &Case::allocator_errors)
      .def_readonly("before", &Case::before)
      .def_readonly("after", &Case::after);
}

// A command's result as the command prints it: str() is its text, to_json() its JSON document.
template <class Result>
void bind_printed(py::class_<Result>& c) {
  c.def("__str__", [](const Result& r) { return r.text; }).def("to_json", [](const Result& r) { return r.json; });
}

}  // namespace

PYBIND11_MODULE(syncbisim, m) {
  m.doc() = "syncbisim: check the semaphore synchronization of multi-engine accelerator programs";
  m.attr("__version__") = version();

  // syncbisim.Error(ValueError) with .file .place .rule .message
  auto error_type = py::exception<Error>(m, "Error", PyExc_ValueError);
  (void)error_type;
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

  py::class_<Program>(m, "Program", "A spec or an impl, parsed, normalized and validated")
      .def_property_readonly("kind", [](const Program& p) { return p.kind() == ProgramKind::Spec ? "spec" : "impl"; })
      .def_property_readonly("engines", &Program::engines)
      .def_property_readonly("instructions", &Program::instructions)
      .def_property_readonly("dependencies", &Program::dependencies)
      .def("to_json", &Program::to_json, "canonical JSON")
      .def("to_text", &Program::to_text, "the text format")
      .def("__str__", &Program::to_text)
      .def("__repr__",
           [](const Program& p) {
             return "<syncbisim.Program " + std::string(p.kind() == ProgramKind::Spec ? "spec" : "impl") + ", " +
                    std::to_string(p.engines().size()) + " engines, " + std::to_string(p.instructions().size()) +
                    " instructions>";
           })
      .def(py::self == py::self);

  py::class_<Decision>(m, "Decision")
      .def_readonly("dependency", &Decision::dependency)
      .def_readonly("scheme", &Decision::scheme)
      .def_readonly("semaphore", &Decision::semaphore)
      .def_readonly("wait", &Decision::wait)
      .def_readonly("detail", &Decision::detail)
      .def("__str__", [](const Decision& d) {
        return d.dependency + ": " + d.scheme + (d.wait.empty() ? "" : ", " + d.semaphore + " >= " + d.wait) +
               (d.detail.empty() ? "" : " (" + d.detail + ")");
      });

  py::class_<Allocation>(m, "Allocation")
      .def_readonly("impl", &Allocation::impl)
      .def_readonly("decisions", &Allocation::decisions)
      .def_readonly("notes", &Allocation::notes)
      .def("__str__", [](const Allocation& a) { return a.impl.to_text(); })
      .def("to_json", [](const Allocation& a) { return a.impl.to_json(); });

  py::class_<DerivedDependency>(m, "DerivedDependency",
                                "A dependency derived from footprints (docs/footprints.md): the text, its ends, the "
                                "loop carrying its conflicts, the conflicts that justify it, and what the reduction "
                                "made of it")
      .def_readonly("dependency", &DerivedDependency::dependency, "'mm -> load_w distance n=1, k=*'")
      .def_readonly("producer", &DerivedDependency::producer)
      .def_readonly("consumer", &DerivedDependency::consumer)
      .def_readonly("carried_by", &DerivedDependency::carried_by, "the common loop carrying it, '' for the same iteration")
      .def_readonly("why", &DerivedDependency::why, "one conflict per access pair, with the element")
      .def_readonly("distances", &DerivedDependency::distances, "'' when uniform, else the range of distances")
      .def_readonly("over_synchronizes", &DerivedDependency::over_synchronizes)
      .def_readonly("implied_by", &DerivedDependency::implied_by, "'' when kept in the graph")
      .def("__str__", [](const DerivedDependency& d) { return d.dependency; });

  py::class_<Derivation>(m, "Derivation", "The graph derived from a spec's footprints")
      .def_readonly("spec", &Derivation::spec, "the spec with the derived (kept) dependencies")
      .def_readonly("dependencies", &Derivation::dependencies, "kept and implied, each a DerivedDependency")
      .def_readonly("undecided", &Derivation::undecided, "questions ISL left open: the graph is then incomplete");

  py::class_<Race>(m, "Race", "A conflicting instance pair the written graph leaves unordered")
      .def_readonly("producer", &Race::producer)
      .def_readonly("consumer", &Race::consumer)
      .def_readonly("conflict", &Race::conflict, "hazard, element, both instances and accesses")
      .def_readonly("trips", &Race::trips, "the trips it was found at")
      .def_readonly("fix", &Race::fix, "'add dep evac -> store', or the distance to lower to")
      .def_readonly("missing", &Race::missing, "no written dependency between the two");

  py::class_<GraphComparison>(m, "GraphComparison", "A spec's written graph judged against its footprints")
      .def_readonly("verdict", &GraphComparison::verdict, "'ordered', 'race' or 'inconclusive'")
      .def_readonly("races", &GraphComparison::races)
      .def_readonly("unjustified", &GraphComparison::unjustified)
      .def_readonly("over_synchronized", &GraphComparison::over_synchronized)
      .def_readonly("implied", &GraphComparison::implied)
      .def_readonly("not_shown", &GraphComparison::not_shown)
      .def_readonly("limits", &GraphComparison::limits);

  m.def(
      "derive_dependencies",
      [](const ProgramLike& spec, bool reduce) {
        const auto s = program_of(spec);
        py::gil_scoped_release release;
        return derive_dependencies(s, reduce);
      },
      py::arg("spec"), py::arg("reduce") = true,
        "The dependency graph derived from the spec's footprints (reads/writes/accumulates), for every trip count");
  m.def(
      "compare_dependencies",
      [](const ProgramLike& spec) {
        const auto s = program_of(spec);
        py::gil_scoped_release release;
        return compare_dependencies(s);
      },
      py::arg("spec"),
        "The spec's written graph against its footprints: races with their fix, unjustified, over-synchronizing "
        "and implied dependencies");

  py::class_<Violation>(m, "Violation")
      .def_readonly("kind", &Violation::kind)
      .def_readonly("engine", &Violation::engine)
      .def_readonly("instr", &Violation::instr)
      .def_readonly("description", &Violation::description)
      .def_readonly("dependency", &Violation::dependency)
      .def_readonly("retired", &Violation::retired)
      .def_readonly("owed", &Violation::owed)
      .def_readonly("semaphore", &Violation::semaphore)
      .def_readonly("value", &Violation::value)
      .def_readonly("threshold", &Violation::threshold)
      .def_readonly("spec_deadlocks_too", &Violation::spec_deadlocks_too)
      .def_property_readonly("trace", [](const Violation& v) { return trace_list(v.trace); })
      .def("__str__",
           [](const Violation& v) {
             return v.kind + " on " + v.engine + (v.instr.empty() ? "" : " at " + v.instr) + ": " + v.description;
           })
      .def("to_json", [](const Violation& v) { return json_of(violation_dict(v)); });

  py::class_<CheckResult> check_result(m, "CheckResult");
  check_result.def_property_readonly("verdict", [](const CheckResult& r) { return to_string(r.verdict); })
      .def_readonly("exhaustive", &CheckResult::exhaustive)
      .def_readonly("limit", &CheckResult::limit)
      .def_readonly("states", &CheckResult::states)
      .def_readonly("transitions", &CheckResult::transitions)
      .def_readonly("seconds", &CheckResult::seconds)
      .def_readonly("violations", &CheckResult::violations)
      .def_property_readonly("exit_status", &CheckResult::exit_status)
      .def("__bool__", [](const CheckResult& r) { return r.verdict == Verdict::Bisimilar; });
  bind_printed(check_result);

  py::class_<PropertyProof>(m, "PropertyProof")
      .def_property_readonly("answer", [](const PropertyProof& p) { return to_string(p.answer); })
      .def_readonly("reason", &PropertyProof::reason)
      .def_property_readonly("witness", [](const PropertyProof& p) { return trace_list(p.witness); })
      .def("__str__",
           [](const PropertyProof& p) { return to_string(p.answer) + (p.reason.empty() ? "" : ": " + p.reason); });

  py::class_<ConsumerProof>(m, "ConsumerProof")
      .def_readonly("instr", &ConsumerProof::instr)
      .def_readonly("engine", &ConsumerProof::engine)
      .def_property_readonly("answer", [](const ConsumerProof& c) { return to_string(c.answer); })
      .def_readonly("safe", &ConsumerProof::safe)
      .def_readonly("exact", &ConsumerProof::exact)
      .def_readonly("seconds", &ConsumerProof::seconds)
      .def("__str__", [](const ConsumerProof& c) {
        return c.instr + " (" + c.engine + "): safe " + to_string(c.safe.answer) + ", exact " +
               to_string(c.exact.answer);
      });

  py::class_<ProveResult>(m, "ProveResult")
      .def_property_readonly("verdict", [](const ProveResult& r) { return to_string(r.verdict); })
      .def_readonly("consumers", &ProveResult::consumers)
      .def_readonly("seconds", &ProveResult::seconds)
      .def_property_readonly("exit_status", &ProveResult::exit_status)
      .def("__str__", [](const ProveResult& r) { return r.text; })
      .def("to_json", [](const ProveResult& r) { return r.json; });

  py::class_<FuzzFailure> fuzz_failure(m, "FuzzFailure");
  fuzz_failure.def_readonly("run", &FuzzFailure::run).def_readonly("seed", &FuzzFailure::seed);
  bind_failing_case(fuzz_failure);
  fuzz_failure.def_readonly("files", &FuzzFailure::files)
      .def_readonly("repro", &FuzzFailure::repro)
      .def("__str__", [](const FuzzFailure& f) { return "run " + std::to_string(f.run) + ": " + f.failure; });

  py::class_<FuzzNote>(m, "FuzzNote")
      .def_readonly("run", &FuzzNote::run)
      .def_readonly("seed", &FuzzNote::seed)
      .def_readonly("why", &FuzzNote::why)
      .def("__str__", [](const FuzzNote& n) { return "run " + std::to_string(n.run) + ": " + n.why; });

  py::class_<FuzzResult> fuzz_result(m, "FuzzResult");
  fuzz_result.def_readonly("runs", &FuzzResult::runs)
      .def_readonly("passed", &FuzzResult::passed)
      .def_readonly("failures", &FuzzResult::failures)
      .def_readonly("declined", &FuzzResult::declined)
      .def_readonly("inconclusive", &FuzzResult::inconclusive)
      .def_readonly("skipped", &FuzzResult::skipped)
      .def_readonly("seconds", &FuzzResult::seconds)
      .def_readonly("interrupted", &FuzzResult::interrupted)
      .def_readonly("failed", &FuzzResult::failed)
      .def_readonly("declines", &FuzzResult::declines)
      .def_readonly("inconclusive_runs", &FuzzResult::inconclusive_runs)
      .def_property_readonly("exit_status", &FuzzResult::exit_status);
  bind_printed(fuzz_result);

  py::class_<ShrinkResult> shrink_result(m, "ShrinkResult");
  bind_failing_case(shrink_result);
  shrink_result.def_readonly("steps", &ShrinkResult::steps)
      .def_readonly("kept", &ShrinkResult::kept)
      .def_readonly("seconds", &ShrinkResult::seconds)
      .def_readonly("stopped", &ShrinkResult::stopped);
  bind_printed(shrink_result);

  m.def("load", &Program::load, py::arg("path_or_text"),
        "A program from a file's path or from its text (JSON or the text format).");

  m.def(
      "allocate",
      [](const ProgramLike& spec, const std::string& strategy, bool prune_registers) {
        const auto s = program_of(spec);
        const AllocateOptions o{parse_strategy(strategy), prune_registers};
        py::gil_scoped_release release;
        return allocate(s, o);
      },
      py::arg("spec"), py::arg("strategy") = "auto", py::arg("prune_registers") = false,
      "Semaphores for a spec with one of the tool's strategies (barrier, per-instruction, per-loop, per-engine, "
      "auto, expert).");

  m.def(
      "check",
      [](const ProgramLike& spec, const ProgramLike& impl, std::uint64_t max_states, double max_seconds,
         std::uint32_t max_trip, std::uint64_t random_walks, std::uint64_t seed, std::uint64_t depth, bool reduction,
         unsigned register_bits, unsigned semaphore_bits, const std::string& state_store) {
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
                             .state_store = parse_state_store(state_store)};
        py::gil_scoped_release release;
        return check(s, i, o);
      },
      py::arg("spec"), py::arg("impl"), py::arg("max_states") = 0, py::arg("max_seconds") = 0.0,
      py::arg("max_trip") = 0, py::arg("random_walks") = 0, py::arg("seed") = 1, py::arg("depth") = 100000,
      py::arg("reduction") = true, py::arg("register_bits") = 32, py::arg("semaphore_bits") = 32,
      py::arg("state_store") = "flat",
      "Checks an impl against its spec: bisimilar, over- or under-synchronized, spec-deadlock, inconclusive or "
      "overflow (a value past --register-bits / --semaphore-bits).");

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
