#include "backends/HessianBackendFactory.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "backends/BatchedPotentialFactory.h"
#include "landscape/minimisation/BatchedNumericalHessian.h"

#include "gpu/GpuDevice.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedNumericalHessianCuda.h"
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
  // One factorisation's stream, handle and buffers for all the backend's points.
  auto factorisation = std::make_shared<HessianFactorisationCuda>();
  backend.logProduct = [factorisation](Eigen::MatrixXd& hessian, const RigidBodyModes& modes) {
    return factorisation->logProduct(hessian, modes);
  };
  return backend;
#else
  (void)devicePotential;
  throw std::runtime_error("GPU Hessian: this build has no CUDA support");
#endif
}

namespace {

std::size_t hessianBatchOf(const BatchedPotential& batched) {
  constexpr std::size_t kMostStructures = 1024;
  constexpr double kMostScratchBytes = 2.0 * 1024 * 1024 * 1024;
  const std::size_t perStructure = batched.bytesPerStructure();
  if (perStructure == 0) return kMostStructures;
  return std::clamp<std::size_t>(
      static_cast<std::size_t>(kMostScratchBytes / static_cast<double>(perStructure)), 2,
      kMostStructures);
}

// The batched potential a backend's Hessians go through and, on the device, the buffers its
// calls keep (BatchedHessiansCuda).
struct BatchedHessianCalls {
  BatchedPotential* batched = nullptr;
  std::unique_ptr<BatchedPotential> owned;  // useBatchedGpuHessians's own
#ifdef LANDSCAPE_HAVE_CUDA
  BatchedHessiansCuda device;
#endif

  std::vector<Eigen::MatrixXd> operator()(const std::vector<std::vector<double>>& points,
                                          double step) {
    BatchedHessianParams params;
    params.step = step;
    params.maxBatch = hessianBatchOf(*batched);
#ifdef LANDSCAPE_HAVE_CUDA
    // On the device, the displaced structures and differences stay there.
    if (batched->isDeviceResident()) return device.hessians(*batched, points, params);
#endif
    return batchedNumericalHessians(*batched, points, params);
  }
};

}  // namespace

void useBatchedHessians(HessianBackend& backend, BatchedPotential& batched) {
  auto calls = std::make_shared<BatchedHessianCalls>();
  calls->batched = &batched;
  backend.hessians = [calls](const std::vector<std::vector<double>>& points, double step) {
    return (*calls)(points, step);
  };
}

void useBatchedGpuHessians(HessianBackend& backend, const PotentialSpec& spec) {
  if (!gpuAvailable())
    throw std::runtime_error("GPU Hessian: no CUDA device found (" + gpuDescription() + ")");
  auto calls = std::make_shared<BatchedHessianCalls>();
  backend.hessians = [spec, calls](const std::vector<std::vector<double>>& points, double step) {
    if (!calls->owned) {
      // Thousands of structures per call: the layout of many structures per launch.
      BatchedPotentialOptions options;
      options.gbLayout = AmberGbCudaLayout::Throughput;
      calls->owned = makeBatchedPotentialForSpec(spec, Backend::Cuda, options);
      calls->batched = calls->owned.get();
    }
    return (*calls)(points, step);
  };
}

}  // namespace landscape
