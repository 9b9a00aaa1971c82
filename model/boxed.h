#pragma once
// A value kept on the heap, or nowhere while it is empty: for the fields most instructions leave
// empty (an impl's instructions have no footprint and no extra fields), so that every item of a
// stream does not carry their full size inline. An Instr was 264 bytes with them inline; impl
// streams hold hundreds of thousands of items on kernels of thousands of nests (docs/allocator.md
// "Complexity").
//
// It behaves as a T: copies copy the value, equality compares values, and an empty box reads as
// a default T. Reading never allocates; writing goes through edit().
#include <memory>
#include <utility>

namespace syncbisim::model {

template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(T value) { set(std::move(value)); }  // NOLINT: implicit, as the field's T was
  Boxed(const Boxed& o) : value_(o.value_ ? std::make_unique<T>(*o.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& o) {
    if (this != &o) value_ = o.value_ ? std::make_unique<T>(*o.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(T value) {
    set(std::move(value));
    return *this;
  }

  const T& operator*() const { return value_ ? *value_ : empty_value(); }
  const T* operator->() const { return &**this; }
  // The value, to change: allocated on first use.
  T& edit() {
    if (!value_) value_ = std::make_unique<T>();
    return *value_;
  }

  bool operator==(const Boxed& o) const { return **this == *o; }

 private:
  std::unique_ptr<T> value_;

  void set(T value) {
    if (value == empty_value())
      value_.reset();
    else
      value_ = std::make_unique<T>(std::move(value));
  }
  // One shared empty T per type, never changed: what an empty box reads as.
  static const T& empty_value() {
    static const T empty{};
    return empty;
  }
};

}  // namespace syncbisim::model
