#pragma once
// Errors in input are values: a Diagnostic names the file, the place (a JSON pointer or
// line:col), the rule that was broken and a message; the CLI turns it into one line.
#include <string>
#include <utility>
#include <variant>

namespace syncbisim::model {

struct Diagnostic {
  std::string file;     // filled in at the edge when known
  std::string place;    // JSON pointer ("/program/1/body") or "line:col"
  std::string rule;     // short rule name, e.g. "duplicate-instr"
  std::string message;  // what is wrong, for a person

  // "FILE: PLACE: message [rule]", one printable line (model/quote.h)
  std::string to_string() const;
};

Diagnostic make_error(std::string place, std::string rule, std::string message);

// A value or a Diagnostic. Small on purpose: std::expected is C++23.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Diagnostic error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Diagnostic& error() const { return std::get<1>(v_); }
  Diagnostic& error() { return std::get<1>(v_); }

 private:
  std::variant<T, Diagnostic> v_;
};

// Result<void>: success or a Diagnostic.
struct Ok {};
using Status = Result<Ok>;

}  // namespace syncbisim::model
