#pragma once
// Driver of the batched soft-sticky-dipole kernel (gpu/BatchedSoftStickyDipoleCuda): B structures
// of n SSD water molecules (Liu and Ichiye, J. Phys. Chem. 1996), each given by 4 marker sites
// (potentials/SoftStickyDipole.h), one block per structure. Included only from .cu files.
//
// A block forms its structure's centres and frames (softStickyDipoleFrameOfMarkers) in shared
// memory; thread t takes molecules t, t + blockDim, ...: molecule i sums the pair law of
// potentials/SoftStickyDipoleTerms.h over every other molecule j in ascending order, each pair
// evaluated with its lower molecule first (so both molecules see the same bits of the pair), its
// centre and axes gradients from all of them and the energy of a pair from its lower molecule
// only, then applies the chain rule to its own 4 markers (softStickyDipoleMarkerGradient). Every
// pair is evaluated twice (once from each molecule) instead of scattering with atomics. The
// energies are added by a fixed butterfly in each warp and then by thread 0 over the warps in
// order, so a structure's energy and gradient depend on its coordinates, the model and the block
// size alone: the same bits whatever the batch size, the structure's position, the active mask and
// the other structures. Inactive structures return at once. potentials/SoftStickyDipole is the CPU
// twin (pairs once, another order: equal to round-off).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "potentials/SoftStickyDipoleTerms.h"

namespace landscape {

struct BatchedSoftStickyDipoleArgs {
  const double* d_x = nullptr;             ///< [batch x 12 molecules] marker coordinates
  double* d_g = nullptr;                   ///< [batch x 12 molecules], active rows written
  double* d_energy = nullptr;              ///< [batch], active entries written
  const std::uint8_t* d_active = nullptr;  ///< [batch] or nullptr (all active)
  SoftStickyDipoleConstants constants{};   ///< SoftStickyDipoleParams::pairConstants()
  int molecules = 0;
  int threads = 32;       ///< block size: a multiple of 32, at most 1024
  std::size_t batch = 0;  ///< at most INT_MAX
};

/// Dynamic shared memory of a block: centres and frames (12 doubles per molecule) and the warps'
/// partial energies.
std::size_t batchedSoftStickyDipoleSharedBytes(int molecules);

/// Raises the kernel's dynamic shared memory limit to `bytes` where it exceeds the default 48 KB;
/// throws std::invalid_argument naming the molecules when the device cannot give it, or naming the
/// block size when `threads` exceeds the kernel's maxThreadsPerBlock (the pair law takes about 160
/// registers a thread, so blocks of 1024 threads do not fit an SM's 64K registers).
void prepareBatchedSoftStickyDipoleKernel(std::size_t bytes, int molecules, int threads);

/// Enqueues the kernel on `stream` without synchronising. Throws std::invalid_argument for a bad
/// argument, std::runtime_error when the launch fails.
void launchBatchedSoftStickyDipole(const BatchedSoftStickyDipoleArgs& args, cudaStream_t stream);

}  // namespace landscape
