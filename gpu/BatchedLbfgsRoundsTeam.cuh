#pragma once
// What the kernels of the round-based batched L-BFGS share (gpu/BatchedLbfgsRoundsKernels.cu,
// gpu/BatchedLbfgsRoundsCompactKernels.cu): the Team of landscape/minimisation/LbfgsRoundsTerms.h over rows
// in global memory and the view of one slot's rows. Included only from .cu files compiled with
// -fmad=false.
#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/BatchedLbfgsRoundsKernels.cuh"
#include "gpu/TeamDevice.cuh"

namespace landscape {

// The block's threads over the rows of a slot in global memory.
using RoundsRowTeam = DeviceRowTeam;

// The vectors and history of slot r.
__device__ inline LbfgsTeamStorage roundsSlotStorage(const BatchedRoundsSlots& a, std::size_t r,
                                                     int n, int m) {
  const std::size_t rn = r * static_cast<std::size_t>(n), rm = r * static_cast<std::size_t>(m);
  return {a.x + rn,     a.g + rn,     a.xt + rn,  a.gt + rn,
          a.s + rn * m, a.y + rn * m, a.rho + rm, a.alpha + rm};
}

}  // namespace landscape
