#pragma once
// A batched minimiser for the CPU that gives every structure a whole single-structure L-BFGS run
// (Lbfgs::minimize on an LbfgsWorkspace, GMIN's L-BFGS, Mantell, Pitt and Wales, J. Chem. Theory
// Comput. 2016, Algorithms 1-3): T threads, each with its own potential and workspace, take the
// structures of a batch one at a time until none is left. A structure's result is Lbfgs's bit for
// bit with that potential and workspace, whatever the batch, its order or the threads -- and,
// unlike the round-based BatchedLbfgs, there is one synchronisation per batch, not one per energy
// evaluation, so it pays off from two small structures up. Any Potential works (Lennard-Jones,
// AMBER-GB, SOP, rigid bodies), which is how walkers of every system quench together on the CPU
// (landscape/search/WalkerEnsemble.h).
#include <memory>
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/LbfgsWorkspace.h"
#include "potentials/Potential.h"
#include "landscape/core/ThreadPool.h"

namespace landscape {

class ParallelLbfgs : public BatchedMinimiser {
 public:
  /// One thread per potential (all of one system, each used by one thread only; not owned).
  /// workspaceFactory builds each thread's workspace (empty: LbfgsCpuWorkspace). Throws
  /// std::invalid_argument when potentials is empty, their dimensions differ or params.check()
  /// fails.
  ParallelLbfgs(std::vector<Potential*> potentials, const LbfgsParams& params,
                LbfgsWorkspaceFactory workspaceFactory = {});

  std::string name() const override;
  std::size_t dimension() const override { return m_dimension; }
  const LbfgsParams& params() const override { return m_params; }
  /// Host memory: the coordinates and result of each structure (workspaces are per thread);
  /// available is half the physical memory.
  BatchMemory memory() const override;
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override;
  int threads() const { return m_pool.threads(); }

 private:
  std::size_t m_dimension;
  LbfgsParams m_params;
  Lbfgs m_lbfgs;
  std::vector<std::unique_ptr<LbfgsWorkspace>> m_workspaces;  ///< one per thread
  ThreadPool m_pool;
};

}  // namespace landscape
