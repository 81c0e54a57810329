#include "gpu/HessianLogProductCuda.h"

// Host code of the CUDA twin: compiled in every build, empty without CUDA support (the callers
// check LANDSCAPE_HAVE_CUDA), so that g++ builds it with the toolkit's headers.
#ifdef LANDSCAPE_HAVE_CUDA

#include <cusolverDn.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
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

/// Cholesky of the lower triangle of d_m in place; false when not positive definite.
bool choleskyLogDeterminant(const CusolverHandle& solver, DeviceBuffer<double>& d_m, int n,
                            double& logDeterminant) {
  int lwork = 0;
  LANDSCAPE_CUSOLVER_CHECK(
      cusolverDnDpotrf_bufferSize(solver.get(), CUBLAS_FILL_MODE_LOWER, n, d_m.data(), n, &lwork));
  DeviceBuffer<double> work(static_cast<std::size_t>(lwork));
  DeviceBuffer<int> info(1);
  LANDSCAPE_CUSOLVER_CHECK(cusolverDnDpotrf(solver.get(), CUBLAS_FILL_MODE_LOWER, n, d_m.data(), n,
                                            work.data(), lwork, info.data()));
  if (info.toHost()[0] != 0) return false;
  DeviceBuffer<double> sum(1);
  launchLogDiagonalSum(d_m.data(), n, sum.data());
  logDeterminant = 2.0 * sum.toHost()[0];
  return std::isfinite(logDeterminant);
}

Eigen::VectorXd eigenvalues(const CusolverHandle& solver, DeviceBuffer<double>& d_m, int n) {
  DeviceBuffer<double> values(static_cast<std::size_t>(n));
  int lwork = 0;
  LANDSCAPE_CUSOLVER_CHECK(cusolverDnDsyevd_bufferSize(solver.get(), CUSOLVER_EIG_MODE_NOVECTOR,
                                                       CUBLAS_FILL_MODE_LOWER, n, d_m.data(), n,
                                                       values.data(), &lwork));
  DeviceBuffer<double> work(static_cast<std::size_t>(lwork));
  DeviceBuffer<int> info(1);
  LANDSCAPE_CUSOLVER_CHECK(cusolverDnDsyevd(solver.get(), CUSOLVER_EIG_MODE_NOVECTOR,
                                            CUBLAS_FILL_MODE_LOWER, n, d_m.data(), n, values.data(),
                                            work.data(), lwork, info.data()));
  if (info.toHost()[0] != 0) {
    throw std::runtime_error("hessianLogProductCuda: cusolverDnDsyevd did not converge (info " +
                             std::to_string(info.toHost()[0]) + ")");
  }
  const std::vector<double> host = values.toHost();
  return Eigen::Map<const Eigen::VectorXd>(host.data(), n);
}

}  // namespace

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
  const double c = shiftRigidBodyModes(hessian, modes);
  const int n = static_cast<int>(hessian.rows());
  const CusolverHandle solver;
  DeviceBuffer<double> d_m(hessian.size());
  d_m.copyFromHost(hessian.data(), d_m.size());
  double logDeterminant = 0.0;
  if (choleskyLogDeterminant(solver, d_m, n, logDeterminant)) {
    return logProductFromDeterminant(logDeterminant, n, modes.count(), c);
  }
  d_m.copyFromHost(hessian.data(), d_m.size());  // potrf overwrote the lower triangle
  return logProductFromEigenvalues(eigenvalues(solver, d_m, n), modes.count(), c);
}

}  // namespace landscape

#endif  // LANDSCAPE_HAVE_CUDA
