#pragma once
// CPU reference of the batched L-BFGS: every structure runs its own LbfgsStructureRun (GMIN's
// L-BFGS exactly as Lbfgs on the CPU runs it), and the runs advance in rounds that share one
// batched potential call: each round evaluates every structure that is still minimising at its
// next point (the active mask leaves the finished ones out), then advances every run, spread over
// a thread pool. Each structure's iterates, energies, counts and status are bit for bit those of
// Lbfgs::minimize with the single-structure potential whose batched twin `potential` is (e.g.
// LennardJones for BatchedLennardJones), independent of the batch, its order and the threads.
// A stop request (landscape/core/StopRequest.h) is polled before every round: the structures
// not yet finished end with LbfgsStatus::Stopped at their last accepted point. The potential's
// metric is Lbfgs's (docs/lbfgs.md): its diagonal metric when LbfgsParams::useDiagonalMetric is
// set, and under a gradient metric its RMS of every evaluated point (rmsGradients, one call per
// round), so that over BatchedRigidBodyPotential each structure is Lbfgs over
// RigidBodyPotential bit for bit.
#include <cstdint>
#include <memory>
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/LbfgsDiagonalMetric.h"
#include "landscape/minimisation/LbfgsStructureRun.h"
#include "potentials/BatchedPotential.h"
#include "landscape/core/ThreadPool.h"

namespace landscape {

class BatchedLbfgs : public BatchedMinimiser {
 public:
  /// Evaluates through potential's host entry point; `threads` (>= 1) advance the runs. Throws
  /// std::invalid_argument when params.check() fails.
  BatchedLbfgs(BatchedPotential& potential, const LbfgsParams& params, int threads);

  std::string name() const override;
  std::size_t dimension() const override { return m_potential.dimension(); }
  const LbfgsParams& params() const override { return m_params; }
  /// Host memory: the run's vectors and history, the round's point, gradient, energy and mask;
  /// available is half the physical memory.
  BatchMemory memory() const override;
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override;

 private:
  void prepare(std::size_t batch, const double* x);
  void stage(std::size_t b);

  BatchedPotential& m_potential;
  LbfgsParams m_params;
  ThreadPool m_pool;
  std::vector<std::unique_ptr<LbfgsStructureRun>> m_runs;
  LbfgsDiagonalMetric m_metric;  // the potential's diagonal metric (off: none or not used)
  bool m_gradientMetric;
  std::vector<double> m_points, m_gradients, m_energies;  // [batch x n], [batch x n], [batch]
  std::vector<double> m_rms;                              // [batch] under a gradient metric
  std::vector<std::uint8_t> m_active;
};

}  // namespace landscape
