#include <cub/block/block_reduce.cuh>

#include "gpu/CudaCheck.h"
#include "gpu/LbfgsKernels.cuh"
#include "landscape/minimisation/LbfgsHistory.h"

namespace landscape {

namespace {

constexpr int kThreads = 256;
constexpr int kDotBlocks = 264;  // 2 x 132 SMs on an H200; fixed so the sum order never changes

unsigned blocksFor(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 4096 ? (b > 0 ? b : 1) : 4096);
}

__global__ void axpyKernel(double* out, const double* x, const double* p, double c,
                           std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = x[i] + c * p[i];
}

__global__ void negScaleKernel(double* out, const double* in, const double* d_scale, double scale,
                               std::size_t n) {
  const double s = d_scale ? *d_scale : scale;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = -s * in[i];
}

__global__ void newPairKernel(double* s, double* y, double* W, const double* xt, const double* x,
                              const double* gt, const double* g, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    const double si = xt[i] - x[i], yi = gt[i] - g[i];
    s[i] = si;
    y[i] = yi;
    W[i] = gt[i];
    W[n + i] = yi;
    W[2 * n + i] = si;
  }
}

// The same pair in the scaled coordinates u = sqrt(w) x (LbfgsCpuWorkspace's twin).
__global__ void newScaledPairKernel(double* s, double* y, double* W, const double* xt,
                                    const double* x, const double* gt, const double* g,
                                    const double* sqrtW, const double* invSqrtW, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const double si = (xt[i] - x[i]) * sqrtW[i], yi = (gt[i] - g[i]) * invSqrtW[i];
    s[i] = si;
    y[i] = yi;
    W[i] = gt[i] * invSqrtW[i];
    W[n + i] = yi;
    W[2 * n + i] = si;
  }
}

__global__ void multiplyKernel(double* out, const double* a, const double* b, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = a[i] * b[i];
}

using BlockReduce = cub::BlockReduce<double, kThreads>;

__global__ void twoDotsPartialKernel(double* partial, const double* a, const double* b,
                                     const double* c, const double* d, std::size_t n) {
  __shared__ typename BlockReduce::TempStorage storage;
  double ab = 0.0, cd = 0.0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    ab += a[i] * b[i];
    cd += c[i] * d[i];
  }
  const double sumAb = BlockReduce(storage).Sum(ab);
  __syncthreads();
  const double sumCd = BlockReduce(storage).Sum(cd);
  if (threadIdx.x == 0) {
    partial[2 * blockIdx.x] = sumAb;
    partial[2 * blockIdx.x + 1] = sumCd;
  }
}

__global__ void twoDotsFinalKernel(double* result, const double* partial, int blocks) {
  __shared__ typename BlockReduce::TempStorage storage;
  double ab = 0.0, cd = 0.0;
  for (int i = threadIdx.x; i < blocks; i += blockDim.x) {
    ab += partial[2 * i];
    cd += partial[2 * i + 1];
  }
  const double sumAb = BlockReduce(storage).Sum(ab);
  __syncthreads();
  const double sumCd = BlockReduce(storage).Sum(cd);
  if (threadIdx.x == 0) {
    result[0] = sumAb;
    result[1] = sumCd;
  }
}

__device__ int slotOf(int k, int oldest, int m) {
  LbfgsHistory order;
  order.oldest = oldest;
  return order.slot(k, m);
}

// One block: the new pair's row and column of the slot matrices (s_i.y_new, s_new.y_j, y_i.y_new).
__global__ void updateSlotsKernel(CompactUpdateArgs a) {
  if (a.newSlot < 0) return;
  const int m = a.m, ns = a.newSlot;
  for (int k = threadIdx.x; k < a.length; k += blockDim.x) {
    const int i = slotOf(k, a.oldest, m);
    a.SYslot[i + ns * m] = a.A[i + 1 * m];   // s_i . y_new
    a.SYslot[ns + i * m] = a.B[i + 2 * m];   // s_new . y_i
    a.YYslot[i + ns * m] = a.B[i + 1 * m];   // y_i . y_new
    a.YYslot[ns + i * m] = a.B[i + 1 * m];
  }
}

// Grid over the L x L chronological matrices, plus the vectors and gamma.
__global__ void gatherKernel(CompactUpdateArgs a) {
  const int L = a.length, m = a.m;
  const std::size_t total = static_cast<std::size_t>(L) * L;
  for (std::size_t t = blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += gridDim.x * blockDim.x) {
    const int r = static_cast<int>(t % L), c = static_cast<int>(t / L);
    const int sr = slotOf(r, a.oldest, m), sc = slotOf(c, a.oldest, m);
    double sy = a.SYslot[sr + sc * m];
    if (r == c && sy == 0.0) sy = 1.0;  // GMIN's guard on zero curvature
    a.R[r + c * m] = r <= c ? sy : 0.0;
    a.YY[r + c * m] = a.YYslot[sr + sc * m];
    if (r == c) a.D[r] = sy;
    if (c == 0) {
      a.a[r] = a.A[sr];
      a.b[r] = a.B[sr];
    }
    if (t == 0) {
      const int newest = slotOf(L - 1, a.oldest, m);
      double ys = a.SYslot[newest + newest * m], yy = a.YYslot[newest + newest * m];
      if (ys == 0.0) ys = 1.0;
      if (yy == 0.0) yy = 1.0;
      *a.gamma = ys / yy;
    }
  }
}

__global__ void middleKernel(double* v, const double* D, const double* u, const double* t,
                             const double* b, const double* gamma, int L) {
  const double gm = *gamma;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < L; k += gridDim.x * blockDim.x)
    v[k] = D[k] * u[k] + gm * t[k] - gm * b[k];
}

__global__ void scatterKernel(double* p1s, double* us, const double* p1, const double* u,
                              const double* gamma, int m, int L, int oldest) {
  const double gm = *gamma;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < L; k += gridDim.x * blockDim.x) {
    const int s = slotOf(k, oldest, m);
    p1s[s] = -p1[k];
    us[s] = gm * u[k];
  }
}

__global__ void smallSolveKernel(double* p1s, double* us, const double* R, const double* YY,
                                 const double* D, const double* a, const double* b,
                                 const double* gamma, int m, int L, int oldest) {
  __shared__ double w[kSmallSolveMaxLength], u[kSmallSolveMaxLength], p1[kSmallSolveMaxLength];
  const int i = threadIdx.x;
  const double gm = *gamma;
  if (i < L) w[i] = a[i];
  __syncthreads();
  for (int j = L - 1; j >= 0; --j) {  // back substitution: R u = a
    if (i == j) u[j] = w[j] / R[j + j * m];
    __syncthreads();
    if (i < j) w[i] -= R[i + j * m] * u[j];
    __syncthreads();
  }
  if (i < L) {
    double t = 0.0;
    for (int k = 0; k < L; ++k) t += YY[i + k * m] * u[k];
    w[i] = D[i] * u[i] + gm * t - gm * b[i];
  }
  __syncthreads();
  for (int j = 0; j < L; ++j) {  // forward substitution: R^T p1 = v
    if (i == j) p1[j] = w[j] / R[j + j * m];
    __syncthreads();
    if (i > j && i < L) w[i] -= R[j + i * m] * p1[j];
    __syncthreads();
  }
  if (i < L) {
    const int s = slotOf(i, oldest, m);
    p1s[s] = -p1[i];
    us[s] = gm * u[i];
  }
}

__global__ void combineKernel(double* p, const double* g, const double* S, const double* Y,
                              const double* p1s, const double* us, const double* gamma,
                              std::size_t n, int used) {
  const double gm = *gamma;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    double acc = -gm * g[i];
    for (int k = 0; k < used; ++k) acc += S[i + k * n] * p1s[k] + Y[i + k * n] * us[k];
    p[i] = acc;
  }
}

}  // namespace

void launchCompactSmallSolve(double* p1s, double* us, const double* R, const double* YY,
                             const double* D, const double* a, const double* b,
                             const double* gamma, int m, int length, int oldest,
                             cudaStream_t stream) {
  smallSolveKernel<<<1, kSmallSolveMaxLength, 0, stream>>>(p1s, us, R, YY, D, a, b, gamma, m,
                                                           length, oldest);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchCompactCombine(double* p, const double* g, const double* S, const double* Y,
                          const double* p1s, const double* us, const double* gamma, std::size_t n,
                          int used, cudaStream_t stream) {
  combineKernel<<<blocksFor(n), kThreads, 0, stream>>>(p, g, S, Y, p1s, us, gamma, n, used);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchAxpy(double* out, const double* x, const double* p, double c, std::size_t n,
                cudaStream_t stream) {
  axpyKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, x, p, c, n);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchNegScale(double* out, const double* in, const double* d_scale, double scale,
                    std::size_t n, cudaStream_t stream) {
  negScaleKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, in, d_scale, scale, n);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchNewPair(double* s, double* y, double* W, const double* xt, const double* x,
                   const double* gt, const double* g, const double* sqrtW, const double* invSqrtW,
                   std::size_t n, cudaStream_t stream) {
  if (sqrtW && invSqrtW)
    newScaledPairKernel<<<blocksFor(n), kThreads, 0, stream>>>(s, y, W, xt, x, gt, g, sqrtW,
                                                               invSqrtW, n);
  else
    newPairKernel<<<blocksFor(n), kThreads, 0, stream>>>(s, y, W, xt, x, gt, g, n);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchMultiply(double* out, const double* a, const double* b, std::size_t n,
                    cudaStream_t stream) {
  multiplyKernel<<<blocksFor(n), kThreads, 0, stream>>>(out, a, b, n);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

std::size_t dotScratchSize() { return 2 * kDotBlocks; }

void launchTwoDots(double* result, const double* a, const double* b, const double* c,
                   const double* d, double* scratch, std::size_t n, cudaStream_t stream) {
  twoDotsPartialKernel<<<kDotBlocks, kThreads, 0, stream>>>(scratch, a, b, c, d, n);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  twoDotsFinalKernel<<<1, kThreads, 0, stream>>>(result, scratch, kDotBlocks);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchCompactUpdate(const CompactUpdateArgs& args, cudaStream_t stream) {
  updateSlotsKernel<<<1, kThreads, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  const std::size_t total = static_cast<std::size_t>(args.length) * args.length;
  gatherKernel<<<blocksFor(total), kThreads, 0, stream>>>(args);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchCompactMiddle(double* v, const double* D, const double* u, const double* t,
                         const double* b, const double* gamma, int length, cudaStream_t stream) {
  middleKernel<<<blocksFor(length), kThreads, 0, stream>>>(v, D, u, t, b, gamma, length);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchCompactScatter(double* p1s, double* us, const double* p1, const double* u,
                          const double* gamma, int m, int length, int oldest,
                          cudaStream_t stream) {
  scatterKernel<<<blocksFor(length), kThreads, 0, stream>>>(p1s, us, p1, u, gamma, m, length,
                                                            oldest);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

}  // namespace landscape
