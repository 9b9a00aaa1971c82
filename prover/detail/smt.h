#pragma once
// A small owned wrapper over Z3, in the spirit of Alive2's smt/ folder: integer and boolean
// terms, a solver whose checks are scoped (what a check adds is gone afterwards), and models read
// back as naturals. Only smt.cpp includes a Z3 header; the encoder and prove.cpp see these types
// alone, so the solver could be swapped without touching them.
//
// A Term is a handle into its Context's arena (terms live as long as their context, or the
// Context::Scope they were made in), so Terms are plain values, cheap to copy.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace syncbisim::prover::smt {

class Context;
struct TermAccess;

class Term {
 public:
  Term() = default;
  bool valid() const { return ctx_ != nullptr; }
  std::string to_string() const;

  friend Term operator+(const Term& a, const Term& b);
  friend Term operator-(const Term& a, const Term& b);
  friend Term operator*(const Term& a, const Term& b);
  friend Term operator>=(const Term& a, const Term& b);
  friend Term operator<=(const Term& a, const Term& b);
  friend Term operator>(const Term& a, const Term& b);
  friend Term operator<(const Term& a, const Term& b);
  friend Term operator==(const Term& a, const Term& b);
  friend Term operator!=(const Term& a, const Term& b);
  friend Term operator&&(const Term& a, const Term& b);
  friend Term operator||(const Term& a, const Term& b);
  friend Term operator!(const Term& a);
  // With a constant on the right (naturals only: the encoding never needs negative constants).
  friend Term operator+(const Term& a, std::uint64_t b);
  friend Term operator-(const Term& a, std::uint64_t b);
  friend Term operator*(std::uint64_t a, const Term& b);
  friend Term operator>=(const Term& a, std::uint64_t b);
  friend Term operator<=(const Term& a, std::uint64_t b);
  friend Term operator>(const Term& a, std::uint64_t b);
  friend Term operator<(const Term& a, std::uint64_t b);
  friend Term operator==(const Term& a, std::uint64_t b);
  friend Term ite(const Term& c, const Term& a, const Term& b);
  friend Term implies(const Term& a, const Term& b);

 private:
  friend class Context;
  friend struct TermAccess;
  Term(Context* c, std::uint32_t id) : ctx_(c), id_(id) {}
  Context* ctx_ = nullptr;
  std::uint32_t id_ = 0;
};

class Context {
 public:
  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Term nat(std::uint64_t v);
  Term truth(bool v);
  // A fresh integer unknown; the name is for reading models and dumps only (made unique).
  Term var(const std::string& name);
  Term sum(const std::vector<Term>& ts);
  // Whether a and b are equal for every value of their unknowns because both are the same linear
  // combination of the same atoms (unknowns, and every subterm that is not a sum, a difference or
  // a product with a numeral: an ite, a nonlinear product, each one atom by its identity). True is
  // a proof; false may only mean they are not seen equal that way. Each subterm's combination is
  // kept with the context, so a chain of sums built a step at a time is read once, not once per
  // question (the cut lemmas, prover/detail/cut_lemmas.h).
  bool same_linear(const Term& a, const Term& b);
  Term all(const std::vector<Term>& ts);
  Term any(const std::vector<Term>& ts);

  // Terms made while a Scope lives are dropped with it (no handle to one may outlive it), and the
  // fresh names start again where they were: one context serves one consumer after another
  // (prove's first attempt, docs/prover.md "Complexity") without growing.
  class Scope {
   public:
    explicit Scope(Context& c);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Context& c_;
    std::size_t arena_;
    std::uint64_t fresh_;
  };

 private:
  friend struct TermAccess;
  friend class Solver;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

enum class Status : std::uint8_t { Sat, Unsat, Unknown };

class Model {
 public:
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  ~Model();
  // The value of an integer term (0 when negative or too large to read), of a boolean term.
  std::uint64_t value(const Term& t) const;
  bool holds(const Term& t) const;
  // The value of an integer term in decimal, however large (Z3 integers are unbounded).
  std::string decimal(const Term& t) const;

 private:
  friend class Solver;
  struct Impl;
  explicit Model(std::unique_ptr<Impl> m);
  std::unique_ptr<Impl> impl_;
};

struct Outcome {
  Status status = Status::Unknown;
  std::optional<Model> model;  // with Sat
  std::string reason;          // with Unknown: what Z3 said
};

class Solver {
 public:
  Solver(Context& ctx, unsigned timeout_ms);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  void add(const Term& t);
  // Checks the assertions together with `extra`; the extra terms are dropped afterwards (the
  // check runs in a scope of its own), so one solver answers several related questions.
  Outcome check(const std::vector<Term>& extra = {});

  // What is added while a Scope lives is dropped with it, so one solver (and the Z3 setup behind
  // it, most of a small query's cost) answers one consumer's queries after another's.
  class Scope {
   public:
    explicit Scope(Solver& s);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Solver& s_;
  };

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace syncbisim::prover::smt
