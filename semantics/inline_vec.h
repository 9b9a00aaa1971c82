#pragma once
// A vector of trivially copyable elements that keeps up to N of them inside itself and moves to
// the heap only beyond N. Unlike a general small vector, copying one that fits copies the whole
// inline buffer as one fixed-size block: the compiler emits a few vector moves and no loop, no
// call. The checker copies parts of states for every successor it builds, and those copies were
// the largest single cost left (docs/checker.md "Performance"; docs/choices.md).
// Elements past size() in the inline buffer are value-initialized and otherwise meaningless.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <type_traits>

namespace syncbisim::semantics {

template <class T, std::size_t N>
class InlineVec {
  static_assert(std::is_trivially_copyable_v<T>, "InlineVec copies elements as bytes");
  static_assert(N > 0);

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVec() = default;
  explicit InlineVec(size_type n) { resize(n); }
  InlineVec(size_type n, const T& v) { assign(n, v); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  InlineVec(It first, It last) {
    assign(first, last);
  }
  InlineVec(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  InlineVec(const InlineVec& o) { *this = o; }
  InlineVec(InlineVec&& o) noexcept { *this = std::move(o); }
  ~InlineVec() = default;

  InlineVec& operator=(const InlineVec& o) {
    if (this == &o) return *this;
    if (o.size_ <= N && !heap_) {
      // o's storage holds at least N elements (inline, or a heap block larger than N).
      std::memcpy(inline_, o.data_, sizeof inline_);
    } else {
      reserve(o.size_);
      std::memcpy(data_, o.data_, o.size_ * sizeof(T));
    }
    size_ = o.size_;
    return *this;
  }
  InlineVec& operator=(InlineVec&& o) noexcept {
    if (this == &o) return *this;
    if (o.heap_ && !heap_ && o.size_ > N) {
      heap_ = std::move(o.heap_);
      data_ = heap_.get();
      cap_ = o.cap_;
      size_ = o.size_;
      o.data_ = o.inline_;
      o.cap_ = N;
      o.size_ = 0;
      return *this;
    }
    return *this = static_cast<const InlineVec&>(o);
  }

  // Iterators and element access.
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_type i) { return data_[i]; }
  const T& operator[](size_type i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  size_type size() const { return size_; }
  size_type capacity() const { return cap_; }
  bool empty() const { return size_ == 0; }

  void reserve(size_type n) {
    if (n <= cap_) return;
    const size_type cap = std::max<size_type>(n, 2 * cap_);
    auto block = std::make_unique<T[]>(cap);  // value-initialized
    std::memcpy(block.get(), data_, size_ * sizeof(T));
    heap_ = std::move(block);
    data_ = heap_.get();
    cap_ = static_cast<std::uint32_t>(cap);
  }
  void resize(size_type n) { resize(n, T{}); }
  void resize(size_type n, const T& v) {
    if (n > size_) {
      const T copy = v;  // v may be an element of this vector
      reserve(n);
      std::fill(data_ + size_, data_ + n, copy);
    }
    size_ = static_cast<std::uint32_t>(n);
  }
  void clear() { size_ = 0; }
  void assign(size_type n, const T& v) {
    const T copy = v;
    reserve(n);
    std::fill(data_, data_ + n, copy);
    size_ = static_cast<std::uint32_t>(n);
  }
  // [first, last) must not lie inside this vector.
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  void assign(It first, It last) {
    const auto n = static_cast<size_type>(std::distance(first, last));
    reserve(n);
    std::copy(first, last, data_);
    size_ = static_cast<std::uint32_t>(n);
  }
  void push_back(const T& v) {
    const T copy = v;
    if (size_ == cap_) reserve(size_ + 1);
    data_[size_++] = copy;
  }
  void pop_back() { --size_; }
  T* erase(const T* first, const T* last) {
    T* f = data_ + (first - data_);
    const auto n = last - first;
    std::memmove(f, f + n, static_cast<std::size_t>(end() - (f + n)) * sizeof(T));
    size_ -= static_cast<std::uint32_t>(n);
    return f;
  }
  T* erase(const T* pos) { return erase(pos, pos + 1); }
  friend bool operator==(const InlineVec& a, const InlineVec& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  T* data_ = inline_;
  std::uint32_t size_ = 0;
  std::uint32_t cap_ = N;
  std::unique_ptr<T[]> heap_;
  T inline_[N]{};
};

}  // namespace syncbisim::semantics
