#pragma once
// The processes of one walker run spread over several (gmin under mpirun, docs/cluster.md). Each
// process owns a contiguous block of the walkers (landscape/core/IndexBlock.h) and runs their
// Markov chains and quenches itself; what couples walkers travels between the processes as a few
// small messages per round (WalkerEnsemble.h says which). The library knows no MPI: gmin adapts its Communicator to
// this interface (src/gmin/GminRanks.h), tests play the processes with threads.
#include <cstddef>
#include <vector>

namespace landscape {

class WalkerPeers {
 public:
  virtual ~WalkerPeers() = default;
  virtual int index() const = 0;  ///< this process, 0 .. count() - 1; 0 owns the run's output
  virtual int count() const = 0;
  /// Collective (every process calls it, in the same order): every process's `mine`, in process
  /// order, on every process.
  virtual std::vector<std::vector<char>> allGather(const std::vector<char>& mine) = 0;
  /// The same when every process knows every contribution's size (`sizes`, in process order),
  /// which saves a collective exchange of the sizes (a round makes several). Throws
  /// std::invalid_argument when `mine` is not sizes[index()] bytes.
  virtual std::vector<std::vector<char>> allGather(const std::vector<char>& mine,
                                                   const std::vector<std::size_t>& sizes) = 0;
  /// Collective: every process's `mine`, in process order, on process 0; empty elsewhere.
  virtual std::vector<std::vector<char>> gather(const std::vector<char>& mine) = 0;
};

}  // namespace landscape
