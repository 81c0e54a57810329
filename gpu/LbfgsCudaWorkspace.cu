#include "gpu/LbfgsCudaWorkspace.h"

#include <cublas_v2.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/LbfgsKernels.cuh"
#include "landscape/minimisation/LbfgsHistory.h"

namespace landscape {

namespace {

// Owns a cuBLAS handle bound to the legacy default stream, the stream every potential kernel
// uses, so the whole sequence is ordered without extra synchronisation.
class CublasHandle {
 public:
  CublasHandle() {
    LANDSCAPE_CUBLAS_CHECK(cublasCreate(&m_handle));
    LANDSCAPE_CUBLAS_CHECK(cublasSetStream(m_handle, nullptr));
    LANDSCAPE_CUBLAS_CHECK(cublasSetPointerMode(m_handle, CUBLAS_POINTER_MODE_HOST));
  }
  ~CublasHandle() { cublasDestroy(m_handle); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return m_handle; }

 private:
  cublasHandle_t m_handle = nullptr;
};

}  // namespace

struct LbfgsCudaWorkspace::DeviceState {
  DeviceState(Potential& potential, int historySize)
      : pot(potential),
        n(potential.dimension()),
        m(historySize),
        x(n), g(n), p(n), xt(n), gt(n),
        S(n * static_cast<std::size_t>(historySize)),
        Y(n * static_cast<std::size_t>(historySize)),
        W(3 * n),
        A(3 * static_cast<std::size_t>(historySize)),
        B(3 * static_cast<std::size_t>(historySize)),
        SYslot(static_cast<std::size_t>(historySize) * historySize),
        YYslot(static_cast<std::size_t>(historySize) * historySize),
        R(static_cast<std::size_t>(historySize) * historySize),
        YY(static_cast<std::size_t>(historySize) * historySize),
        D(historySize), a(historySize), b(historySize), u(historySize), t(historySize),
        v(historySize), p1s(historySize), us(historySize), gamma(1),
        dots(2), dotScratch(dotScratchSize()) {
    if (historySize < 1) throw std::invalid_argument("L-BFGS history size m must be >= 1");
    if (!potential.isDeviceResident()) {
      hostX.resize(n);
      hostG.resize(n);
    }
  }

  // Energy and gradient at device coordinates dx into dg.
  double evaluate(const double* dx, double* dg) {
    if (pot.isDeviceResident()) return pot.energyGradientDevice(dx, dg);
    LANDSCAPE_CUDA_CHECK(cudaMemcpy(hostX.data(), dx, n * sizeof(double), cudaMemcpyDeviceToHost));
    const double e = pot.energyGradient(hostX.data(), hostG.data());
    LANDSCAPE_CUDA_CHECK(cudaMemcpy(dg, hostG.data(), n * sizeof(double), cudaMemcpyHostToDevice));
    return e;
  }

  std::pair<double, double> twoDots(const double* a1, const double* b1, const double* c1,
                                    const double* d1) {
    launchTwoDots(dots.data(), a1, b1, c1, d1, dotScratch.data(), n, nullptr);
    double h[2];
    dots.copyToHost(h, 2);
    return {h[0], h[1]};
  }

  Potential& pot;
  std::size_t n;
  int m;
  CublasHandle blas;
  DeviceBuffer<double> x, g, p, xt, gt;  // n each
  DeviceBuffer<double> S, Y;             // n x m, column = history slot
  DeviceBuffer<double> W;                // n x 3: [g | y_new | s_new]
  DeviceBuffer<double> A, B;             // m x 3: S^T W, Y^T W by slot
  DeviceBuffer<double> SYslot, YYslot;   // m x m by slot
  DeviceBuffer<double> R, YY;            // L x L chronological (ld m)
  DeviceBuffer<double> D, a, b, u, t, v, p1s, us, gamma;
  DeviceBuffer<double> dots, dotScratch;
  DeviceBuffer<double> sqrtW, invSqrtW;  // diagonal metric (n each) or empty
  std::vector<double> hostX, hostG;      // staging for host-only potentials
  LbfgsHistory order;  // the cyclic order of the pairs in S and Y (gamma lives on the device)
  int newSlot = -1;
  double gradientNorm2 = 0.0;
};

LbfgsCudaWorkspace::LbfgsCudaWorkspace(Potential& potential, int historySize)
    : m_state(std::make_unique<DeviceState>(potential, historySize)) {}

LbfgsCudaWorkspace::~LbfgsCudaWorkspace() = default;

std::size_t LbfgsCudaWorkspace::dimension() const { return m_state->n; }

void LbfgsCudaWorkspace::setCoordinates(const double* x) { m_state->x.copyFromHost(x, m_state->n); }

void LbfgsCudaWorkspace::getCoordinates(double* x) const { m_state->x.copyToHost(x, m_state->n); }

void LbfgsCudaWorkspace::getGradient(double* g) const { m_state->g.copyToHost(g, m_state->n); }

double LbfgsCudaWorkspace::evaluateCurrent() {
  DeviceState& s = *m_state;
  const double e = s.evaluate(s.x.data(), s.g.data());
  s.gradientNorm2 = s.twoDots(s.g.data(), s.g.data(), s.g.data(), s.g.data()).first;
  // W's first column is the current gradient (of the scaled coordinates with a diagonal metric)
  // whenever a direction is computed.
  if (s.invSqrtW.empty())
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpy(s.W.data(), s.g.data(), s.n * sizeof(double), cudaMemcpyDeviceToDevice));
  else
    launchMultiply(s.W.data(), s.g.data(), s.invSqrtW.data(), s.n, nullptr);
  return e;
}

double LbfgsCudaWorkspace::gradientNormSquared() const { return m_state->gradientNorm2; }

double LbfgsCudaWorkspace::rmsGradient(double gradientNormSquared) {
  DeviceState& s = *m_state;
  if (!s.pot.hasGradientMetric()) return std::sqrt(gradientNormSquared / static_cast<double>(s.n));
  if (s.pot.isDeviceResident()) return s.pot.rmsGradientDevice(s.x.data(), s.g.data());
  s.x.copyToHost(s.hostX.data(), s.n);
  s.g.copyToHost(s.hostG.data(), s.n);
  return s.pot.rmsGradient(s.hostX.data(), s.hostG.data());
}

void LbfgsCudaWorkspace::useDiagonalMetric(bool on) {
  DeviceState& s = *m_state;
  std::vector<double> w;
  if (!on || !s.pot.diagonalMetric(w)) {
    s.sqrtW = DeviceBuffer<double>();
    s.invSqrtW = DeviceBuffer<double>();
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpy(s.W.data(), s.g.data(), s.n * sizeof(double), cudaMemcpyDeviceToDevice));
    return;
  }
  if (w.size() != s.n)
    throw std::invalid_argument("L-BFGS: the diagonal metric of " + s.pot.name() + " has " +
                                std::to_string(w.size()) + " entries, expected " +
                                std::to_string(s.n));
  std::vector<double> root(s.n), inverse(s.n);
  for (std::size_t i = 0; i < s.n; ++i) {
    if (!(w[i] > 0.0) || !std::isfinite(w[i]))
      throw std::invalid_argument("L-BFGS: the diagonal metric of " + s.pot.name() +
                                  " must be finite and > 0 (entry " + std::to_string(i) + ")");
    root[i] = std::sqrt(w[i]);  // the CPU twin's operations, so both hold the same bits
    inverse[i] = 1.0 / root[i];
  }
  if (s.sqrtW.empty()) {
    s.sqrtW = DeviceBuffer<double>(root);
    s.invSqrtW = DeviceBuffer<double>(inverse);
  } else {  // the metric is constant; refresh it in place
    s.sqrtW.copyFromHost(root);
    s.invSqrtW.copyFromHost(inverse);
  }
  // The stored gradient column must be the scaled one from now on.
  launchMultiply(s.W.data(), s.g.data(), s.invSqrtW.data(), s.n, nullptr);
}

DirectionSummary LbfgsCudaWorkspace::computeDirection(double initialGuess) {
  DeviceState& s = *m_state;
  const int L = s.order.length;
  // W's first column: g, or g / sqrt(w) with a diagonal metric (the direction is computed in the
  // scaled coordinates and mapped back below).
  const double* gu = s.W.data();
  if (L == 0) {
    launchNegScale(s.p.data(), gu, nullptr, initialGuess, s.n, nullptr);
  } else {
    cublasHandle_t h = s.blas.get();
    const int n = static_cast<int>(s.n), m = s.m;
    const int used = L < m ? L : m;  // slots 0..used-1 hold the history
    const double one = 1.0, zero = 0.0;
    // One pass over S and one over Y: S^T [g y s] and Y^T [g y s].
    LANDSCAPE_CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, used, 3, n, &one, s.S.data(),
                                       n, s.W.data(), n, &zero, s.A.data(), m));
    LANDSCAPE_CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, used, 3, n, &one, s.Y.data(),
                                       n, s.W.data(), n, &zero, s.B.data(), m));
    CompactUpdateArgs args;
    args.A = s.A.data();
    args.B = s.B.data();
    args.SYslot = s.SYslot.data();
    args.YYslot = s.YYslot.data();
    args.R = s.R.data();
    args.YY = s.YY.data();
    args.D = s.D.data();
    args.a = s.a.data();
    args.b = s.b.data();
    args.gamma = s.gamma.data();
    args.m = m;
    args.length = L;
    args.oldest = s.order.oldest;
    args.newSlot = s.newSlot;
    launchCompactUpdate(args, nullptr);
    s.newSlot = -1;
    // u = R^-1 a; t = YY u; v = D u + gamma t - gamma b; p1 = R^-T v (one block for short
    // histories, cuBLAS triangular solves for long ones).
    if (L <= kSmallSolveMaxLength) {
      launchCompactSmallSolve(s.p1s.data(), s.us.data(), s.R.data(), s.YY.data(), s.D.data(),
                              s.a.data(), s.b.data(), s.gamma.data(), m, L, s.order.oldest, nullptr);
    } else {
      LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(s.u.data(), s.a.data(), L * sizeof(double),
                                           cudaMemcpyDeviceToDevice, nullptr));
      LANDSCAPE_CUBLAS_CHECK(cublasDtrsv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                         CUBLAS_DIAG_NON_UNIT, L, s.R.data(), m, s.u.data(), 1));
      LANDSCAPE_CUBLAS_CHECK(cublasDgemv(h, CUBLAS_OP_N, L, L, &one, s.YY.data(), m, s.u.data(),
                                         1, &zero, s.t.data(), 1));
      launchCompactMiddle(s.v.data(), s.D.data(), s.u.data(), s.t.data(), s.b.data(),
                          s.gamma.data(), L, nullptr);
      LANDSCAPE_CUBLAS_CHECK(cublasDtrsv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                                         CUBLAS_DIAG_NON_UNIT, L, s.R.data(), m, s.v.data(), 1));
      launchCompactScatter(s.p1s.data(), s.us.data(), s.v.data(), s.u.data(), s.gamma.data(), m,
                           L, s.order.oldest, nullptr);
    }
    // p = -(gamma g + S p1 - gamma Y u) = -gamma g + S (-p1) + Y (gamma u): one more pass, fused
    // for short histories; cuBLAS GEMVs (measured at 1.07x the two-pass byte floor) for long ones.
    if (used <= kSmallSolveMaxLength) {
      launchCompactCombine(s.p.data(), gu, s.S.data(), s.Y.data(), s.p1s.data(), s.us.data(),
                           s.gamma.data(), s.n, used, nullptr);
    } else {
      launchNegScale(s.p.data(), gu, s.gamma.data(), 0.0, s.n, nullptr);
      LANDSCAPE_CUBLAS_CHECK(cublasDgemv(h, CUBLAS_OP_N, n, used, &one, s.S.data(), n,
                                         s.p1s.data(), 1, &one, s.p.data(), 1));
      LANDSCAPE_CUBLAS_CHECK(cublasDgemv(h, CUBLAS_OP_N, n, used, &one, s.Y.data(), n,
                                         s.us.data(), 1, &one, s.p.data(), 1));
    }
  }
  const auto [pg, pp] = s.twoDots(s.p.data(), gu, s.p.data(), s.p.data());
  if (!s.invSqrtW.empty()) launchMultiply(s.p.data(), s.p.data(), s.invSqrtW.data(), s.n, nullptr);
  return {pg, std::sqrt(pp)};
}

void LbfgsCudaWorkspace::reverseDirection() {
  launchNegScale(m_state->p.data(), m_state->p.data(), nullptr, 1.0, m_state->n, nullptr);
}

double LbfgsCudaWorkspace::evaluateTrial(double c) {
  DeviceState& s = *m_state;
  launchAxpy(s.xt.data(), s.x.data(), s.p.data(), c, s.n, nullptr);
  return s.evaluate(s.xt.data(), s.gt.data());
}

double LbfgsCudaWorkspace::acceptTrial() {
  DeviceState& s = *m_state;
  const int slot = s.order.push(s.m);
  const std::size_t offset = static_cast<std::size_t>(slot) * s.n;
  launchNewPair(s.S.data() + offset, s.Y.data() + offset, s.W.data(), s.xt.data(), s.x.data(),
                s.gt.data(), s.g.data(), s.sqrtW.empty() ? nullptr : s.sqrtW.data(),
                s.invSqrtW.empty() ? nullptr : s.invSqrtW.data(), s.n, nullptr);
  s.newSlot = slot;
  std::swap(s.x, s.xt);
  std::swap(s.g, s.gt);
  s.gradientNorm2 = s.twoDots(s.g.data(), s.g.data(), s.g.data(), s.g.data()).first;
  return s.gradientNorm2;
}

void LbfgsCudaWorkspace::clearHistory() {
  m_state->order.clear();
  m_state->newSlot = -1;
}

int LbfgsCudaWorkspace::historyLength() const { return m_state->order.length; }

}  // namespace landscape
