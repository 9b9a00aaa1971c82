#pragma once
// Random pairs for the checker's properties: a random spec and a random synchronization of it
// (constant waits, random signals, barriers with and without reset lists), so that every verdict
// occurs: bisimilar, over-, under-synchronized, deadlocks.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/program_pair.h"
#include "generators/spec_gen.h"
#include "model/program.h"
#include "model/walk.h"
#include "support/rapidcheck_doctest.h"

namespace syncbisim::test {

// The spec's tree with random waits, signals and barriers.
inline rc::Gen<model::Program> gen_random_impl(const model::Program& spec) {
  return rc::gen::exec([spec] {
    model::Program impl = spec;
    impl.kind = model::ProgramKind::Impl;
    impl.deps.clear();
    impl.semaphores = {"s0", "s1", "s2"};
    model::for_each_stream(impl.body, [](model::Stream& stream) {
      for (auto& item : stream.items) {
        auto& in = std::get<model::Instr>(item);
        in.extra = decltype(in.extra){};
        if (*rc::gen::inRange(0, 3) == 0)
          in.waits.push_back(
              model::Wait{"s" + std::to_string(*rc::gen::inRange(0, 3)), std::uint64_t(*rc::gen::inRange(0, 4))});
        if (*rc::gen::inRange(0, 2) == 0) in.signal = model::Signal{"s" + std::to_string(*rc::gen::inRange(0, 3)), 1};
      }
    });
    // Sometimes a barrier on every engine at the start of the program, resetting s0 or nothing.
    if (*rc::gen::inRange(0, 3) == 0) {
      model::Block b;
      const bool reset_s0 = *rc::gen::arbitrary<bool>();
      for (const auto& e : impl.engines)
        b.streams.push_back(model::Stream{
            e,
            {model::Barrier{reset_s0 ? std::optional<std::vector<std::string>>{{"s0"}}
                                     : std::optional<std::vector<std::string>>{std::vector<std::string>{}},
                            {}}}});
      impl.body.insert(impl.body.begin(), model::Stmt{std::move(b)});
    }
    model::normalize(impl);
    return impl;
  });
}

// A random spec of at most three engines and a random synchronization of it, paired.
inline std::unique_ptr<checker::ProgramPair> gen_small_pair(semantics::Options o = {}) {
  generators::SpecGenOptions opt;
  opt.max_engines = 3;
  const auto spec = *generators::gen_spec(opt);
  const auto impl = *gen_random_impl(spec);
  auto pair = checker::ProgramPair::make(spec, impl, o);
  RC_ASSERT(pair.ok());
  return std::move(*pair);
}

}  // namespace syncbisim::test
