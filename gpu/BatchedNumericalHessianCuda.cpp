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

namespace {

template <typename T>
void reserve(DeviceBuffer<T>& buffer, std::size_t count) {
  if (buffer.size() < count) buffer = DeviceBuffer<T>(count);
}

}  // namespace

struct BatchedHessiansCuda::State {
  CudaStream stream = CudaStream::create(cudaStreamNonBlocking);
  DeviceBuffer<double> points, x, g, energy, hessians;
};

BatchedHessiansCuda::BatchedHessiansCuda() = default;
BatchedHessiansCuda::~BatchedHessiansCuda() = default;

std::vector<Eigen::MatrixXd> BatchedHessiansCuda::hessians(
    BatchedPotential& potential, const std::vector<std::vector<double>>& points,
    const BatchedHessianParams& params) {
  if (!potential.isDeviceResident())
    throw std::invalid_argument("batchedNumericalHessiansCuda: " + potential.name() +
                                " has no device entry point (use batchedNumericalHessians)");
  const std::size_t chunk =
      batchedHessianCallSize(potential, points, params, "batchedNumericalHessiansCuda");
  const std::size_t n = potential.dimension();
  std::vector<Eigen::MatrixXd> out(points.size(), Eigen::MatrixXd(n, n));
  if (points.empty()) return out;
  // Structure s: point s / 2n, coordinate (s % 2n) / 2, + step when even (as the host path).
  const std::size_t total = 2 * n * points.size();
  potential.reserve(chunk);
  std::vector<double> packed(points.size() * n);
  for (std::size_t p = 0; p < points.size(); ++p)
    std::copy(points[p].begin(), points[p].end(),
              packed.begin() + static_cast<std::ptrdiff_t>(p * n));
  if (!m_state) m_state = std::make_unique<State>();
  State& s = *m_state;
  reserve(s.points, packed.size());
  reserve(s.x, chunk * n);
  reserve(s.g, chunk * n);
  reserve(s.energy, chunk);
  reserve(s.hessians, points.size() * n * n);
  cudaStream_t stream = s.stream.get();
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(s.points.data(), packed.data(),
                                       packed.size() * sizeof(double), cudaMemcpyHostToDevice,
                                       stream));
  const int dimension = static_cast<int>(n);
  for (std::size_t first = 0; first < total; first += chunk) {
    const int count = static_cast<int>(std::min(chunk, total - first));
    launchDisplacedStructures(s.points.data(), dimension, static_cast<long long>(first), count,
                              params.step, s.x.data(), stream);
    potential.energyGradientDevice(static_cast<std::size_t>(count), s.x.data(), s.g.data(),
                                   s.energy.data(), nullptr, stream);
    launchFiniteDifferenceColumns(s.g.data(), dimension, static_cast<long long>(first), count,
                                  params.step, s.hessians.data(), stream);
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    double* h = s.hessians.data() + p * n * n;
    launchSymmetrise(h, dimension, stream);
    LANDSCAPE_CUDA_CHECK(
        cudaMemcpyAsync(out[p].data(), h, n * n * sizeof(double), cudaMemcpyDeviceToHost, stream));
  }
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

std::vector<Eigen::MatrixXd> batchedNumericalHessiansCuda(
    BatchedPotential& potential, const std::vector<std::vector<double>>& points,
    const BatchedHessianParams& params) {
  BatchedHessiansCuda workspace;
  return workspace.hessians(potential, points, params);
}

}  // namespace landscape

#endif  // LANDSCAPE_HAVE_CUDA
