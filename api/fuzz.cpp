// fuzz(), generate() and the allocators of the public API (docs/api.md): a callback, a command
// or one of the tool's strategies, all turned into the campaign's fuzz::AllocateFn.
#include <chrono>
#include <filesystem>

#include "api/detail/allocators.h"
#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "formats/json_format.h"
#include "fuzz/campaign.h"
#include "fuzz/campaign_report.h"
#include "fuzz/command_allocator.h"
#include "fuzz/failure_files.h"

namespace syncbisim {

namespace api::detail {

fuzz::AllocateFn adapt(const Allocator& allocator) {
  return [allocator](const model::Program& spec, const model::ProgramIndex&) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    std::string out;
    fuzz::AllocatorReply reply;
    try {
      out = allocator(formats::write_json(spec));
    } catch (const Declined& d) {
      reply.answer = fuzz::Declined{d.what()};
      reply.seconds = since();
      return reply;
    } catch (const TimedOut& t) {
      reply.answer = fuzz::Faulted{fuzz::AllocatorFault::Timeout, t.what()};
      reply.seconds = since();
      return reply;
    } catch (const std::exception& e) {
      reply.answer = fuzz::Faulted{fuzz::AllocatorFault::Error, std::string("the allocator threw: ") + e.what()};
      reply.seconds = since();
      return reply;
    } catch (...) {
      reply.answer =
          fuzz::Faulted{fuzz::AllocatorFault::Error, "the allocator threw something that is no std::exception"};
      reply.seconds = since();
      return reply;
    }
    return fuzz::reply_from_output(std::move(out), "", since());
  };
}

fuzz::AllocateFn adapt(const Command& c, const StopToken& stop) {
  fuzz::CommandOptions o;
  o.command = c.command;
  o.timeout_seconds = c.timeout_seconds;
  o.stop = &stop.state().flag;
  return fuzz::command_allocator(o);
}

fuzz::AllocateFn adapt(Strategy s) { return fuzz::allocate_with(strategy_of(s)); }

}  // namespace api::detail

namespace {

fuzz::SpecMix mix_of(SpecMix m) {
  switch (m) {
    case SpecMix::Allocatable: return fuzz::SpecMix::Allocatable;
    case SpecMix::Arbitrary: return fuzz::SpecMix::Arbitrary;
    case SpecMix::Mixed: return fuzz::SpecMix::Mixed;
    case SpecMix::Degenerate: return fuzz::SpecMix::Degenerate;
  }
  return fuzz::SpecMix::Mixed;
}

fuzz::CampaignOptions campaign_options(const FuzzOptions& o) {
  return fuzz::CampaignOptions{.seed = o.seed,
                               .start = o.start,
                               .runs = o.runs,
                               .specs = mix_of(o.specs),
                               .max_size = o.max_size,
                               .exact = o.exact,
                               .declined_is_failure = o.declined_is_failure,
                               .max_states = o.max_states,
                               .max_failures = o.max_failures,
                               .minimize = o.shrink,
                               .shrink = {.max_steps = o.shrink_max_steps, .max_seconds = o.shrink_max_seconds},
                               .jobs = o.jobs,
                               .stop = &o.stop.state().flag,
                               .progress = o.progress};
}

// `flag`: how `syncbisim fuzz` names the allocator ("--strategy per-loop", "--allocator 'CMD'"),
// "" for a callback, which no command line can replay.
FuzzResult run(const fuzz::AllocateFn& allocate, const FuzzOptions& o, const std::string& label,
               const std::string& flag, const std::string& command) {
  auto c = campaign_options(o);
  fuzz::ReportContext report;
  report.allocator = label;
  if (!flag.empty())
    report.replay = [&](std::uint64_t r) {
      return "syncbisim fuzz " + flag + (o.declined_is_failure ? " --declined-is-failure" : "") + " --seed " +
             std::to_string(o.seed) + " --start " + std::to_string(r) + " --runs 1 --specs " +
             fuzz::to_string(c.specs) + " --max-size " + std::to_string(o.max_size) + " --max-states " +
             std::to_string(o.max_states);
    };
  std::optional<Error> write_error;
  if (!o.out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.out, ec);
    if (ec) throw Error(o.out, "", "io", "cannot create the directory: " + ec.message());
    c.on_failure = [&](const fuzz::RunFailure& f) {
      auto w = fuzz::write_failure_files(
          f, fuzz::FailureFileOptions{o.out, report.replay ? report.replay(f.run) : "", command});
      if (w) report.written[f.run] = *w;
      else if (!write_error) write_error = Error(w.error().file, w.error().place, w.error().rule, w.error().message);
    };
  }
  const auto r = fuzz::run_campaign(allocate, c);
  if (write_error) throw *write_error;
  // FuzzResult's counts are the campaign's, declared in the same order.
  FuzzResult out{r.runs, r.passed, r.failures, r.declined, r.inconclusive, r.skipped, r.seconds, r.interrupted};
  for (const auto& f : r.failed) {
    FuzzFailure ff{f.run,
                   f.seed,
                   fuzz::failure_class(f.failure),
                   f.what,
                   api::detail::wrap(f.written_spec(), "run " + std::to_string(f.run) + " spec"),
                   std::nullopt,
                   f.written_reply().output,
                   f.written_reply().errors,
                   "",
                   "",
                   "",
                   ""};
    if (!f.written_impl().engines.empty()) {
      if (auto ix = model::ProgramIndex::build(f.written_impl()))
        ff.impl = api::detail::wrap(f.written_impl(), std::move(*ix), "run " + std::to_string(f.run) + " impl");
    }
    if (f.shrunk) {
      ff.before = f.shrunk->before.to_string();
      ff.after = f.shrunk->after.to_string();
    }
    if (auto w = report.written.find(f.run); w != report.written.end()) {
      ff.files = w->second.stem;
      ff.repro = w->second.repro;
    } else {
      ff.repro = fuzz::repro_line(f, "f" + std::to_string(f.run), command);
    }
    out.failed.push_back(std::move(ff));
  }
  for (const auto& n : r.declines) out.declines.push_back(FuzzNote{n.run, n.seed, n.why});
  for (const auto& n : r.inconclusive_runs) out.inconclusive_runs.push_back(FuzzNote{n.run, n.seed, n.why});
  out.text = fuzz::campaign_text(r, report);
  out.json = formats::json_text(fuzz::campaign_json(r, c, report));
  return out;
}

}  // namespace

int FuzzResult::exit_status() const { return failures > 0 ? 1 : interrupted ? 3 : 0; }

FuzzResult fuzz_allocator(const Allocator& allocator, const FuzzOptions& options) {
  return run(api::detail::adapt(allocator), options, "callback", "", "");
}

FuzzResult fuzz_allocator(const Command& allocator, const FuzzOptions& options) {
  std::string flag = "--allocator " + fuzz::shell_quote(allocator.command);
  if (allocator.timeout_seconds != 10) flag += " --allocator-timeout " + std::to_string(allocator.timeout_seconds);
  return run(api::detail::adapt(allocator, options.stop), options, "command: " + allocator.command, flag,
             allocator.command);
}

FuzzResult fuzz_allocator(Strategy allocator, const FuzzOptions& options) {
  auto o = options;
  if (allocator == Strategy::Barrier) o.exact = false;  // the baseline is safe, not exact
  return run(api::detail::adapt(allocator), o, to_string(allocator), "--strategy " + to_string(allocator), "");
}

std::vector<Program> generate(const FuzzOptions& options) {
  std::vector<Program> out;
  for (std::uint64_t r = options.start; r < options.start + options.runs; ++r) {
    fuzz::RunSpec rs;
    try {
      rs = fuzz::spec_for_run(options.seed, r, mix_of(options.specs), options.max_size);
    } catch (const std::exception&) {  // the generator gave up; the campaign skips the run too
      continue;
    }
    out.push_back(api::detail::wrap(std::move(rs.spec), "run " + std::to_string(r)));
  }
  return out;
}

}  // namespace syncbisim
