#pragma once
// Driver of the batched Lennard-Jones kernel: the device entry point of BatchedPotential for LJ
// clusters. One block (a team of `warps` warps) per structure copies the structure into shared
// memory and evaluates it with teamLennardJones (each pair once, fixed order, no atomics), so
// that energy and gradient equal the CPU twin potentials/LennardJonesTeam bit for bit. Inactive
// structures return at once. Compiled with -fmad=false. Included only from .cu files.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/TeamLennardJones.cuh"

namespace landscape {

struct BatchedLennardJonesArgs {
  const double* d_x = nullptr;             ///< [batch x 3N] (sigma)
  double* d_g = nullptr;                   ///< [batch x 3N] (epsilon / sigma), active rows written
  double* d_energy = nullptr;              ///< [batch] (epsilon), active entries written
  const std::uint8_t* d_active = nullptr;  ///< [batch] or nullptr (all active)
  TeamPairSchedule schedule;               ///< device slots, built for warps x 32 threads
  std::size_t batch = 0;                   ///< at most INT_MAX
  int warps = 1;
};

/// Enqueues the kernel on `stream` without synchronising. Throws std::invalid_argument for a bad
/// argument, std::runtime_error when the launch fails.
void launchBatchedLennardJones(const BatchedLennardJonesArgs& args, cudaStream_t stream);

}  // namespace landscape
