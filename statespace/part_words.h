#pragma once
// The words of one part (statespace/state_codec.h) in a buffer that is reused from state to state:
// it grows to the largest part seen and never shrinks, so encoding writes through a pointer
// instead of growing a vector word by word (that growth was a tenth of the checker's time).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace syncbisim::statespace {

class PartWords {
 public:
  // Room for n words; the part now has n words (their values are the caller's to write).
  std::uint32_t* resize(std::size_t n) {
    if (buf_.size() < n) buf_.resize(n * 2);
    size_ = n;
    return buf_.data();
  }
  const std::uint32_t* data() const { return buf_.data(); }
  std::size_t size() const { return size_; }
  bool operator==(const PartWords& o) const {
    return size_ == o.size_ && std::memcmp(buf_.data(), o.buf_.data(), size_ * sizeof(std::uint32_t)) == 0;
  }

 private:
  std::vector<std::uint32_t> buf_;
  std::size_t size_ = 0;
};

}  // namespace syncbisim::statespace
