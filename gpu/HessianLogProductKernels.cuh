#pragma once
// Kernel drivers of gpu/HessianLogProductCuda (device pointers, column-major n x n matrices, the
// default stream unless one is given). Each launch is checked (LANDSCAPE_CUDA_CHECK_LAUNCH).
#include <cuda_runtime.h>

namespace landscape {

/// column[j] = (plus[j] - minus[j]) * inverseTwoStep for j < n: one finite-difference row.
void launchFiniteDifferenceColumn(const double* plus, const double* minus, double inverseTwoStep,
                                  double* column, int n);
/// m := (m + m^T) / 2.
void launchSymmetrise(double* m, int n);
/// *sum = sum_i ln m_ii (one block; the result stays on the device).
void launchLogDiagonalSum(const double* m, int n, double* sum, cudaStream_t stream = nullptr);

}  // namespace landscape
