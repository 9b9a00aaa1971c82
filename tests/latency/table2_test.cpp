// Table 2 on the timing model (docs/timing.md): every program table2 simulates is checked first
// (so no figure is ever reported for a wrong program), then the shape the paper reports.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "checker/explorer.h"
#include "checker/program_pair.h"
#include "formats/load.h"
#include "latency/table2.h"
#include "support/test_files.h"

using namespace syncbisim;
using latency::Variant;

namespace {

model::Program kernel(const std::string& file) {
  auto r = formats::load_program_file((test::source_dir() / "corpus/kernels" / file).string());
  REQUIRE_MESSAGE(r.ok(), r.error().to_string());
  return std::move(r->program);
}

std::string key_of(const latency::KernelRow& k) {
  std::string key = std::filesystem::path(k.file).stem().string();
  for (const auto& l : k.unroll_first) key += "+" + l;
  return key;
}

}  // namespace

TEST_CASE("table2: every program behind a figure is checked: barrier-free bisimilar, barriers safe") {
  // At the specs' own small trips (the exhaustive check's scale): the same allocations, only the
  // trip counts differ at the kernels' scale (impls take their trips from the spec).
  latency::Table2Options o;
  o.at_spec_trips = true;
  for (const auto& k : latency::default_kernel_rows()) {
    INFO(key_of(k));
    auto progs = latency::variant_programs(kernel(k.file), k.unroll_first, o);
    REQUIRE_MESSAGE(progs.ok(), progs.error().to_string());
    for (std::size_t v = 0; v < latency::kVariants; ++v) {
      const auto& p = progs->programs[v];
      INFO(latency::to_string(static_cast<Variant>(v)));
      if (!p) {
        // only the dynamic MoE loop keeps a kernel from being unrolled
        CHECK(static_cast<Variant>(v) == Variant::Unrolled);
        CHECK(k.file.find("dropless_moe") != std::string::npos);
        continue;
      }
      auto pair = checker::ProgramPair::make(p->spec, p->impl);
      REQUIRE_MESSAGE(pair.ok(), pair.error().to_string());
      checker::CheckOptions co;
      co.max_states = 3000000;
      const auto r = checker::check((*pair)->lockstep(), co);
      REQUIRE(r.exhaustive);
      if (static_cast<Variant>(v) == Variant::Barrier) CHECK(r.verdict == checker::Verdict::OverSynchronized);
      else CHECK(r.verdict == checker::Verdict::Bisimilar);
    }
  }
}

TEST_CASE("table2: the paper's shape on the timing model") {
  std::map<std::string, latency::Row> rows;
  for (const auto& k : latency::default_kernel_rows()) {
    auto row = latency::table2_row(kernel(k.file), key_of(k), k.unroll_first);
    REQUIRE_MESSAGE(row.ok(), row.error().to_string());
    rows.emplace(row->key, std::move(*row));
  }
  REQUIRE(rows.size() == 9);
  std::vector<double> barrier_free;
  for (const auto& [key, r] : rows) {
    INFO(key);
    REQUIRE(r.paper.has_value());
    CHECK(r.ours[0].lat == doctest::Approx(1.0));
    for (std::size_t v = 0; v < latency::kVariants; ++v) CHECK_FALSE(r.ours[v].deadlock);
    // every barrier-free figure below 1.00
    for (auto v : {Variant::PerLoop, Variant::PerInstruction, Variant::PerEngine}) {
      const auto& f = r.ours[static_cast<std::size_t>(v)];
      REQUIRE(f.available);
      CHECK(f.lat < 1.0);
    }
    barrier_free.push_back(r.ours[1].lat);
  }
  std::sort(barrier_free.begin(), barrier_free.end());
  const auto& pl = [&](const std::string& k) {
    return rows.at(k).ours[static_cast<std::size_t>(Variant::PerLoop)].lat;
  };
  // AddManyLoop: independent iterations make every barrier pure overhead
  CHECK(pl("add_many_loop") <= 0.45);
  // TiledMatmul: the counters and decode of the tight K loop on the Tensor Engine; among the worst
  CHECK(pl("tiled_matmul") >= 0.75);
  CHECK(pl("tiled_matmul") >= barrier_free[barrier_free.size() - 4]);
  // and clearly better once K is unrolled
  CHECK(pl("tiled_matmul+k") <= pl("tiled_matmul") - 0.1);
  // MoE: three programs, the block count set at run time: never unrolled
  for (const auto* moe : {"dropless_moe_384", "dropless_moe_2048", "dropless_moe_4096"}) {
    CHECK_FALSE(rows.at(moe).ours[static_cast<std::size_t>(Variant::Unrolled)].available);
    CHECK(rows.at(moe).loops == 1);
  }
  CHECK(rows.at("dropless_moe_384").trips != rows.at("dropless_moe_4096").trips);
  // unrolling costs code: orders of magnitude on AddManyLoop's 10^4 iterations
  CHECK(rows.at("add_many_loop").ours[4].code_bytes > 1000 * rows.at("add_many_loop").ours[1].code_bytes);
  // the paper's L where ours follows it
  CHECK(rows.at("tiled_matmul").loops == 3);
  CHECK(rows.at("tiled_matmul+k").loops == 2);
  CHECK(rows.at("rmsnorm+col").loops == 1);
  CHECK(rows.at("flash_attention").loops == 2);
}
