#pragma once
// Finite-difference Hessians of several stationary points at once, through a batched potential
// (potentials/BatchedPotential.h): the 2n displaced structures of every point are evaluated
// together, in as few calls as `maxBatch` allows, instead of 2n single-structure calls per point.
// On a GPU potential one call runs thousands of structures for the cost of a few (docs/batched.md).
//
// The formula is numericalHessian's (NumericalHessian.h), H_ij = (g_j(x + h e_i) - g_j(x - h e_i))
// / 2h symmetrised as (H + H^T) / 2, with the same operations in the same order: over a batched
// potential whose gradients are the single-structure potential's bits (the CPU batched
// potentials), the Hessians equal numericalHessian's bit for bit, whatever maxBatch.
#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "potentials/BatchedPotential.h"

namespace landscape {

struct BatchedHessianParams {
  double step = 1e-5;  ///< finite-difference step h (length), > 0, as numericalHessian
  /// Structures per potential call (rounded down to an even number, at least 2, so that a
  /// coordinate's +h and -h structures share a call); 0 = all 2 n x points in one call.
  std::size_t maxBatch = 0;
  /// Throws std::invalid_argument naming the bad field.
  void check() const;
};

/// What batchedNumericalHessians and its device twin check and share: params valid and every
/// point of potential.dimension() coordinates (std::invalid_argument naming `caller` otherwise).
/// Returns the structures per call: params.maxBatch (0: all) made even, at least 2, at most all.
std::size_t batchedHessianCallSize(const BatchedPotential& potential,
                                   const std::vector<std::vector<double>>& points,
                                   const BatchedHessianParams& params, const char* caller);

/// The Hessian (n x n, energy/length^2) of each point (n = potential.dimension() coordinates
/// each). Throws std::invalid_argument for bad params or a point of the wrong size; a non-finite
/// gradient leaves non-finite entries, as numericalHessian does.
std::vector<Eigen::MatrixXd> batchedNumericalHessians(
    BatchedPotential& potential, const std::vector<std::vector<double>>& points,
    const BatchedHessianParams& params = {});

}  // namespace landscape
