#pragma once
// The processes of one run and the few collective operations gmin needs from them
// (docs/cluster.md). A landscape-independent interface so that nothing but src/Mpi*.cpp includes
// mpi.h: SoloCommunicator is the one process of a run started without a launcher,
// MpiCommunicator (src/common/MpiCommunicator.h, built when CMake finds MPI) the ranks of `mpirun -n K`
// or `srun`. Every operation except rank() ... localSize() is collective: all ranks call it, in
// the same order.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace landscape {

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int rank() const = 0;       ///< 0 .. size() - 1; rank 0 owns the output files
  virtual int size() const = 0;
  virtual int localRank() const = 0;  ///< among the ranks on this node (picks the node's GPU)
  virtual int localSize() const = 0;  ///< ranks on this node
  /// One line for headers: "1 process" or "MPI, 3 ranks (Open MPI v4.1.4)".
  virtual std::string description() const = 0;

  /// Every rank contributes `mine`; returns every rank's contribution, in rank order.
  virtual std::vector<std::vector<char>> allGather(const std::vector<char>& mine) = 0;
  /// The same when every rank knows every contribution's size (`sizes`, in rank order): one
  /// exchange fewer. Throws std::invalid_argument when `mine` is not sizes[rank()] bytes.
  virtual std::vector<std::vector<char>> allGather(const std::vector<char>& mine,
                                                   const std::vector<std::size_t>& sizes) {
    checkOwnSize(mine, sizes);
    return allGather(mine);
  }
  /// Every rank's `mine`, in rank order, on rank 0; empty on the others. This default goes
  /// through allGather (every rank receives everything); MpiCommunicator sends to rank 0 alone.
  virtual std::vector<std::vector<char>> gather(const std::vector<char>& mine) {
    std::vector<std::vector<char>> all = allGather(mine);
    if (rank() != 0) all.clear();
    return all;
  }
  /// The bitwise OR of every rank's `mine` (flags several ranks raise), on every rank.
  virtual unsigned anyBits(unsigned mine) = 0;
  /// True on every rank when `mine` is true on at least one.
  bool anyTrue(bool mine) { return anyBits(mine ? 1u : 0u) != 0; }
  /// Rank 0's `value`, on every rank.
  virtual long broadcast(long value) = 0;
  /// Ends every rank of the run with exit status `code` (after an error on this rank alone).
  [[noreturn]] virtual void abort(int code) = 0;
  /// From now on a collective operation that waits more than `seconds` for the other ranks (one
  /// hung, or died unnoticed by the launcher) prints why and ends the job; 0: wait indefinitely.
  virtual void setTimeout(double seconds) { (void)seconds; }

 protected:
  void checkOwnSize(const std::vector<char>& mine, const std::vector<std::size_t>& sizes) const {
    if (sizes.size() != static_cast<std::size_t>(size()) ||
        sizes[static_cast<std::size_t>(rank())] != mine.size())
      throw std::invalid_argument("all-gather: rank " + std::to_string(rank()) + " has " +
                                  std::to_string(mine.size()) + " bytes, not the size announced");
  }
};

/// The single process of a run started without an MPI launcher.
class SoloCommunicator : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int localRank() const override { return 0; }
  int localSize() const override { return 1; }
  std::string description() const override { return "1 process"; }
  std::vector<std::vector<char>> allGather(const std::vector<char>& mine) override {
    return {mine};
  }
  unsigned anyBits(unsigned mine) override { return mine; }
  long broadcast(long value) override { return value; }
  [[noreturn]] void abort(int code) override;
};

/// True when this build has MPI support (CMake found MPI; LANDSCAPE_MPI).
bool mpiBuilt();

/// True when an MPI launcher (mpirun/mpiexec of Open MPI or MPICH, Slurm's srun with PMI or
/// PMIx) started this process: its environment names a rank.
bool launchedByMpi();

/// MPI when this build has it and a launcher started the process (MPI_Init is called here);
/// otherwise the solo process, with no MPI call at all, so that a plain `gmin` runs as it always
/// has. Throws std::runtime_error when a launcher started a build without MPI support with more
/// than one process (each would run the whole job and write the same files).
std::unique_ptr<Communicator> startCommunicator(int& argc, char**& argv);

}  // namespace landscape
