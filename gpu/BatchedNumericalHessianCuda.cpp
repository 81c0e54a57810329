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

struct BatchedHessiansCuda::State {
  CudaStream stream = CudaStream::create(cudaStreamNonBlocking);
  DeviceBuffer<double> points, x, g, energy, hessians;
};

BatchedHessiansCuda::BatchedHessiansCuda(double matrixBytes) : m_matrixBytes(matrixBytes) {}
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
  if (!m_state) m_state = std::make_unique<State>();
  State& s = *m_state;
  // The matrices of as many points at once as fit (by default in half the device's free memory,
  // counting what this workspace holds already); none: the host path.
  double room = m_matrixBytes;
  if (room <= 0.0) {
    std::size_t free = 0, total = 0;
    LANDSCAPE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    room = 0.5 * static_cast<double>(free) + static_cast<double>(s.hessians.bytes());
  }
  const double perMatrix = 8.0 * static_cast<double>(n) * static_cast<double>(n);
  const std::size_t fit = static_cast<std::size_t>(room / perMatrix);
  if (fit == 0) return batchedNumericalHessians(potential, points, params);
  std::vector<Eigen::MatrixXd> out(points.size(), Eigen::MatrixXd(n, n));
  if (points.empty()) return out;
  potential.reserve(chunk);
  const std::size_t block = std::min(fit, points.size());
  // Grown by doubling (the matrices up to what fits): the points per call vary (network growth
  // characterises each ended run's points), and each replacement's cudaFree waits for everything
  // on the device, holding up other threads' launches (docs/batched.md).
  s.points.reserveGrowing(block * n);
  s.x.reserveGrowing(chunk * n);
  s.g.reserveGrowing(chunk * n);
  s.energy.reserveGrowing(chunk);
  if (s.hessians.size() < block * n * n)
    s.hessians.reserve(std::min(std::max(block, 2 * s.hessians.size() / (n * n)), fit) * n * n);
  cudaStream_t stream = s.stream.get();
  const int dimension = static_cast<int>(n);
  std::vector<double> packed(block * n);
  for (std::size_t begin = 0; begin < points.size(); begin += block) {
    const std::size_t count = std::min(block, points.size() - begin);
    for (std::size_t p = 0; p < count; ++p)
      std::copy(points[begin + p].begin(), points[begin + p].end(),
                packed.begin() + static_cast<std::ptrdiff_t>(p * n));
    LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(s.points.data(), packed.data(), count * n * sizeof(double),
                                         cudaMemcpyHostToDevice, stream));
    // Structure k of the block: point k / 2n, coordinate (k % 2n) / 2, + step when k is even
    // (as the host path).
    const std::size_t structures = 2 * n * count;
    for (std::size_t first = 0; first < structures; first += chunk) {
      const int batch = static_cast<int>(std::min(chunk, structures - first));
      launchDisplacedStructures(s.points.data(), dimension, static_cast<long long>(first), batch,
                                params.step, s.x.data(), stream);
      potential.energyGradientDevice(static_cast<std::size_t>(batch), s.x.data(), s.g.data(),
                                     s.energy.data(), nullptr, stream);
      launchFiniteDifferenceColumns(s.g.data(), dimension, static_cast<long long>(first), batch,
                                    params.step, s.hessians.data(), stream);
    }
    for (std::size_t p = 0; p < count; ++p) {
      double* h = s.hessians.data() + p * n * n;
      launchSymmetrise(h, dimension, stream);
      LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(out[begin + p].data(), h, n * n * sizeof(double),
                                           cudaMemcpyDeviceToHost, stream));
    }
    // packed and the device arrays are used again by the next block
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
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
