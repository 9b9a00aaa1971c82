// The one file that includes Z3 (prover/detail/smt.h says why).
#include "prover/detail/smt.h"

#include <z3++.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "model/mix64.h"

namespace syncbisim::prover::smt {

// A linear combination of atoms and a constant, its atoms sorted, none with coefficient 0. An
// atom is a subterm that is not linear (by its AST id, times 2) or a class of subterms shown equal
// (its number, times 2, plus 1).
struct LinearForm {
  std::vector<std::pair<std::uint64_t, std::int64_t>> terms;
  std::int64_t constant = 0;
};

struct Context::Impl {
  z3::context z3;
  std::vector<z3::expr> arena;
  std::uint64_t fresh = 0;
  // same_linear, kept across questions: each subterm's hash (a function of its linear
  // combination, so equal combinations hash alike), and the classes of subterms shown equal; each
  // entry keeps its expression alive so that its id is not reused.
  std::unordered_map<unsigned, std::pair<z3::expr, std::uint64_t>> hashes;
  std::unordered_map<unsigned, std::pair<z3::expr, unsigned>> class_of;
  std::vector<unsigned> parent;  // union-find over the classes
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

// Atoms' ids spread over 64 bits.
std::uint64_t mix(std::uint64_t x) { return model::mix64(x); }

constexpr std::uint64_t kOne = 0x5851f42d4c957f2dULL;  // the hash of the numeral 1

enum class Lin : std::uint8_t { Numeral, Atom, Add, Sub, Neg, Mul };

Lin classify(const z3::expr& e) {
  if (small_numeral(e)) return Lin::Numeral;
  if (!e.is_app()) return Lin::Atom;
  switch (e.decl().decl_kind()) {
    case Z3_OP_ADD: return Lin::Add;
    case Z3_OP_SUB: return Lin::Sub;
    case Z3_OP_UMINUS: return Lin::Neg;
    case Z3_OP_MUL: {
      // Linear when at most one factor is not a numeral.
      unsigned others = 0;
      for (unsigned i = 0; i < e.num_args(); ++i) others += !small_numeral(e.arg(i));
      return others <= 1 ? Lin::Mul : Lin::Atom;
    }
    default: return Lin::Atom;
  }
}

// k·a + m·b (coefficients that overflow 64 bits give no form: the question is not decided).
std::optional<LinearForm> combine(const LinearForm& a, std::int64_t k, const LinearForm& b, std::int64_t m) {
  LinearForm out;
  auto mul = [](std::int64_t x, std::int64_t y, std::int64_t& r) { return !__builtin_mul_overflow(x, y, &r); };
  auto add = [](std::int64_t x, std::int64_t y, std::int64_t& r) { return !__builtin_add_overflow(x, y, &r); };
  std::int64_t ca = 0, cb = 0;
  if (!mul(a.constant, k, ca) || !mul(b.constant, m, cb) || !add(ca, cb, out.constant)) return std::nullopt;
  out.terms.reserve(a.terms.size() + b.terms.size());
  std::size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    std::int64_t x = 0, y = 0, c = 0;
    std::uint64_t id = 0;
    if (j == b.terms.size() || (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      id = a.terms[i].first;
      if (!mul(a.terms[i++].second, k, c)) return std::nullopt;
    } else if (i == a.terms.size() || b.terms[j].first < a.terms[i].first) {
      id = b.terms[j].first;
      if (!mul(b.terms[j++].second, m, c)) return std::nullopt;
    } else {
      id = a.terms[i].first;
      if (!mul(a.terms[i++].second, k, x) || !mul(b.terms[j++].second, m, y) || !add(x, y, c)) return std::nullopt;
    }
    if (c != 0) out.terms.emplace_back(id, c);
  }
  return out;
}

}  // namespace

bool Context::same_linear(const Term& a, const Term& b) {
  auto& I = *impl_;
  const auto& ea = TermAccess::get(a);
  const auto& eb = TermAccess::get(b);
  // 1. Hashes, kept for every subterm: linear in the subterms, so a chain's hash costs its new
  //    steps. Different hashes: different combinations (arithmetic modulo 2^64 respects sums
  //    and products, so equal combinations hash alike).
  const auto hash_of = [&](const z3::expr& root) {
    std::vector<std::pair<z3::expr, bool>> todo{{root, false}};
    while (!todo.empty()) {
      auto [e, expanded] = todo.back();
      todo.pop_back();
      const auto id = e.id();
      if (I.hashes.count(id)) continue;
      const auto kind = classify(e);
      if (kind == Lin::Numeral || kind == Lin::Atom) {
        const auto h = kind == Lin::Numeral ? static_cast<std::uint64_t>(*small_numeral(e)) * kOne : mix(2ULL * id);
        I.hashes.emplace(id, std::make_pair(e, h));
        continue;
      }
      if (!expanded) {
        todo.push_back({e, true});
        for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back({e.arg(i), false});
        continue;
      }
      const auto arg = [&](unsigned i) { return I.hashes.at(e.arg(i).id()).second; };
      std::uint64_t h = arg(0);
      if (kind == Lin::Neg) h = 0 - h;
      for (unsigned i = 1; i < e.num_args(); ++i) {
        if (kind == Lin::Add) h += arg(i);
        else if (kind == Lin::Sub) h -= arg(i);
      }
      if (kind == Lin::Mul) {
        // Π numerals times the one other factor (or times 1).
        std::uint64_t k = 1, other = kOne;
        for (unsigned i = 0; i < e.num_args(); ++i) {
          if (const auto n = small_numeral(e.arg(i))) k *= static_cast<std::uint64_t>(*n);
          else other = arg(i);
        }
        h = k * other;
      }
      I.hashes.emplace(id, std::make_pair(e, h));
    }
    return I.hashes.at(root.id()).second;
  };
  if (hash_of(ea) != hash_of(eb)) return false;
  const auto find = [&](unsigned c) {
    while (I.parent[c] != c) c = I.parent[c] = I.parent[I.parent[c]];
    return c;
  };
  // 2. The combinations themselves, built for this question only (so memory stays what the
  //    question reads): with `classes`, a subterm shown equal to others stands as their class's
  //    atom, so a chain of sums reads back only to its last step shown equal.
  const auto form_of = [&](const z3::expr& root, bool classes) -> std::optional<LinearForm> {
    std::unordered_map<unsigned, std::optional<LinearForm>> forms;
    std::vector<std::pair<z3::expr, bool>> todo{{root, false}};
    while (!todo.empty()) {
      auto [e, expanded] = todo.back();
      todo.pop_back();
      const auto id = e.id();
      if (forms.count(id)) continue;
      if (classes && id != root.id()) {
        if (const auto it = I.class_of.find(id); it != I.class_of.end()) {
          forms.emplace(id, LinearForm{{{2ULL * find(it->second.second) + 1, 1}}, 0});
          continue;
        }
      }
      const auto kind = classify(e);
      if (kind == Lin::Numeral) {
        forms.emplace(id, LinearForm{{}, *small_numeral(e)});
        continue;
      }
      if (kind == Lin::Atom) {
        forms.emplace(id, LinearForm{{{2ULL * id, 1}}, 0});
        continue;
      }
      if (!expanded) {
        todo.push_back({e, true});
        for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back({e.arg(i), false});
        continue;
      }
      const auto& first = forms.at(e.arg(0).id());
      std::optional<LinearForm> f;
      if (kind == Lin::Mul) {
        std::int64_t k = 1;
        const LinearForm* other = nullptr;
        bool ok = true;
        for (unsigned i = 0; i < e.num_args() && ok; ++i) {
          if (const auto n = small_numeral(e.arg(i))) ok = !__builtin_mul_overflow(k, *n, &k);
          else if (const auto& fi = forms.at(e.arg(i).id())) other = &*fi;
          else ok = false;
        }
        if (ok) f = other ? combine(*other, k, LinearForm{}, 0) : LinearForm{{}, k};
      } else if (first) {
        f = kind == Lin::Neg ? combine(*first, -1, LinearForm{}, 0) : first;
        for (unsigned i = 1; i < e.num_args() && f; ++i) {
          const auto& fi = forms.at(e.arg(i).id());
          f = fi ? combine(*f, 1, *fi, kind == Lin::Sub ? -1 : 1) : std::nullopt;
        }
      }
      forms.emplace(id, std::move(f));
    }
    return forms.at(root.id());
  };
  const auto same = [&](bool classes) {
    const auto fa = form_of(ea, classes);
    const auto fb = form_of(eb, classes);
    return fa && fb && fa->constant == fb->constant && fa->terms == fb->terms;
  };
  if (!same(true) && !same(false)) return false;
  // 3. Shown equal: one class for both (a later question reads either as that class's atom).
  const auto class_here = [&](const z3::expr& e) -> std::optional<unsigned> {
    const auto it = I.class_of.find(e.id());
    return it == I.class_of.end() ? std::nullopt : std::optional<unsigned>(find(it->second.second));
  };
  auto ca = class_here(ea), cb = class_here(eb);
  if (!ca && !cb) {
    ca = static_cast<unsigned>(I.parent.size());
    I.parent.push_back(*ca);
  }
  const unsigned c = ca ? *ca : *cb;
  if (ca && cb && *ca != *cb) I.parent[*cb] = *ca;
  if (!class_here(ea)) I.class_of.emplace(ea.id(), std::make_pair(ea, c));
  if (!class_here(eb)) I.class_of.emplace(eb.id(), std::make_pair(eb, c));
  return true;
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
