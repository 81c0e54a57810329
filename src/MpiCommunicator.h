#pragma once
// The ranks of an MPI job as a Communicator (src/Communicator.h); with src/MpiCommunicator.cpp the
// only code that includes mpi.h, built when CMake finds MPI (LANDSCAPE_MPI). MPI errors keep
// MPI's default handler (MPI_ERRORS_ARE_FATAL): a failed call ends the whole job rather than
// leaving ranks waiting, and the launcher ends the job when a rank dies (docs/cluster.md, Faults).
#include "src/Communicator.h"

namespace landscape {

class MpiCommunicator : public Communicator {
 public:
  /// MPI_Init_thread (funneled: only the main thread calls MPI; minimiser threads do not).
  MpiCommunicator(int& argc, char**& argv);
  /// MPI_Finalize.
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return m_rank; }
  int size() const override { return m_size; }
  int localRank() const override { return m_localRank; }
  int localSize() const override { return m_localSize; }
  std::string description() const override;

  std::vector<std::vector<char>> allGather(const std::vector<char>& mine) override;
  bool anyTrue(bool mine) override;
  long broadcast(long value) override;
  [[noreturn]] void abort(int code) override;

 private:
  int m_rank = 0, m_size = 1, m_localRank = 0, m_localSize = 1;
};

}  // namespace landscape
