#include "src/common/MpiCommunicator.h"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace landscape {

namespace {

class MpiCommunicator : public Communicator {
 public:
  MpiCommunicator(int& argc, char**& argv);
  ~MpiCommunicator() override { MPI_Finalize(); }
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return m_rank; }
  int size() const override { return m_size; }
  int localRank() const override { return m_localRank; }
  int localSize() const override { return m_localSize; }
  std::string description() const override;

  std::vector<std::vector<char>> allGather(const std::vector<char>& mine) override;
  std::vector<std::vector<char>> allGather(const std::vector<char>& mine,
                                           const std::vector<std::size_t>& sizes) override;
  std::vector<std::vector<char>> gather(const std::vector<char>& mine) override;
  unsigned anyBits(unsigned mine) override;
  long broadcast(long value) override;
  [[noreturn]] void abort(int code) override;
  void setTimeout(double seconds) override { m_timeout = seconds; }

 private:
  /// Completes a non-blocking collective; past the timeout (when set) ends the job.
  void wait(MPI_Request& request);

  int m_rank = 0, m_size = 1, m_localRank = 0, m_localSize = 1;
  double m_timeout = 0.0;
};

MpiCommunicator::MpiCommunicator(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m_size);
  // The ranks that share this node's memory are the ranks of this node (MPI-3).
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &m_localRank);
  MPI_Comm_size(node, &m_localSize);
  MPI_Comm_free(&node);
}

std::string MpiCommunicator::description() const {
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string name(library, static_cast<std::size_t>(length));
  name = name.substr(0, name.find_first_of(",\n"));  // "Open MPI v4.1.4, package: ..." -> first part
  return "MPI, " + std::to_string(m_size) + (m_size == 1 ? " rank (" : " ranks (") + name + ")";
}

// Polls rather than MPI_Wait: a rank that waits for a slower one (its quenches took longer) spins
// for the first 2 ms, the time a round's exchange takes, then sleeps 50 us between polls, leaving
// the core to the ranks still working (Open MPI's MPI_Wait spins, which on a shared or
// oversubscribed node takes the core from them); and gives up after the timeout when one is set.
// The sleep is short because a non-blocking collective advances only in MPI_Test: the late rank's
// part waits for the sleeper's next poll, once per collective of a round.
void MpiCommunicator::wait(MPI_Request& request) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (m_timeout > 0.0 && waited > m_timeout) {
      std::fprintf(stderr,
                   "MPI rank %d of %d: no answer from the other ranks for %.3g s (--rank-timeout): "
                   "a rank has hung or died unnoticed; ending the job (resume from the last "
                   "checkpoint)\n",
                   m_rank, m_size, m_timeout);
      std::fflush(stderr);
      abort(1);
    }
    if (waited > 2e-3) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

std::vector<std::vector<char>> MpiCommunicator::allGather(const std::vector<char>& mine) {
  if (mine.size() > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("MPI all-gather: more than 2^31 bytes from one rank");
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(m_size));
  MPI_Request request;
  MPI_Iallgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
  wait(request);
  return allGather(mine, std::vector<std::size_t>(counts.begin(), counts.end()));
}

std::vector<std::vector<char>> MpiCommunicator::allGather(const std::vector<char>& mine,
                                                          const std::vector<std::size_t>& sizes) {
  checkOwnSize(mine, sizes);
  std::vector<int> counts(sizes.size()), offsets(sizes.size(), 0);
  std::size_t total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    if (total + sizes[r] > static_cast<std::size_t>(INT_MAX))
      throw std::invalid_argument("MPI all-gather: more than 2^31 bytes");
    offsets[r] = static_cast<int>(total);
    counts[r] = static_cast<int>(sizes[r]);
    total += sizes[r];
  }
  std::vector<char> all(total);
  MPI_Request request;
  MPI_Iallgatherv(mine.data(), counts[static_cast<std::size_t>(m_rank)], MPI_BYTE, all.data(),
                  counts.data(), offsets.data(), MPI_BYTE, MPI_COMM_WORLD, &request);
  wait(request);
  std::vector<std::vector<char>> parts;
  for (std::size_t r = 0; r < counts.size(); ++r)
    parts.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  return parts;
}

std::vector<std::vector<char>> MpiCommunicator::gather(const std::vector<char>& mine) {
  if (mine.size() > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("MPI gather: more than 2^31 bytes from one rank");
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(m_size)), offsets(counts.size(), 0);
  MPI_Request request;
  MPI_Igather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  wait(request);
  std::size_t total = 0;
  if (m_rank == 0)
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (total + static_cast<std::size_t>(counts[r]) > static_cast<std::size_t>(INT_MAX))
        throw std::invalid_argument("MPI gather: more than 2^31 bytes");
      offsets[r] = static_cast<int>(total);
      total += static_cast<std::size_t>(counts[r]);
    }
  std::vector<char> all(total);
  MPI_Igatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
               MPI_COMM_WORLD, &request);
  wait(request);
  std::vector<std::vector<char>> parts;
  if (m_rank == 0)
    for (std::size_t r = 0; r < counts.size(); ++r)
      parts.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  return parts;
}

unsigned MpiCommunicator::anyBits(unsigned mine) {
  unsigned any = 0;
  MPI_Request request;
  MPI_Iallreduce(&mine, &any, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD, &request);
  wait(request);
  return any;
}

long MpiCommunicator::broadcast(long value) {
  MPI_Request request;
  MPI_Ibcast(&value, 1, MPI_LONG, 0, MPI_COMM_WORLD, &request);
  wait(request);
  return value;
}

void MpiCommunicator::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest if it did
}

}  // namespace

std::unique_ptr<Communicator> startMpiCommunicator(int& argc, char**& argv) {
  return std::make_unique<MpiCommunicator>(argc, argv);
}

}  // namespace landscape
