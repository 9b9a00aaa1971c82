// The one file that includes Z3 (prover/detail/smt.h says why).
#include "prover/detail/smt.h"

#include <z3++.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace syncbisim::prover::smt {

// A linear combination of atoms (by Z3's AST id) and a constant, its atoms sorted, none with
// coefficient 0; `hash` a function of both, so that two are compared in full only when it agrees.
struct LinearForm {
  std::vector<std::pair<unsigned, std::int64_t>> terms;
  std::int64_t constant = 0;
  std::uint64_t hash = 0;
};

struct Context::Impl {
  z3::context z3;
  std::vector<z3::expr> arena;
  std::uint64_t fresh = 0;
  // same_linear's forms by AST id; each keeps its expression alive so that its id is not reused.
  std::unordered_map<unsigned, std::pair<z3::expr, std::shared_ptr<const LinearForm>>> forms;
};

// Term construction goes through the context's arena; these helpers keep the operators short.
struct TermAccess {
  static Context* ctx(const Term& t) {
    if (t.ctx_ == nullptr) throw std::logic_error("smt: a term without a context");
    return t.ctx_;
  }
  static const z3::expr& get(const Term& t) { return t.ctx_->impl_->arena[t.id_]; }
  static Term put(Context* c, z3::expr e) {
    c->impl_->arena.push_back(std::move(e));
    return Term(c, static_cast<std::uint32_t>(c->impl_->arena.size() - 1));
  }
  static Term binary(const Term& a, const Term& b, z3::expr (*f)(const z3::expr&, const z3::expr&)) {
    Context* c = ctx(a);
    if (ctx(b) != c) throw std::logic_error("smt: terms of two contexts");
    return put(c, f(get(a), get(b)));
  }
};

// Sums, differences and products fold where an operand is a numeral or both are one term: the
// encodings build many counts that cancel (`N - N` where a point and the statement's start meet,
// `1 * (...)`, `0 + ...`), and a long kernel's terms were mostly such (docs/prover.md
// "Complexity"). Only identities of integer arithmetic, so the formulas mean what they did.
namespace {
std::optional<std::int64_t> small_numeral(const z3::expr& e) {
  std::int64_t v = 0;
  if (e.is_numeral_i64(v) && v > -(std::int64_t{1} << 62) && v < (std::int64_t{1} << 62)) return v;
  return std::nullopt;
}
}  // namespace

Term operator+(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) -> z3::expr {
    const auto nx = small_numeral(x), ny = small_numeral(y);
    if (nx && ny) return x.ctx().int_val(*nx + *ny);
    if (nx == 0) return y;
    if (ny == 0) return x;
    return x + y;
  });
}
Term operator-(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) -> z3::expr {
    const auto nx = small_numeral(x), ny = small_numeral(y);
    if (nx && ny) return x.ctx().int_val(*nx - *ny);
    if (ny == 0) return x;
    if (z3::eq(x, y)) return x.ctx().int_val(0);
    return x - y;
  });
}
Term operator*(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) -> z3::expr {
    const auto nx = small_numeral(x), ny = small_numeral(y);
    if ((nx == 0) || (ny == 0)) return x.ctx().int_val(0);
    if (nx == 1) return y;
    if (ny == 1) return x;
    if (nx && ny && *nx > -(std::int64_t{1} << 30) && *nx < (std::int64_t{1} << 30) && *ny > -(std::int64_t{1} << 30) &&
        *ny < (std::int64_t{1} << 30))
      return x.ctx().int_val(*nx * *ny);
    return x * y;
  });
}
Term operator>=(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x >= y; });
}
Term operator<=(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x <= y; });
}
Term operator>(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x > y; });
}
Term operator<(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x < y; });
}
Term operator==(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x == y; });
}
Term operator!=(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x != y; });
}
Term operator&&(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x && y; });
}
Term operator||(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return x || y; });
}

Term operator!(const Term& a) { return TermAccess::put(TermAccess::ctx(a), !TermAccess::get(a)); }

Term operator+(const Term& a, std::uint64_t b) { return a + TermAccess::ctx(a)->nat(b); }
Term operator-(const Term& a, std::uint64_t b) { return a - TermAccess::ctx(a)->nat(b); }
Term operator*(std::uint64_t a, const Term& b) { return TermAccess::ctx(b)->nat(a) * b; }
Term operator>=(const Term& a, std::uint64_t b) { return a >= TermAccess::ctx(a)->nat(b); }
Term operator<=(const Term& a, std::uint64_t b) { return a <= TermAccess::ctx(a)->nat(b); }
Term operator>(const Term& a, std::uint64_t b) { return a > TermAccess::ctx(a)->nat(b); }
Term operator<(const Term& a, std::uint64_t b) { return a < TermAccess::ctx(a)->nat(b); }
Term operator==(const Term& a, std::uint64_t b) { return a == TermAccess::ctx(a)->nat(b); }

Term ite(const Term& c, const Term& a, const Term& b) {
  const auto& x = TermAccess::get(a);
  const auto& y = TermAccess::get(b);
  const auto& k = TermAccess::get(c);
  if (k.is_true() || z3::eq(x, y)) return a;
  if (k.is_false()) return b;
  return TermAccess::put(TermAccess::ctx(c), z3::ite(k, x, y));
}

Term implies(const Term& a, const Term& b) {
  return TermAccess::binary(a, b, [](const z3::expr& x, const z3::expr& y) { return z3::implies(x, y); });
}

std::string Term::to_string() const { return ctx_ ? TermAccess::get(*this).to_string() : "<none>"; }

Context::Context() : impl_(std::make_unique<Impl>()) {}
Context::~Context() = default;

Context::Scope::Scope(Context& c) : c_(c), arena_(c.impl_->arena.size()), fresh_(c.impl_->fresh) {}
Context::Scope::~Scope() {
  auto& a = c_.impl_->arena;
  a.erase(a.begin() + static_cast<std::ptrdiff_t>(arena_), a.end());
  c_.impl_->fresh = fresh_;
}

Term Context::nat(std::uint64_t v) { return TermAccess::put(this, impl_->z3.int_val(static_cast<std::uint64_t>(v))); }
Term Context::truth(bool v) { return TermAccess::put(this, impl_->z3.bool_val(v)); }

Term Context::var(const std::string& name) {
  const auto unique = name + "#" + std::to_string(impl_->fresh++);
  return TermAccess::put(this, impl_->z3.int_const(unique.c_str()));
}

namespace {

std::uint64_t mix(std::uint64_t x) {
  // splitmix64's finalizer: atoms' ids spread over 64 bits
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// k·a + m·b (coefficients that overflow 64 bits give no form: the question is not decided).
std::shared_ptr<const LinearForm> combine(const LinearForm& a, std::int64_t k, const LinearForm& b, std::int64_t m) {
  auto out = std::make_shared<LinearForm>();
  auto mul = [](std::int64_t x, std::int64_t y, std::int64_t& r) { return !__builtin_mul_overflow(x, y, &r); };
  auto add = [](std::int64_t x, std::int64_t y, std::int64_t& r) { return !__builtin_add_overflow(x, y, &r); };
  std::int64_t ca = 0, cb = 0;
  if (!mul(a.constant, k, ca) || !mul(b.constant, m, cb) || !add(ca, cb, out->constant)) return nullptr;
  out->terms.reserve(a.terms.size() + b.terms.size());
  std::size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    std::int64_t x = 0, y = 0, c = 0;
    unsigned id = 0;
    if (j == b.terms.size() || (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      id = a.terms[i].first;
      if (!mul(a.terms[i++].second, k, c)) return nullptr;
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      id = b.terms[j].first;
      if (!mul(b.terms[j++].second, m, c)) return nullptr;
    } else {
      id = a.terms[i].first;
      if (!mul(a.terms[i++].second, k, x) || !mul(b.terms[j++].second, m, y) || !add(x, y, c)) return nullptr;
    }
    if (c != 0) out->terms.emplace_back(id, c);
  }
  out->hash = mix(static_cast<std::uint64_t>(out->constant));
  for (const auto& [id, c] : out->terms) out->hash += mix(id) * static_cast<std::uint64_t>(c);
  return out;
}

}  // namespace

bool Context::same_linear(const Term& a, const Term& b) {
  auto& forms = impl_->forms;
  const auto atom = [](unsigned id) {
    auto f = std::make_shared<LinearForm>();
    f->terms.emplace_back(id, 1);
    f->hash = mix(id);
    return std::shared_ptr<const LinearForm>(f);
  };
  // Post-order over the DAG, each subterm once (kept in `forms` across questions).
  const auto form_of = [&](const z3::expr& root) -> std::shared_ptr<const LinearForm> {
    std::vector<std::pair<z3::expr, bool>> todo{{root, false}};
    while (!todo.empty()) {
      auto [e, expanded] = todo.back();
      todo.pop_back();
      const auto id = e.id();
      if (forms.count(id)) continue;
      const auto kind = e.is_app() ? e.decl().decl_kind() : Z3_OP_UNINTERPRETED;
      const bool linear = kind == Z3_OP_ADD || kind == Z3_OP_SUB || kind == Z3_OP_UMINUS || kind == Z3_OP_MUL;
      if (!linear) {
        std::shared_ptr<const LinearForm> f;
        if (const auto n = small_numeral(e)) {
          auto c = std::make_shared<LinearForm>();
          c->constant = *n;
          c->hash = mix(static_cast<std::uint64_t>(*n));
          f = c;
        } else {
          f = atom(id);
        }
        forms.emplace(id, std::make_pair(e, f));
        continue;
      }
      if (!expanded) {
        todo.push_back({e, true});
        for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back({e.arg(i), false});
        continue;
      }
      std::shared_ptr<const LinearForm> f;
      const auto arg = [&](unsigned i) { return forms.at(e.arg(i).id()).second; };
      if (kind == Z3_OP_MUL) {
        // A product with numerals only, and at most one other factor, is linear.
        std::int64_t k = 1;
        std::shared_ptr<const LinearForm> other;
        bool ok = true;
        for (unsigned i = 0; i < e.num_args() && ok; ++i) {
          const auto fi = arg(i);
          if (!fi) ok = false;
          else if (fi->terms.empty()) ok = !__builtin_mul_overflow(k, fi->constant, &k);
          else if (other) ok = false;
          else other = fi;
        }
        if (!ok) f = atom(id);
        else if (other) f = combine(*other, k, LinearForm{}, 0);  // k · other
        else f = combine(LinearForm{}, 0, LinearForm{{}, k, 0}, 1);  // the numeral k
      } else {
        f = arg(0);
        if (kind == Z3_OP_UMINUS && f) f = combine(*f, -1, LinearForm{}, 0);
        for (unsigned i = 1; i < e.num_args() && f; ++i) {
          const auto fi = arg(i);
          f = fi ? combine(*f, 1, *fi, kind == Z3_OP_SUB ? -1 : 1) : nullptr;
        }
      }
      forms.emplace(id, std::make_pair(e, f));
    }
    return forms.at(root.id()).second;
  };
  const auto fa = form_of(TermAccess::get(a));
  const auto fb = form_of(TermAccess::get(b));
  return fa && fb && fa->hash == fb->hash && fa->constant == fb->constant && fa->terms == fb->terms;
}

Term Context::sum(const std::vector<Term>& ts) {
  if (ts.empty()) return nat(0);
  Term out = ts[0];
  for (std::size_t i = 1; i < ts.size(); ++i) out = out + ts[i];
  return out;
}

Term Context::all(const std::vector<Term>& ts) {
  if (ts.empty()) return truth(true);
  Term out = ts[0];
  for (std::size_t i = 1; i < ts.size(); ++i) out = out && ts[i];
  return out;
}

Term Context::any(const std::vector<Term>& ts) {
  if (ts.empty()) return truth(false);
  Term out = ts[0];
  for (std::size_t i = 1; i < ts.size(); ++i) out = out || ts[i];
  return out;
}

struct Model::Impl {
  Context* ctx;
  z3::model m;
};

Model::Model(std::unique_ptr<Impl> m) : impl_(std::move(m)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

std::uint64_t Model::value(const Term& t) const {
  const auto v = impl_->m.eval(TermAccess::get(t), true);
  std::int64_t x = 0;
  return v.is_numeral_i64(x) && x > 0 ? static_cast<std::uint64_t>(x) : 0;
}

std::string Model::decimal(const Term& t) const {
  const auto v = impl_->m.eval(TermAccess::get(t), true);
  return v.is_numeral() ? v.get_decimal_string(0) : v.to_string();
}

bool Model::holds(const Term& t) const { return impl_->m.eval(TermAccess::get(t), true).is_true(); }

struct Solver::Impl {
  Context* ctx;
  z3::solver s;
};

Solver::Solver(Context& ctx, unsigned timeout_ms)
    : impl_(std::make_unique<Impl>(Impl{&ctx, z3::solver(ctx.impl_->z3)})) {
  z3::params p(ctx.impl_->z3);
  p.set("timeout", timeout_ms);
  impl_->s.set(p);
}

Solver::~Solver() = default;

void Solver::add(const Term& t) { impl_->s.add(TermAccess::get(t)); }

Solver::Scope::Scope(Solver& s) : s_(s) { s_.impl_->s.push(); }
Solver::Scope::~Scope() { s_.impl_->s.pop(); }

Outcome Solver::check(const std::vector<Term>& extra) {
  Outcome out;
  impl_->s.push();
  try {
    for (const auto& t : extra) impl_->s.add(TermAccess::get(t));
    switch (impl_->s.check()) {
      case z3::unsat: out.status = Status::Unsat; break;
      case z3::sat:
        out.status = Status::Sat;
        out.model.emplace(Model(std::make_unique<Model::Impl>(Model::Impl{impl_->ctx, impl_->s.get_model()})));
        break;
      case z3::unknown:
        out.status = Status::Unknown;
        out.reason = impl_->s.reason_unknown();
        break;
    }
  } catch (const z3::exception& e) {
    out.status = Status::Unknown;
    out.reason = e.msg();
  }
  impl_->s.pop();
  return out;
}

}  // namespace syncbisim::prover::smt
