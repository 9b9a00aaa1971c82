#include "distributed/communicator.h"

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace syncbisim::distributed {

namespace {

std::uint64_t reduce(std::uint64_t v, MPI_Op op) {
  std::uint64_t out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_UINT64_T, op, MPI_COMM_WORLD);
  return out;
}

int as_count(std::size_t n) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error("distributed: a message of more than 2^31 elements");
  return static_cast<int>(n);
}

// MPI_Alltoallv of vectors of T (sent as `type`): the counts first, then the data.
template <class T>
std::vector<std::vector<T>> all_to_all(const std::vector<std::vector<T>>& out, MPI_Datatype type, int size,
                                       std::uint64_t& sent_bytes, int rank) {
  std::vector<int> send_counts(size), recv_counts(size), send_displs(size), recv_displs(size);
  for (int r = 0; r < size; ++r) {
    send_counts[r] = as_count(out[r].size());
    if (r != rank) sent_bytes += out[r].size() * sizeof(T);
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t send_total = 0, recv_total = 0;
  for (int r = 0; r < size; ++r) {
    send_displs[r] = as_count(send_total);
    recv_displs[r] = as_count(recv_total);
    send_total += send_counts[r];
    recv_total += recv_counts[r];
  }
  std::vector<T> send(send_total), recv(recv_total);
  for (int r = 0; r < size; ++r) std::copy(out[r].begin(), out[r].end(), send.begin() + send_displs[r]);
  MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), type, recv.data(), recv_counts.data(),
                recv_displs.data(), type, MPI_COMM_WORLD);
  std::vector<std::vector<T>> in(size);
  for (int r = 0; r < size; ++r)
    in[r].assign(recv.begin() + recv_displs[r], recv.begin() + recv_displs[r] + recv_counts[r]);
  return in;
}

}  // namespace

Session::Session(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
Session::~Session() { MPI_Finalize(); }

Communicator::Communicator() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

std::uint64_t Communicator::sum(std::uint64_t v) const { return reduce(v, MPI_SUM); }
std::uint64_t Communicator::min(std::uint64_t v) const { return reduce(v, MPI_MIN); }
std::uint64_t Communicator::max(std::uint64_t v) const { return reduce(v, MPI_MAX); }

std::uint64_t Communicator::exclusive_sum(std::uint64_t v) const {
  std::uint64_t out = 0;
  MPI_Exscan(&v, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return rank_ == 0 ? 0 : out;  // MPI leaves rank 0's result undefined
}

std::vector<std::vector<std::uint8_t>> Communicator::exchange(const std::vector<std::vector<std::uint8_t>>& out) {
  return all_to_all(out, MPI_UINT8_T, size_, sent_bytes_, rank_);
}

std::vector<std::vector<std::uint64_t>> Communicator::exchange(const std::vector<std::vector<std::uint64_t>>& out) {
  return all_to_all(out, MPI_UINT64_T, size_, sent_bytes_, rank_);
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
