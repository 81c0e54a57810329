#pragma once
// Small kernels of the device L-BFGS (gpu/LbfgsCudaWorkspace). Each launchXxx enqueues on `stream`
// and checks the launch. Reductions are two-stage with a fixed grid, so results are bit-identical
// from run to run.
#include <cuda_runtime.h>

#include <cstddef>

namespace landscape {

/// out = x + c p
void launchAxpy(double* out, const double* x, const double* p, double c, std::size_t n,
                cudaStream_t stream);
/// out = -scale * in, with scale read from device memory when d_scale != nullptr, else `scale`.
void launchNegScale(double* out, const double* in, const double* d_scale, double scale,
                    std::size_t n, cudaStream_t stream);
/// s = xt - x, y = gt - g, and W = [gt | y | s] (n x 3, column-major). With a diagonal metric
/// (sqrtW, invSqrtW non-null, n each) the pair of the scaled coordinates: s = (xt - x) sqrtW,
/// y = (gt - g) invSqrtW, W = [gt invSqrtW | y | s].
void launchNewPair(double* s, double* y, double* W, const double* xt, const double* x,
                   const double* gt, const double* g, const double* sqrtW, const double* invSqrtW,
                   std::size_t n, cudaStream_t stream);
/// out = a * b elementwise (out may alias a).
void launchMultiply(double* out, const double* a, const double* b, std::size_t n,
                    cudaStream_t stream);

/// Number of doubles of scratch the dot-product reduction needs.
std::size_t dotScratchSize();
/// result[0] = a.b, result[1] = c.d (result is device memory, 2 doubles).
void launchTwoDots(double* result, const double* a, const double* b, const double* c,
                   const double* d, double* scratch, std::size_t n, cudaStream_t stream);

struct CompactUpdateArgs {
  const double* A;      ///< m x 3 (ld m): rows by slot, columns s.g, s.y_new, s.s_new
  const double* B;      ///< m x 3 (ld m): rows by slot, columns y.g, y.y_new, y.s_new
  double* SYslot;       ///< m x m (ld m): s_i.y_j by slot
  double* YYslot;       ///< m x m (ld m): y_i.y_j by slot
  double* R;            ///< L x L (ld m), chronological: upper triangle of S^T Y (guarded diagonal)
  double* YY;           ///< L x L (ld m), chronological
  double* D;            ///< L, chronological diagonal of S^T Y (guarded)
  double* a;            ///< L: S^T g, chronological
  double* b;            ///< L: Y^T g, chronological
  double* gamma;        ///< 1: s.y / y.y of the newest pair (guarded)
  int m, length, oldest, newSlot;  ///< newSlot < 0: no new pair since the last update
};
/// Records the new pair's products in the slot matrices, then gathers the chronological R, YY, D,
/// a, b and gamma.
void launchCompactUpdate(const CompactUpdateArgs& args, cudaStream_t stream);

/// v = D u + gamma t - gamma b (all chronological, length L; gamma on the device).
void launchCompactMiddle(double* v, const double* D, const double* u, const double* t,
                         const double* b, const double* gamma, int length, cudaStream_t stream);
/// p1s[slot(k)] = -p1[k], us[slot(k)] = gamma u[k], slot(k) = (oldest + k) % m.
void launchCompactScatter(double* p1s, double* us, const double* p1, const double* u,
                          const double* gamma, int m, int length, int oldest,
                          cudaStream_t stream);

/// Largest history length the one-block small solve handles (launchCompactSmallSolve).
constexpr int kSmallSolveMaxLength = 64;

/// For length <= kSmallSolveMaxLength, in one block: u = R^-1 a, t = YY u,
/// v = D u + gamma t - gamma b, p1 = R^-T v, then the scatter of launchCompactScatter. Replaces two
/// TRSVs, a GEMV and two small kernels, whose launch latency dominates at small m.
void launchCompactSmallSolve(double* p1s, double* us, const double* R, const double* YY,
                             const double* D, const double* a, const double* b,
                             const double* gamma, int m, int length, int oldest,
                             cudaStream_t stream);

/// p = -gamma g + sum_k S[:, k] p1s[k] + Y[:, k] us[k] over the first `used` slots: one pass over
/// S and Y (a fused replacement of a scale and two GEMVs, used for short histories).
void launchCompactCombine(double* p, const double* g, const double* S, const double* Y,
                          const double* p1s, const double* us, const double* gamma, std::size_t n,
                          int used, cudaStream_t stream);

}  // namespace landscape
