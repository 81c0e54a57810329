#include "backends/HessianBackendFactory.h"

#include <stdexcept>

#include "gpu/GpuDevice.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/HessianLogProductCuda.h"
#endif

namespace landscape {

HessianBackend gpuHessianBackend(Potential& devicePotential) {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable()) {
    throw std::runtime_error("GPU Hessian: no CUDA device found (" + gpuDescription() + ")");
  }
  if (!devicePotential.isDeviceResident()) {
    throw std::invalid_argument("GPU Hessian: " + devicePotential.name() +
                                " has no device entry point");
  }
  HessianBackend backend;
  backend.hessian = [&devicePotential](const std::vector<double>& x, double step) {
    return numericalHessianCuda(devicePotential, x, step);
  };
  backend.logProduct = [](Eigen::MatrixXd& hessian, const RigidBodyModes& modes) {
    return hessianLogProductCuda(hessian, modes);
  };
  return backend;
#else
  (void)devicePotential;
  throw std::runtime_error("GPU Hessian: this build has no CUDA support");
#endif
}

}  // namespace landscape
