#pragma once
// SOP Langevin dynamics on a CUDA device, all replicas at once: the twin of SopDynamicsCpu
// (landscape/dynamics/SopDynamics.h documents equations, units, protocols and random streams). A step is one
// fused kernel (list refresh when due + forces + protocol terms + Langevin update + displacement
// test), plus, in displacement mode, one cell-list kernel that returns at once unless a rebuild
// is due; with a fixed rebuildInterval only the fused kernel runs between rebuilds. Precision:
// Precision::Double agrees with the CPU twin to rounding, Single is SOP-GPU's FP32 arithmetic
// (random numbers and the tip state stay double). Header free of CUDA types; exists only in CUDA
// builds (use backends/SopDynamicsFactory).
#include <memory>
#include <vector>

#include "landscape/dynamics/SopDynamics.h"

namespace landscape {

class SopDynamicsCuda : public SopDynamics {
 public:
  SopDynamicsCuda(const SopTopology& topology, const std::vector<double>& start,
                  const SopDynamicsParams& params);
  ~SopDynamicsCuda() override;

  const SopDynamicsParams& params() const override;
  const SopProtocol& protocol() const override;
  std::size_t beads() const override;
  /// Enqueues the steps, then waits and checks the neighbour-list status (throws
  /// std::runtime_error on overflow or blown-up coordinates).
  void run(long steps) override;
  long stepsDone() const override;
  std::vector<double> positions(int replica) override;
  double tipPosition(int replica) override;
  long rebuilds() const override;
  /// Adds the Verlet list's reference (SopDynamicsState); restoreState rebuilds the same list
  /// from it, so a resumed run repeats the uninterrupted one bit for bit (the kernels sum in a
  /// fixed order: gpu/SopKernels.cuh).
  SopDynamicsState saveState() override;
  void restoreState(const SopDynamicsState& state) override;
  /// Neighbour-list capacity per bead in use.
  int maxNeighbours() const;

  struct Impl;  ///< one per precision (SopCuda.cu); public only so the .cu can derive from it

 private:
  std::unique_ptr<Impl> m_impl;
};

}  // namespace landscape
