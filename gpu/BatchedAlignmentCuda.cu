#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/BatchedAlignmentCuda.h"
#include "gpu/BatchedAlignmentKernels.cuh"
#include "gpu/CudaCheck.h"
#include "gpu/CudaHandles.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GpuDevice.h"

namespace landscape {

struct BatchedAlignmentCuda::DeviceState {
  DeviceState(int atomCount, int warpCount, int threads)
      : atoms(atomCount), warps(warpCount), pool(threads) {
    if (atoms < 1)
      throw std::invalid_argument("batched alignment on cuda: at least one atom, got " +
                                  std::to_string(atoms));
    if (warps < 1 || warps > kMaxAlignmentWarps)
      throw std::invalid_argument("batched alignment on cuda: 1 to " +
                                  std::to_string(kMaxAlignmentWarps) + " warps per pair, got " +
                                  std::to_string(warps));
    if (!gpuAvailable())
      throw std::runtime_error("batched alignment on cuda: no CUDA device (" + gpuDescription() +
                               ")");
    LANDSCAPE_CUDA_CHECK(cudaGetDevice(&device));
    int optIn = 0;
    LANDSCAPE_CUDA_CHECK(
        cudaDeviceGetAttribute(&optIn, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    while (warps > 1 && batchedAlignmentSharedBytes(atoms, warps) > static_cast<std::size_t>(optIn))
      --warps;
    if (batchedAlignmentSharedBytes(atoms, warps) > static_cast<std::size_t>(optIn))
      throw std::invalid_argument("batched alignment on cuda: " + std::to_string(atoms) +
                                  " atoms need more shared memory than a block has (" +
                                  std::to_string(optIn) + " bytes)");
    stream = CudaStream::create(cudaStreamNonBlocking);
  }

  int atoms;
  int warps;
  ThreadPool pool;  // the host's share: packing the starts, assembling the results
  int device = 0;  // align() may be called from another thread than the constructor's
  CudaStream stream;
  DeviceBuffer<double> coordinates, startRotations, randomRotations, scores, fits, inOrder;
  DeviceBuffer<int> startFlags, order, started, fitPermutations, permutations;
  DeviceBuffer<long long> firstStart;
  DeviceBuffer<AlignmentTeamOutcome> outcomes;
  PinnedBuffer<AlignmentTeamOutcome> hostOutcomes;
  PinnedBuffer<int> hostPermutations;
};

BatchedAlignmentCuda::BatchedAlignmentCuda(int atoms, int warps, int threads)
    : m_state(std::make_unique<DeviceState>(atoms, warps, threads)) {}

BatchedAlignmentCuda::~BatchedAlignmentCuda() = default;

std::string BatchedAlignmentCuda::name() const {
  return "batched alignment (cuda: " + std::to_string(m_state->warps) + " warps per pair) of " +
         std::to_string(m_state->atoms) + "-atom clusters";
}

namespace {

template <class T>
void upload(DeviceBuffer<T>& buffer, const std::vector<T>& host, cudaStream_t stream) {
  buffer.reserveGrowing(std::max<std::size_t>(host.size(), 1));
  if (!host.empty())
    LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(buffer.data(), host.data(), host.size() * sizeof(T),
                                         cudaMemcpyHostToDevice, stream));
}

}  // namespace

void BatchedAlignmentCuda::align(const AlignmentParams& params,
                                 const std::vector<AlignmentPair>& pairs,
                                 std::vector<AlignmentResult>& out) {
  DeviceState& d = *m_state;
  const AlignmentTeamBatch batch(params, pairs, d.atoms, &d.pool);
  out.clear();
  if (pairs.empty()) return;
  LANDSCAPE_CUDA_CHECK(cudaSetDevice(d.device));  // the current device is per thread
  cudaStream_t stream = d.stream.get();
  // The uploads read pageable host memory: cudaMemcpyAsync from it returns once the data are
  // staged, so the batch's vectors may go when align() returns.
  upload(d.coordinates, batch.coordinates(), stream);
  upload(d.startRotations, batch.startRotations(), stream);
  upload(d.randomRotations, batch.randomRotations(), stream);
  upload(d.startFlags, batch.startFlags(), stream);
  upload(d.firstStart, batch.firstStart(), stream);
  const std::size_t starts = std::max<long long>(batch.starts(), 1);
  d.scores.reserveGrowing(starts);
  d.order.reserveGrowing(starts);
  d.started.reserveGrowing(starts);
  d.fits.reserveGrowing(static_cast<std::size_t>(batch.fitDoubles()));
  d.fitPermutations.reserveGrowing(static_cast<std::size_t>(batch.fitInts()));
  d.inOrder.reserveGrowing(18 * pairs.size());
  d.outcomes.reserveGrowing(pairs.size());
  d.permutations.reserveGrowing(static_cast<std::size_t>(batch.permutationInts()));
  d.hostOutcomes.reserveGrowing(pairs.size());
  d.hostPermutations.reserveGrowing(static_cast<std::size_t>(batch.permutationInts()));
  BatchedAlignmentArgs args;
  args.arrays = {d.coordinates.data(),     d.startRotations.data(), d.randomRotations.data(),
                 d.startFlags.data(),      d.firstStart.data(),     d.scores.data(),
                 d.order.data(),           d.started.data(),        d.fits.data(),
                 d.fitPermutations.data(), d.inOrder.data(),        d.outcomes.data(),
                 d.permutations.data()};
  args.settings = batch.settings();
  args.distinct = kDistinctRotation;
  args.pairs = batch.pairs();
  args.warps = d.warps;
  launchBatchedAlignment(args, stream);
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.hostOutcomes.data(), d.outcomes.data(),
                                       pairs.size() * sizeof(AlignmentTeamOutcome),
                                       cudaMemcpyDeviceToHost, stream));
  LANDSCAPE_CUDA_CHECK(cudaMemcpyAsync(d.hostPermutations.data(), d.permutations.data(),
                                       batch.permutationInts() * sizeof(int),
                                       cudaMemcpyDeviceToHost, stream));
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
  batch.results(d.hostOutcomes.data(), d.hostPermutations.data(), pairs, out, &d.pool);
}

}  // namespace landscape
