#pragma once
// The CPU twin of the round-based batched L-BFGS (gpu/BatchedLbfgsRoundsCuda) over any batched
// potential: the same per-structure state machine (landscape/minimisation/LbfgsRoundsTerms.h) on a host team
// that adds every sum in the GPU block's order (each of the T threads over its components
// c = t, t + T, ..., then landscape/core/TeamTerms.h's butterfly and warp order), with the potential's
// host entry point once per round. When the potential's host entry point gives the bits of its
// device entry point (gpu/BatchedLennardJonesCuda does: it runs the same kernel), a structure's
// iterates, energies, counts, status and coordinates are the GPU's bit for bit for the same
// threadsPerStructure; against the CPU reference (BatchedLbfgs, = Lbfgs) they differ by round-off.
// Slots, the queue that refills them and the thread pool over slots change the time only.
// A stop request (landscape/core/StopRequest.h), polled before every round, ends the unfinished
// structures with status Stopped at their last accepted point (never started: energy NaN).
// Long histories (roundsCompactDirections) take the compact direction of
// landscape/minimisation/LbfgsRoundsCompactTerms.h, pass by pass in the GPU kernels' order.
// The potential's metric as the GPU engine takes it (LbfgsRoundsMetric): its diagonal metric when
// LbfgsParams::useDiagonalMetric is set (two-loop directions only), and under a gradient metric
// its rmsGradients of every evaluated slot, one call per round after the energies.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/BatchedRoundsPlan.h"
#include "landscape/minimisation/LbfgsDiagonalMetric.h"
#include "potentials/BatchedPotential.h"
#include "landscape/minimisation/LbfgsRoundsCompactTerms.h"
#include "landscape/core/ThreadPool.h"

namespace landscape {

/// The compact direction of one structure in phase kRoundsDirection (right after an accept, the
/// history non-empty) as the kernels of gpu/BatchedLbfgsRoundsCompactKernels.cu compute it, pass
/// by pass, every sum in their order: updates the compact storage `cs` (lbfgsCompactLayout), writes
/// p (n doubles; reversed when uphill) and the first trial point st.xt, and moves s to phase
/// Trial. Compiled with -ffp-contract=off.
void batchedRoundsCompactDirection(const LbfgsTeamStorage& st, const LbfgsCompactStorage& cs,
                                   double* p, LbfgsRoundsState& s, const LbfgsTeamSettings& set);

class BatchedLbfgsRoundsTwin : public BatchedMinimiser {
 public:
  /// Evaluates through potential's host entry point; `threads` (>= 1) advance the slots. Throws
  /// std::invalid_argument when params.check() or options.check() fails.
  BatchedLbfgsRoundsTwin(BatchedPotential& potential, const LbfgsParams& params,
                         const BatchedRoundsOptions& options, int threads);

  std::string name() const override;
  std::size_t dimension() const override { return m_potential.dimension(); }
  const LbfgsParams& params() const override { return m_params; }
  /// Host memory: roundsSlotBytes per resident structure plus roundsStructureBytes per structure;
  /// available is half the physical memory.
  BatchMemory memory() const override;
  void minimise(std::size_t batch, double* x, LbfgsResult* results) override;

  /// Threads per structure whose reduction order the twin reproduces.
  int teamThreads() const { return m_teamThreads; }

 private:
  LbfgsTeamStorage slotStorage(std::size_t r);

  BatchedPotential& m_potential;
  LbfgsParams m_params;
  BatchedRoundsOptions m_options;
  int m_teamThreads;
  LbfgsDiagonalMetric m_metric;  // the potential's diagonal metric (off: none or not used)
  bool m_gradientMetric;
  bool m_compact;  // directions in the compact form (roundsCompactDirections)
  ThreadPool m_pool;
  // Slots: [R x n] x, g, trial x and g, p; [R x m x n] s and y; [R x m] rho and alpha; [R].
  std::vector<double> m_x, m_g, m_xt, m_gt, m_p, m_s, m_y, m_rho, m_alpha, m_energy;
  std::vector<double> m_rms;  // [R] the potential's RMS gradients (gradient metric)
  std::vector<std::uint8_t> m_active;
  std::vector<LbfgsRoundsState> m_state;
  std::vector<double> m_compactStore;  // [R x lbfgsCompactSlotDoubles] when m_compact
};

}  // namespace landscape
