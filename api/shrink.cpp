// shrink() of the public API: a failing pair, or a spec whose allocation fails (docs/fuzzing.md).
#include <cstdio>
#include <nlohmann/json.hpp>

#include "api/detail/allocators.h"
#include "formats/json_text.h"
#include "api/detail/program_data.h"
#include "formats/text_format.h"
#include "fuzz/shrink.h"

namespace syncbisim {

namespace {

ShrinkResult run(const Program& spec, const fuzz::ShrinkMode& mode, fuzz::Counts policy, const ShrinkOptions& o) {
  api::detail::require_kind(spec, model::ProgramKind::Spec, "spec");
  fuzz::ShrinkOptions so;
  so.max_steps = o.max_steps;
  so.max_seconds = o.max_seconds;
  so.check.max_states = o.max_states;
  so.check.policy = policy;
  so.stop = &o.stop.state().flag;
  so.keep_spec = o.keep_spec;
  so.free = o.free;
  auto r = fuzz::shrink(spec.data().program, mode, std::nullopt, so);
  if (!r) api::detail::raise(r.error(), spec.data().name);
  ShrinkResult out{fuzz::failure_class(r->failure),
                   r->what,
                   api::detail::wrap(r->spec, spec.data().name + " (minimized)"),
                   std::nullopt,
                   r->reply.output,
                   r->reply.errors,
                   r->before.to_string(),
                   r->after.to_string(),
                   r->steps,
                   r->accepted,
                   r->cache_hits,
                   r->seconds,
                   r->stopped,
                   "",
                   ""};
  if (!r->impl.engines.empty())
    if (auto ix = model::ProgramIndex::build(r->impl))
      out.impl = api::detail::wrap(r->impl, std::move(*ix), spec.data().name + " (minimized impl)");
  char line[200];
  std::snprintf(line, sizeof line, "%llu candidates checked, %llu kept, %llu cache hits, %.2f s%s%s\n",
                static_cast<unsigned long long>(out.steps), static_cast<unsigned long long>(out.kept),
                static_cast<unsigned long long>(out.cache_hits), out.seconds,
                out.stopped.empty() ? "" : ", stopped at ", out.stopped.c_str());
  out.text = "failure: " + out.failure + "\nbefore: " + out.before + "\nafter: " + out.after + "\n" + line + "\n" +
             formats::write_text(r->spec) + (out.impl ? "\n" + formats::write_text(r->impl) : "");
  nlohmann::json j{{"class", out.failure_class},   {"failure", out.failure},
                   {"before", out.before},         {"after", out.after},
                   {"steps", out.steps},           {"kept", out.kept},
                   {"cache_hits", out.cache_hits}, {"seconds", out.seconds},
                   {"stopped", out.stopped},       {"spec", nlohmann::json::parse(out.spec.to_json())}};
  if (out.impl) j["impl"] = nlohmann::json::parse(out.impl->to_json());
  if (!out.allocator_output.empty() || !out.allocator_errors.empty()) {
    j["allocator_output"] = out.allocator_output;
    j["allocator_errors"] = out.allocator_errors;
  }
  out.json = formats::json_text(j);
  return out;
}

}  // namespace

ShrinkResult shrink(const Program& spec, const Program& impl, const ShrinkOptions& options) {
  api::detail::require_kind(impl, model::ProgramKind::Impl, "impl");
  return run(spec, fuzz::GivenImpl{impl.data().program}, fuzz::Counts::All, options);
}

ShrinkResult shrink(const Program& spec, const Allocator& allocator, const ShrinkOptions& options) {
  return run(spec, fuzz::DerivedImpl{api::detail::adapt(allocator), options.declined_is_failure},
             fuzz::Counts::AllOnAllocatable, options);
}

ShrinkResult shrink(const Program& spec, const Command& allocator, const ShrinkOptions& options) {
  return run(spec, fuzz::DerivedImpl{api::detail::adapt(allocator, options.stop), options.declined_is_failure},
             fuzz::Counts::AllOnAllocatable, options);
}

ShrinkResult shrink(const Program& spec, Strategy allocator, const ShrinkOptions& options) {
  const auto policy = allocator == Strategy::Barrier ? fuzz::Counts::UnderSyncOnly : fuzz::Counts::AllOnAllocatable;
  return run(spec, fuzz::DerivedImpl{api::detail::adapt(allocator), options.declined_is_failure}, policy, options);
}

}  // namespace syncbisim
