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

// The block's threads, thread t owning components t, t + T, ... of rows in global memory (an
// Owned vector is a view, q = c).
class RoundsRowTeam : public DeviceTeam<0> {
 public:
  __device__ RoundsRowTeam(int dimension, double* scratch) : DeviceTeam<0>(dimension, scratch) {}

  struct Owned {
    double* v;
    __device__ double& operator[](int q) const { return v[q]; }
  };

  template <class F>
  __device__ void forOwned(F f) const {
    for (int c = threadIdx.x; c < n; c += blockDim.x) f(c, c);
  }

  template <int R, class F>
  __device__ TeamSum<R> sumOwned(F f) {
    TeamSum<R> s;
    for (int r = 0; r < R; ++r) s.v[r] = 0.0;
    forOwned([&](int c, int q) { f(c, q, s); });
    return this->reduce(s);
  }
};

// The vectors and history of slot r.
__device__ inline LbfgsTeamStorage roundsSlotStorage(const BatchedRoundsSlots& a, std::size_t r,
                                                     int n, int m) {
  const std::size_t rn = r * static_cast<std::size_t>(n), rm = r * static_cast<std::size_t>(m);
  return {a.x + rn,     a.g + rn,     a.xt + rn,  a.gt + rn,
          a.s + rn * m, a.y + rn * m, a.rho + rm, a.alpha + rm};
}

}  // namespace landscape
