#pragma once
// States are copied for every successor an explorer generates; their parts are short (a few
// loops, a few instructions in flight, a handful of registers). Boost's small_vector keeps that
// many elements inline, so copying a state does not allocate (measured: malloc and free were half
// of the checker's instructions with std::vector; docs/checker.md "Performance").
#include <boost/container/small_vector.hpp>

#include <cstddef>

namespace syncbisim::semantics {

template <class T, std::size_t N>
using SmallVec = boost::container::small_vector<T, N>;

}  // namespace syncbisim::semantics
