#include "gpu/BatchedNumericalHessianCuda.h"

// Host code of the CUDA twin: compiled in every build, empty without CUDA support (the callers
// check LANDSCAPE_HAVE_CUDA).
#ifdef LANDSCAPE_HAVE_CUDA

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/HessianLogProductKernels.cuh"

namespace landscape {

std::vector<Eigen::MatrixXd> batchedNumericalHessiansCuda(
    BatchedPotential& potential, const std::vector<std::vector<double>>& points,
    const BatchedHessianParams& params) {
  params.check();
  if (!potential.isDeviceResident())
    throw std::invalid_argument("batchedNumericalHessiansCuda: " + potential.name() +
                                " has no device entry point (use batchedNumericalHessians)");
  const std::size_t n = potential.dimension();
  for (std::size_t p = 0; p < points.size(); ++p)
    if (points[p].size() != n)
      throw std::invalid_argument("batchedNumericalHessiansCuda: point " + std::to_string(p + 1) +
                                  " has " + std::to_string(points[p].size()) +
                                  " coordinates, the potential expects " + std::to_string(n));
  std::vector<Eigen::MatrixXd> hessians(points.size(), Eigen::MatrixXd(n, n));
  if (points.empty()) return hessians;
  // Structure s: point s / 2n, coordinate (s % 2n) / 2, + step when even (as the host path).
  const std::size_t perPoint = 2 * n, total = perPoint * points.size();
  std::size_t chunk = params.maxBatch == 0 ? total : std::min(params.maxBatch, total);
  chunk = std::max<std::size_t>(2, chunk - chunk % 2);
  potential.reserve(chunk);
  std::vector<double> packed(points.size() * n);
  for (std::size_t p = 0; p < points.size(); ++p)
    std::copy(points[p].begin(), points[p].end(),
              packed.begin() + static_cast<std::ptrdiff_t>(p * n));
  CudaStream stream = CudaStream::create(cudaStreamNonBlocking);
  DeviceBuffer<double> d_points(packed.size()), d_x(chunk * n), d_g(chunk * n), d_energy(chunk);
  DeviceBuffer<double> d_hessians(points.size() * n * n);
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d_points.data(), packed.data(),
                                       packed.size() * sizeof(double), cudaMemcpyHostToDevice,
                                       stream.get()));
  const int dimension = static_cast<int>(n);
  for (std::size_t first = 0; first < total; first += chunk) {
    const int count = static_cast<int>(std::min(chunk, total - first));
    launchDisplacedStructures(d_points.data(), dimension, static_cast<long long>(first), count,
                              params.step, d_x.data(), stream.get());
    potential.energyGradientDevice(static_cast<std::size_t>(count), d_x.data(), d_g.data(),
                                   d_energy.data(), nullptr, stream.get());
    launchFiniteDifferenceColumns(d_g.data(), dimension, static_cast<long long>(first), count,
                                  params.step, d_hessians.data(), stream.get());
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    double* h = d_hessians.data() + p * n * n;
    launchSymmetrise(h, dimension, stream.get());
    LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(hessians[p].data(), h, n * n * sizeof(double),
                                         cudaMemcpyDeviceToHost, stream.get()));
  }
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  return hessians;
}

}  // namespace landscape

#endif  // LANDSCAPE_HAVE_CUDA
