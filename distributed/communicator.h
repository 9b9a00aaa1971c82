#pragma once
// The one place that speaks MPI (docs/distributed.md): the few collective operations the
// distributed search needs, on plain vectors. Every call is collective: all ranks make it, in
// the same order. Errors abort the job (MPI's default handler), as a lost rank cannot be
// recovered from.
#include <cstdint>
#include <string>
#include <vector>

namespace syncbisim::distributed {

// MPI_Init on construction, MPI_Finalize on destruction: one per process, in main().
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

class Communicator {
 public:
  Communicator();  // MPI_COMM_WORLD
  int rank() const { return rank_; }
  int size() const { return size_; }

  std::uint64_t sum(std::uint64_t v) const;
  std::uint64_t min(std::uint64_t v) const;
  std::uint64_t max(std::uint64_t v) const;
  // The sum of `v` over the ranks before this one (0 on rank 0).
  std::uint64_t exclusive_sum(std::uint64_t v) const;
  // out[r] is sent to rank r; returns what each rank sent here, by sender. Counts bytes sent to
  // other ranks in sent_bytes(). An allocation failure before the data moves (here, or on this
  // rank before the call: `failed`, and `out` is not read) throws std::bad_alloc on every rank
  // at once, a message past 2^31 elements std::length_error; one after it, on this rank alone.
  std::vector<std::vector<std::uint8_t>> exchange(const std::vector<std::vector<std::uint8_t>>& out,
                                                  bool failed = false);
  std::vector<std::vector<std::uint64_t>> exchange(const std::vector<std::vector<std::uint64_t>>& out,
                                                   bool failed = false);
  // `v` from rank `root` to all (resized on the others).
  void broadcast(std::vector<std::uint64_t>& v, int root) const;
  // Every rank's `v`, concatenated in rank order, on rank 0 (empty elsewhere).
  std::vector<std::uint64_t> gather(const std::vector<std::uint64_t>& v) const;
  std::string gather(const std::string& s) const;

  std::uint64_t sent_bytes() const { return sent_bytes_; }

  // Ends every rank of the job with `status` (MPI_Abort): for a failure on one rank that the
  // others, waiting in a collective, cannot learn of.
  [[noreturn]] void abort(int status) const;

  // An exchange's counts and displacements, one per rank: allocated once, so that sizing them
  // never fails between two collectives.
  struct Counts {
    explicit Counts(int size = 0);
    std::vector<int> send, recv, send_displs, recv_displs;
  };

 private:
  Counts counts_;
  int rank_ = 0;
  int size_ = 1;
  std::uint64_t sent_bytes_ = 0;
};

}  // namespace syncbisim::distributed
