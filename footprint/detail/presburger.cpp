#include "footprint/detail/presburger.h"

#include <isl/ctx.h>
#include <isl/ilp.h>
#include <isl/space.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

namespace syncbisim::footprint::detail {

struct Presburger::Ctx {
  isl_ctx* ctx = nullptr;
};

Presburger::Presburger(unsigned long max_operations) : ctx_(std::make_unique<Ctx>()) {
  ctx_->ctx = isl_ctx_alloc();
  // Errors come back as null results, never as an abort of the whole tool.
  isl_options_set_on_error(ctx_->ctx, ISL_ON_ERROR_CONTINUE);
  if (max_operations) isl_ctx_set_max_operations(ctx_->ctx, max_operations);
}

Presburger::~Presburger() {
  if (ctx_ && ctx_->ctx) isl_ctx_free(ctx_->ctx);
}

namespace {

struct SetPtr {
  isl_set* s = nullptr;
  explicit SetPtr(isl_set* p) : s(p) {}
  ~SetPtr() {
    if (s) isl_set_free(s);
  }
  SetPtr(const SetPtr&) = delete;
  SetPtr& operator=(const SetPtr&) = delete;
  isl_set* take() {
    auto* p = s;
    s = nullptr;
    return p;
  }
};

std::optional<std::vector<std::int64_t>> coordinates(isl_point* p) {
  if (!p) return std::nullopt;
  if (isl_point_is_void(p)) {
    isl_point_free(p);
    return std::nullopt;
  }
  std::vector<std::int64_t> out;
  isl_space* space = isl_point_get_space(p);
  const auto n = isl_space_dim(space, isl_dim_set);
  isl_space_free(space);
  for (isl_size k = 0; k < n; ++k) {
    isl_val* v = isl_point_get_coordinate_val(p, isl_dim_set, k);
    out.push_back(v ? isl_val_get_num_si(v) : 0);
    if (v) isl_val_free(v);
  }
  isl_point_free(p);
  return out;
}

}  // namespace

namespace {
// ISL's answer to a yes/no question, with the operation limit's "don't know".
Decided decided(isl_bool b, isl_ctx* ctx, std::string& error) {
  if (b == isl_bool_true) return Decided::Yes;
  if (b == isl_bool_false) return Decided::No;
  error = isl_ctx_last_error(ctx) == isl_error_quota ? "ISL's operation limit was reached"
                                                     : "ISL could not decide (" +
                                                           std::string(isl_ctx_last_error_msg(ctx) ? isl_ctx_last_error_msg(ctx) : "no message") + ")";
  isl_ctx_reset_error(ctx);
  return Decided::Unknown;
}
}  // namespace

namespace {

// Reads `a` (and `b`, if given) and hands the sets to `ask` (which takes them), with the
// operation count reset; an unreadable set is undecided (an empty result, the error noted).
template <class Ask>
auto with_sets(isl_ctx* ctx, std::string& error, const std::string& a, const std::string* b, Ask ask)
    -> decltype(ask(nullptr, nullptr)) {
  error.clear();
  SetPtr x(isl_set_read_from_str(ctx, a.c_str()));
  SetPtr y(b ? isl_set_read_from_str(ctx, b->c_str()) : nullptr);
  if (!x.s || (b && !y.s)) {
    decided(isl_bool_error, ctx, error);
    return {};
  }
  isl_ctx_reset_operations(ctx);
  return ask(x.take(), y.take());
}

// A point of the set `make` builds of the sets it is given, or nothing.
template <class Make>
std::optional<std::vector<std::int64_t>> point(isl_ctx* ctx, std::string& error, const std::string& a,
                                               const std::string* b, Make make) {
  auto out = with_sets(ctx, error, a, b, [&](isl_set* x, isl_set* y) { return coordinates(isl_set_sample_point(make(x, y))); });
  if (!out && isl_ctx_last_error(ctx) != isl_error_none) decided(isl_bool_error, ctx, error);
  return out;
}

Decided question(isl_ctx* ctx, std::string& error, const std::string& a, const std::string* b,
                 isl_bool (*q)(isl_set*, isl_set*)) {
  const auto r = with_sets(ctx, error, a, b, [&](isl_set* x, isl_set* y) {
    const auto answer = decided(q(x, y), ctx, error);
    isl_set_free(x);
    if (y) isl_set_free(y);
    return std::optional<Decided>(answer);
  });
  return r ? *r : Decided::Unknown;
}

}  // namespace

Decided Presburger::empty(const std::string& set) {
  return question(ctx_->ctx, error_, set, nullptr, [](isl_set* x, isl_set*) { return isl_set_is_empty(x); });
}

Decided Presburger::subset(const std::string& a, const std::string& b) {
  return question(ctx_->ctx, error_, a, &b, [](isl_set* x, isl_set* y) { return isl_set_is_subset(x, y); });
}

Decided Presburger::singleton(const std::string& set) {
  return question(ctx_->ctx, error_, set, nullptr, [](isl_set* x, isl_set*) { return isl_set_is_singleton(x); });
}

std::optional<std::vector<std::int64_t>> Presburger::sample(const std::string& set) {
  return point(ctx_->ctx, error_, set, nullptr, [](isl_set* x, isl_set*) { return x; });
}

std::optional<std::vector<std::int64_t>> Presburger::lexmin(const std::string& set) {
  return point(ctx_->ctx, error_, set, nullptr, [](isl_set* x, isl_set*) { return isl_set_lexmin(x); });
}

std::optional<std::vector<std::int64_t>> Presburger::lexmin_outside(const std::string& a, const std::string& b) {
  return point(ctx_->ctx, error_, a, &b, [](isl_set* x, isl_set* y) { return isl_set_lexmin(isl_set_subtract(x, y)); });
}

std::optional<std::vector<std::int64_t>> Presburger::lexmax(const std::string& set) {
  return point(ctx_->ctx, error_, set, nullptr, [](isl_set* x, isl_set*) { return isl_set_lexmax(x); });
}

std::optional<std::vector<std::int64_t>> Presburger::dim_min(const std::string& set) {
  error_.clear();
  SetPtr s(isl_set_read_from_str(ctx_->ctx, set.c_str()));
  if (!s.s) {
    decided(isl_bool_error, ctx_->ctx, error_);
    return std::nullopt;
  }
  isl_ctx_reset_operations(ctx_->ctx);
  std::vector<std::int64_t> out;
  const auto n = isl_set_dim(s.s, isl_dim_set);
  for (isl_size k = 0; k < n; ++k) {
    isl_val* v = isl_set_dim_min_val(isl_set_copy(s.s), static_cast<int>(k));
    if (!v || !isl_val_is_int(v)) {
      if (v) isl_val_free(v);
      error_ = "ISL found no least value in dimension " + std::to_string(k);
      isl_ctx_reset_error(ctx_->ctx);
      return std::nullopt;
    }
    out.push_back(isl_val_get_num_si(v));
    isl_val_free(v);
  }
  return out;
}

}  // namespace syncbisim::footprint::detail
