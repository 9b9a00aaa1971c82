#pragma once
// States are copied for every successor an explorer generates; their parts are short (a few
// loops, a few instructions in flight, a handful of registers). Small vectors keep that many
// elements inline, so copying a state does not allocate (measured: malloc and free were half of
// the checker's instructions with std::vector; docs/checker.md "Performance"). Vectors of plain
// values are our InlineVec, whose copy is one fixed-size block copy; vectors of vectors are
// Boost.Container's small_vector.
#include <boost/container/small_vector.hpp>

#include <cstddef>
#include <type_traits>

#include "semantics/inline_vec.h"

namespace syncbisim::semantics {

template <class T, std::size_t N>
using SmallVec =
    std::conditional_t<std::is_trivially_copyable_v<T>, InlineVec<T, N>, boost::container::small_vector<T, N>>;

}  // namespace syncbisim::semantics
