#include "distributed/communicator.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>
#include <numeric>
#include <stdexcept>

namespace syncbisim::distributed {

namespace {

std::uint64_t reduce(std::uint64_t v, MPI_Op op) {
  std::uint64_t out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_UINT64_T, op, MPI_COMM_WORLD);
  return out;
}

constexpr std::size_t kMaxCount = static_cast<std::size_t>(std::numeric_limits<int>::max());

[[noreturn]] void too_long() { throw std::length_error("distributed: a message of more than 2^31 elements"); }

int as_count(std::size_t n) {
  if (n > kMaxCount) too_long();
  return static_cast<int>(n);
}

// What a rank could not do before an exchange's data moves (bits, OR-ed over the ranks).
constexpr unsigned kNoMemory = 1, kTooLong = 2;

// MPI_Alltoallv of vectors of T (sent as `type`): the counts first, then the data. Before the data
// moves every rank learns whether each could size its counts and allocate its buffers (one
// MPI_Allreduce), so that a failure throws on every rank at once (std::bad_alloc, or
// std::length_error for a message past an int's count), never on one rank while the others wait
// in MPI_Alltoallv: the search then stops cleanly, inconclusive (docs/distributed.md "Limits").
// `failed`: this rank met an allocation failure before the exchange (`out` is not read then).
// Past the data's move a failure is this rank's alone; the caller's next agreement tells the others.
template <class T>
std::vector<std::vector<T>> all_to_all(const std::vector<std::vector<T>>& out, bool failed, MPI_Datatype type,
                                       Communicator::Counts& c, int size, std::uint64_t& sent_bytes, int rank) {
  unsigned trouble = failed ? kNoMemory : 0;
  for (int r = 0; r < size; ++r) {
    const std::size_t n = failed ? 0 : out[r].size();
    if (n > kMaxCount) trouble |= kTooLong;
    c.send[r] = trouble ? 0 : static_cast<int>(n);
  }
  MPI_Alltoall(c.send.data(), 1, MPI_INT, c.recv.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t send_total = 0, recv_total = 0;
  for (int r = 0; r < size; ++r) {
    if (send_total > kMaxCount || recv_total > kMaxCount) trouble |= kTooLong;
    c.send_displs[r] = static_cast<int>(std::min(send_total, kMaxCount));
    c.recv_displs[r] = static_cast<int>(std::min(recv_total, kMaxCount));
    send_total += c.send[r];
    recv_total += c.recv[r];
  }
  std::vector<T> send, recv;
  if (!trouble) try {
      send.resize(send_total);
      recv.resize(recv_total);
      for (int r = 0; r < size; ++r) std::copy(out[r].begin(), out[r].end(), send.begin() + c.send_displs[r]);
    } catch (const std::bad_alloc&) {
      trouble |= kNoMemory;
    }
  unsigned every = 0;
  MPI_Allreduce(&trouble, &every, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
  if (every & kNoMemory) throw std::bad_alloc();
  if (every & kTooLong) too_long();
  for (int r = 0; r < size; ++r)
    if (r != rank) sent_bytes += c.send[r] * sizeof(T);
  MPI_Alltoallv(send.data(), c.send.data(), c.send_displs.data(), type, recv.data(), c.recv.data(),
                c.recv_displs.data(), type, MPI_COMM_WORLD);
  std::vector<std::vector<T>> in(size);
  for (int r = 0; r < size; ++r)
    in[r].assign(recv.begin() + c.recv_displs[r], recv.begin() + c.recv_displs[r] + c.recv[r]);
  return in;
}

}  // namespace

Session::Session(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
Session::~Session() { MPI_Finalize(); }

Communicator::Counts::Counts(int size) : send(size), recv(size), send_displs(size), recv_displs(size) {}

Communicator::Communicator() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  counts_ = Counts(size_);
}

std::uint64_t Communicator::sum(std::uint64_t v) const { return reduce(v, MPI_SUM); }
std::uint64_t Communicator::min(std::uint64_t v) const { return reduce(v, MPI_MIN); }
std::uint64_t Communicator::max(std::uint64_t v) const { return reduce(v, MPI_MAX); }

std::uint64_t Communicator::exclusive_sum(std::uint64_t v) const {
  std::uint64_t out = 0;
  MPI_Exscan(&v, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return rank_ == 0 ? 0 : out;  // MPI leaves rank 0's result undefined
}

std::vector<std::vector<std::uint8_t>> Communicator::exchange(const std::vector<std::vector<std::uint8_t>>& out,
                                                               bool failed) {
  return all_to_all(out, failed, MPI_UINT8_T, counts_, size_, sent_bytes_, rank_);
}

std::vector<std::vector<std::uint64_t>> Communicator::exchange(const std::vector<std::vector<std::uint64_t>>& out,
                                                                bool failed) {
  return all_to_all(out, failed, MPI_UINT64_T, counts_, size_, sent_bytes_, rank_);
}

void Communicator::broadcast(std::vector<std::uint64_t>& v, int root) const {
  std::uint64_t n = v.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
  v.resize(n);
  MPI_Bcast(v.data(), as_count(n), MPI_UINT64_T, root, MPI_COMM_WORLD);
}

std::vector<std::uint64_t> Communicator::gather(const std::vector<std::uint64_t>& v) const {
  const int n = as_count(v.size());
  std::vector<int> counts(size_), displs(size_);
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<std::uint64_t> all;
  if (rank_ == 0) {
    std::size_t total = 0;
    for (int r = 0; r < size_; ++r) {
      displs[r] = as_count(total);
      total += counts[r];
    }
    all.resize(total);
  }
  MPI_Gatherv(v.data(), n, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return all;
}

std::string Communicator::gather(const std::string& s) const {
  std::vector<std::uint64_t> v(s.begin(), s.end());
  const auto all = gather(v);
  return std::string(all.begin(), all.end());
}

void Communicator::abort(int status) const {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // MPI_Abort does not return
}

}  // namespace syncbisim::distributed
