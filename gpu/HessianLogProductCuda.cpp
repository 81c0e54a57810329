#include "gpu/HessianLogProductCuda.h"

// Host code of the CUDA twin: compiled in every build, empty without CUDA support (the callers
// check LANDSCAPE_HAVE_CUDA), so that g++ builds it with the toolkit's headers.
#ifdef LANDSCAPE_HAVE_CUDA

#include <cusolverDn.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/HessianLogProductKernels.cuh"

namespace landscape {

namespace {

void checkCusolver(cusolverStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  throw std::runtime_error(
      detail::cudaFailureMessage(call, file, line, "cusolver status " + std::to_string(status)));
}
#define LANDSCAPE_CUSOLVER_CHECK(call) checkCusolver((call), #call, __FILE__, __LINE__)

class CusolverHandle {
 public:
  CusolverHandle() { LANDSCAPE_CUSOLVER_CHECK(cusolverDnCreate(&m_handle)); }
  ~CusolverHandle() { cusolverDnDestroy(m_handle); }
  CusolverHandle(const CusolverHandle&) = delete;
  CusolverHandle& operator=(const CusolverHandle&) = delete;
  cusolverDnHandle_t get() const { return m_handle; }

 private:
  cusolverDnHandle_t m_handle = nullptr;
};

void setCoordinate(DeviceBuffer<double>& x, int i, double value) {
  LANDSCAPE_CUDA_CHECK(cudaMemcpy(x.data() + i, &value, sizeof value, cudaMemcpyHostToDevice));
}

}  // namespace

// Everything on a non-blocking stream of its own, buffers kept between calls.
struct HessianFactorisationCuda::State {
  CudaStream stream = CudaStream::create(cudaStreamNonBlocking);
  CusolverHandle solver;
  DeviceBuffer<double> m, work, values, sum;
  DeviceBuffer<int> info;

  State() { LANDSCAPE_CUSOLVER_CHECK(cusolverDnSetStream(solver.get(), stream.get())); }

  template <typename T>
  void toDevice(DeviceBuffer<T>& d, const T* host, std::size_t count) {
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpyAsync(d.data(), host, count * sizeof(T), cudaMemcpyHostToDevice, stream.get()));
  }
  template <typename T>
  void toHost(T* host, const DeviceBuffer<T>& d, std::size_t count) {
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpyAsync(host, d.data(), count * sizeof(T), cudaMemcpyDeviceToHost, stream.get()));
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  }
  int status() {
    int value = 0;
    toHost(&value, info, 1);
    return value;
  }

  /// Cholesky of the lower triangle of m in place; false when not positive definite.
  bool choleskyLogDeterminant(int n, double& logDeterminant) {
    int lwork = 0;
    LANDSCAPE_CUSOLVER_CHECK(
        cusolverDnDpotrf_bufferSize(solver.get(), CUBLAS_FILL_MODE_LOWER, n, m.data(), n, &lwork));
    work.reserve(static_cast<std::size_t>(lwork));
    LANDSCAPE_CUSOLVER_CHECK(cusolverDnDpotrf(solver.get(), CUBLAS_FILL_MODE_LOWER, n, m.data(), n,
                                              work.data(), lwork, info.data()));
    if (status() != 0) return false;
    launchLogDiagonalSum(m.data(), n, sum.data(), stream.get());
    double half = 0.0;
    toHost(&half, sum, 1);
    logDeterminant = 2.0 * half;
    return std::isfinite(logDeterminant);
  }

  Eigen::VectorXd eigenvalues(int n) {
    values.reserve(static_cast<std::size_t>(n));
    int lwork = 0;
    LANDSCAPE_CUSOLVER_CHECK(cusolverDnDsyevd_bufferSize(solver.get(), CUSOLVER_EIG_MODE_NOVECTOR,
                                                         CUBLAS_FILL_MODE_LOWER, n, m.data(), n,
                                                         values.data(), &lwork));
    work.reserve(static_cast<std::size_t>(lwork));
    LANDSCAPE_CUSOLVER_CHECK(cusolverDnDsyevd(solver.get(), CUSOLVER_EIG_MODE_NOVECTOR,
                                              CUBLAS_FILL_MODE_LOWER, n, m.data(), n, values.data(),
                                              work.data(), lwork, info.data()));
    if (const int failed = status(); failed != 0)
      throw std::runtime_error("hessianLogProductCuda: cusolverDnDsyevd did not converge (info " +
                               std::to_string(failed) + ")");
    Eigen::VectorXd host(n);
    toHost(host.data(), values, static_cast<std::size_t>(n));
    return host;
  }
};

HessianFactorisationCuda::HessianFactorisationCuda() = default;
HessianFactorisationCuda::~HessianFactorisationCuda() = default;

std::unique_ptr<HessianFactorisationCuda::State> HessianFactorisationCuda::take(
    std::size_t matrixBytes) {
  constexpr double kMostMatrixBytes = 2.0 * 1024 * 1024 * 1024;
  const int most = std::max(
      1, std::min(kMostHandles,
                  static_cast<int>(kMostMatrixBytes /
                                   static_cast<double>(std::max<std::size_t>(1, matrixBytes)))));
  std::unique_lock<std::mutex> lock(m_lock);
  m_returned.wait(lock, [&] { return !m_idle.empty() || m_made < most; });
  if (!m_idle.empty()) {
    std::unique_ptr<State> state = std::move(m_idle.back());
    m_idle.pop_back();
    return state;
  }
  ++m_made;
  lock.unlock();
  try {
    return std::make_unique<State>();
  } catch (...) {
    lock.lock();
    --m_made;
    m_returned.notify_one();
    throw;
  }
}

HessianLogProduct HessianFactorisationCuda::logProduct(Eigen::MatrixXd& hessian,
                                                       const RigidBodyModes& modes) {
  const double c = shiftRigidBodyModes(hessian, modes);
  const int n = static_cast<int>(hessian.rows());
  std::unique_ptr<State> taken = take(sizeof(double) * static_cast<std::size_t>(hessian.size()));
  // Back to the idle handles however this call ends.
  struct GiveBack {
    HessianFactorisationCuda& owner;
    std::unique_ptr<State>& state;
    ~GiveBack() {
      std::lock_guard<std::mutex> lock(owner.m_lock);
      owner.m_idle.push_back(std::move(state));
      owner.m_returned.notify_one();
    }
  } giveBack{*this, taken};
  State& s = *taken;
  s.m.reserve(static_cast<std::size_t>(hessian.size()));
  s.info.reserve(1);
  s.sum.reserve(1);
  s.toDevice(s.m, hessian.data(), static_cast<std::size_t>(hessian.size()));
  double logDeterminant = 0.0;
  if (s.choleskyLogDeterminant(n, logDeterminant))
    return logProductFromDeterminant(logDeterminant, n, modes.count(), c);
  // potrf overwrote the lower triangle
  s.toDevice(s.m, hessian.data(), static_cast<std::size_t>(hessian.size()));
  return logProductFromEigenvalues(s.eigenvalues(n), modes.count(), c);
}

Eigen::MatrixXd numericalHessianCuda(Potential& potential, const std::vector<double>& x,
                                     double step) {
  if (!potential.isDeviceResident()) {
    throw std::invalid_argument("numericalHessianCuda: " + potential.name() +
                                " has no device entry point (use numericalHessian)");
  }
  if (!(std::isfinite(step) && step > 0.0)) {
    throw std::invalid_argument("numericalHessianCuda: the finite-difference step must be > 0");
  }
  if (x.size() != potential.dimension()) {
    throw std::invalid_argument("numericalHessianCuda: coordinate vector has " +
                                std::to_string(x.size()) + " entries, the potential expects " +
                                std::to_string(potential.dimension()));
  }
  const int n = static_cast<int>(x.size());
  DeviceBuffer<double> d_x(x), plus(x.size()), minus(x.size());
  DeviceBuffer<double> d_h(x.size() * x.size());
  for (int i = 0; i < n; ++i) {
    setCoordinate(d_x, i, x[i] + step);
    potential.energyGradientDevice(d_x.data(), plus.data());
    setCoordinate(d_x, i, x[i] - step);
    potential.energyGradientDevice(d_x.data(), minus.data());
    setCoordinate(d_x, i, x[i]);
    launchFiniteDifferenceColumn(plus.data(), minus.data(), 0.5 / step,
                                 d_h.data() + static_cast<std::size_t>(i) * n, n);
  }
  launchSymmetrise(d_h.data(), n);
  Eigen::MatrixXd hessian(n, n);
  d_h.copyToHost(hessian.data(), d_h.size());
  return hessian;
}

HessianLogProduct hessianLogProductCuda(Eigen::MatrixXd& hessian, const RigidBodyModes& modes) {
  HessianFactorisationCuda factorisation;
  return factorisation.logProduct(hessian, modes);
}

}  // namespace landscape

#endif  // LANDSCAPE_HAVE_CUDA
