#pragma once
// Kernel drivers of gpu/HessianLogProductCuda (device pointers, column-major n x n matrices, the
// default stream unless one is given). Each launch is checked (LANDSCAPE_CUDA_CHECK_LAUNCH).
#include <cuda_runtime.h>

namespace landscape {

/// column[j] = (plus[j] - minus[j]) * inverseTwoStep for j < n: one finite-difference row.
void launchFiniteDifferenceColumn(const double* plus, const double* minus, double inverseTwoStep,
                                  double* column, int n);
/// m := (m + m^T) / 2.
void launchSymmetrise(double* m, int n, cudaStream_t stream = nullptr);
/// The displaced structures first .. first + count - 1 of a batched finite-difference Hessian
/// (gpu/BatchedNumericalHessianCuda): structure s is point s / 2n (of `points`, n coordinates
/// each) with coordinate (s % 2n) / 2 moved by +step (s even) or -step (s odd); x holds count
/// structures. `first` is even.
void launchDisplacedStructures(const double* points, int n, long long first, int count, double step,
                               double* x, cudaStream_t stream);
/// From the gradients g of those structures (count even): column i of point p's matrix (in
/// `hessians`, n x n each) = (g(x + h e_i) - g(x - h e_i)) / 2h, numericalHessian's row i
/// (the matrix is symmetrised afterwards, so row or column gives the same bits).
void launchFiniteDifferenceColumns(const double* g, int n, long long first, int count, double step,
                                   double* hessians, cudaStream_t stream);
/// *sum = sum_i ln m_ii (one block; the result stays on the device).
void launchLogDiagonalSum(const double* m, int n, double* sum, cudaStream_t stream = nullptr);

}  // namespace landscape
