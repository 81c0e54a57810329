#include <cstddef>

#include "gpu/CudaCheck.h"
#include "gpu/HessianLogProductKernels.cuh"

namespace landscape {

namespace {

constexpr int kThreads = 256;
constexpr int kMaxGridY = 65535;

int blocks(int n) { return (n + kThreads - 1) / kThreads; }

__global__ void finiteDifferenceColumn(const double* plus, const double* minus,
                                       double inverseTwoStep, double* column, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) column[j] = (plus[j] - minus[j]) * inverseTwoStep;
}

// Thread (r, c) with r > c averages the pair m(r, c), m(c, r); columns c step by gridDim.y.
__global__ void symmetrise(double* m, int n) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  for (int c = blockIdx.y; c < r; c += gridDim.y) {
    const std::size_t lower = static_cast<std::size_t>(c) * n + r;
    const std::size_t upper = static_cast<std::size_t>(r) * n + c;
    const double mean = 0.5 * (m[lower] + m[upper]);
    m[lower] = mean;
    m[upper] = mean;
  }
}

__global__ void displacedStructures(const double* points, int n, long long first, int count,
                                    double step, double* x) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = blockIdx.y;
  if (j >= n || k >= count) return;
  const long long s = first + k, p = s / (2LL * n);
  const int i = static_cast<int>((s % (2LL * n)) / 2);
  const double v = points[p * n + j];
  x[static_cast<long long>(k) * n + j] = j != i ? v : s % 2 == 0 ? v + step : v - step;
}

__global__ void finiteDifferenceColumns(const double* g, int n, long long first, int count,
                                        double step, double* hessians) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = 2 * blockIdx.y;  // the +h structure of the pair
  if (j >= n || k >= count) return;
  const long long s = first + k, p = s / (2LL * n);
  const long long i = (s % (2LL * n)) / 2;
  const double plus = g[static_cast<long long>(k) * n + j];
  const double minus = g[static_cast<long long>(k + 1) * n + j];
  hessians[(p * n + i) * n + j] = (plus - minus) / (2.0 * step);
}

__global__ void logDiagonalSum(const double* m, int n, double* sum) {
  __shared__ double partial[kThreads];
  double s = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += log(m[static_cast<std::size_t>(i) * n + i]);
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *sum = partial[0];
}

}  // namespace

void launchFiniteDifferenceColumn(const double* plus, const double* minus, double inverseTwoStep,
                                  double* column, int n) {
  finiteDifferenceColumn<<<blocks(n), kThreads>>>(plus, minus, inverseTwoStep, column, n);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchSymmetrise(double* m, int n, cudaStream_t stream) {
  const dim3 grid(blocks(n), n < kMaxGridY ? n : kMaxGridY);
  symmetrise<<<grid, kThreads, 0, stream>>>(m, n);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchDisplacedStructures(const double* points, int n, long long first, int count, double step,
                               double* x, cudaStream_t stream) {
  if (count == 0) return;
  displacedStructures<<<dim3(blocks(n), count), kThreads, 0, stream>>>(points, n, first, count,
                                                                       step, x);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchFiniteDifferenceColumns(const double* g, int n, long long first, int count, double step,
                                   double* hessians, cudaStream_t stream) {
  if (count == 0) return;
  finiteDifferenceColumns<<<dim3(blocks(n), count / 2), kThreads, 0, stream>>>(g, n, first, count,
                                                                               step, hessians);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchLogDiagonalSum(const double* m, int n, double* sum, cudaStream_t stream) {
  logDiagonalSum<<<1, kThreads, 0, stream>>>(m, n, sum);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
