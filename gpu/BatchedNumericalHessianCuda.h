#pragma once
// batchedNumericalHessians (landscape/minimisation/BatchedNumericalHessian) on the device: the
// displaced structures are made there from the points, go through the batched potential's device
// entry point, and the finite differences are formed and symmetrised there, so that only the
// points (n doubles each) go over and the symmetric Hessians (n x n each) come back. The host
// path builds and copies 2n structures of n doubles each way per point and assembles the rows on
// one thread: for trp-cage (n = 912) about 23 ms per point against about 5 ms of potential.
//
// The operations are the host path's (x_i +/- h, (g+ - g-) / 2h, (H + H^T) / 2), on the same
// gradients (a batched potential's rows are the bits of their coordinates alone), so the
// Hessians are the host path's bits. Defined only in CUDA builds (LANDSCAPE_HAVE_CUDA); the CPU
// twin is batchedNumericalHessians (tests/BatchedNumericalHessianTest.cpp compares the two).
#include <Eigen/Core>
#include <memory>
#include <vector>

#include "landscape/minimisation/BatchedNumericalHessian.h"
#include "potentials/BatchedPotential.h"

namespace landscape {

/// As batchedNumericalHessians, on a device-resident batched potential (its device entry point,
/// calls of at most params.maxBatch structures on a non-blocking stream of its own). Throws
/// std::invalid_argument when the potential is not device-resident, for bad params or a point of
/// the wrong size.
std::vector<Eigen::MatrixXd> batchedNumericalHessiansCuda(
    BatchedPotential& potential, const std::vector<std::vector<double>>& points,
    const BatchedHessianParams& params = {});

/// batchedNumericalHessiansCuda for many calls: the stream and the device buffers are made when
/// first needed and kept (they only grow), so that no call allocates or frees device memory
/// (cudaFree waits for the whole device: a growth cycle's runs, whose points are characterised
/// beside them, would wait for it). The matrices of as many points at once as fit in
/// `matrixBytes` of device memory (0: half of what is free at each call); when not even one fits
/// (a large protein on a small device), the host path, which holds only its calls on the device
/// (the same bits). One call at a time.
class BatchedHessiansCuda {
 public:
  explicit BatchedHessiansCuda(double matrixBytes = 0.0);
  ~BatchedHessiansCuda();
  BatchedHessiansCuda(const BatchedHessiansCuda&) = delete;
  BatchedHessiansCuda& operator=(const BatchedHessiansCuda&) = delete;
  /// As batchedNumericalHessiansCuda, bit for bit.
  std::vector<Eigen::MatrixXd> hessians(BatchedPotential& potential,
                                        const std::vector<std::vector<double>>& points,
                                        const BatchedHessianParams& params = {});

 private:
  struct State;
  double m_matrixBytes;
  std::unique_ptr<State> m_state;
};

}  // namespace landscape
