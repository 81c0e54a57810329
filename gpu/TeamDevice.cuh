#pragma once
// The device side of a team (landscape/core/TeamTerms.h): the threads of one block (blockDim.x a
// multiple of 32) that own one structure. Thread t owns components c = t, t + blockDim.x, ...;
// sums reduce per warp by the xor butterfly, then over warps in warp order through shared
// scratch, exactly the order teamSumMirror reproduces on the CPU. Included only from .cu files
// compiled with -fmad=false (CMakeLists.txt).
#include <cuda_runtime.h>

#include "landscape/core/TeamTerms.h"

namespace landscape {

/// T: the team's threads as a compile-time constant (kTeamWarpSize: a one-warp team, whose
/// barriers are the warp's and whose sums need no shared scratch, with component offsets known
/// to the compiler), or 0: blockDim.x, read at run time.
template <int T = 0>
class DeviceTeam {
 public:
  /// scratch: 6 x warps doubles of shared memory (two alternating buffers of 3 sums per warp,
  /// so that one barrier per reduction suffices).
  __device__ DeviceTeam(int dimension, double* scratch) : n(dimension), m_scratch(scratch) {}

  const int n;

  __device__ static int threads() { return T != 0 ? T : static_cast<int>(blockDim.x); }
  __device__ static bool oneWarp() { return threads() == kTeamWarpSize; }

  /// Barrier and shared-memory fence of the team (a single-warp team needs only the warp's).
  __device__ void sync() const {
    if (oneWarp())
      __syncwarp();
    else
      __syncthreads();
  }
  __device__ bool isLeader() const { return threadIdx.x == 0; }
  /// This thread's place in the team.
  __device__ int rank() const { return threadIdx.x; }

  template <class F>
  __device__ void forEach(F f) const {
    for (int c = threadIdx.x; c < n; c += threads()) f(c);
  }

  template <int R, class F>
  __device__ TeamSum<R> sum(F term) {
    TeamSum<R> s;
    for (int r = 0; r < R; ++r) s.v[r] = 0.0;
    for (int c = threadIdx.x; c < n; c += threads()) {
      const TeamSum<R> v = term(c);
      for (int r = 0; r < R; ++r) s.v[r] = s.v[r] + v.v[r];
    }
    return reduce(s);
  }

  /// The team total of every thread's partials; all threads receive the same bits. Must be
  /// reached by every thread of the block (uniform control flow).
  template <int R>
  __device__ TeamSum<R> reduce(TeamSum<R> s) {
    for (int r = 0; r < R; ++r)
      for (int o = kTeamWarpSize / 2; o >= 1; o /= 2)
        s.v[r] = s.v[r] + __shfl_xor_sync(0xffffffffu, s.v[r], o);
    if (oneWarp()) return s;
    const int warps = threads() / kTeamWarpSize;
    double* buffer = m_scratch + m_parity * 3 * warps;
    m_parity ^= 1;
    if ((threadIdx.x & (kTeamWarpSize - 1)) == 0)
      for (int r = 0; r < R; ++r) buffer[3 * (threadIdx.x / kTeamWarpSize) + r] = s.v[r];
    __syncthreads();
    TeamSum<R> total;
    for (int r = 0; r < R; ++r) {
      total.v[r] = buffer[r];
#pragma unroll 1
      for (int w = 1; w < warps; ++w) total.v[r] = total.v[r] + buffer[3 * w + r];
    }
    return total;
  }

 private:
  double* m_scratch;
  int m_parity = 0;
};

/// One warp of a larger block as a team of its own (a DNEB band's image: its block works on
/// several images at once, a warp each), with the interface of DeviceTeam<kTeamWarpSize>: lane l
/// owns components l, l + 32, ...; sums by the butterfly alone; barriers are the warp's.
class DeviceWarpTeam {
 public:
  __device__ explicit DeviceWarpTeam(int dimension) : n(dimension) {}
  const int n;
  __device__ static int threads() { return kTeamWarpSize; }
  __device__ int rank() const { return threadIdx.x & (kTeamWarpSize - 1); }
  __device__ bool isLeader() const { return rank() == 0; }
  __device__ void sync() const { __syncwarp(); }

  template <class F>
  __device__ void forEach(F f) const {
#pragma unroll 4
    for (int c = rank(); c < n; c += kTeamWarpSize) f(c);
  }
  template <int R, class F>
  __device__ TeamSum<R> sum(F term) const {
    TeamSum<R> s;
    for (int r = 0; r < R; ++r) s.v[r] = 0.0;
#pragma unroll 4
    for (int c = rank(); c < n; c += kTeamWarpSize) {
      const TeamSum<R> v = term(c);
      for (int r = 0; r < R; ++r) s.v[r] = s.v[r] + v.v[r];
    }
    return reduce(s);
  }
  template <int R>
  __device__ TeamSum<R> reduce(TeamSum<R> s) const {
    for (int r = 0; r < R; ++r)
      for (int o = kTeamWarpSize / 2; o >= 1; o /= 2)
        s.v[r] = s.v[r] + __shfl_xor_sync(0xffffffffu, s.v[r], o);
    return s;
  }
};

/// The block's threads over vectors in global memory: thread t owns components t, t +
/// blockDim.x, ... (an Owned vector is a view, q = c).
class DeviceRowTeam : public DeviceTeam<0> {
 public:
  __device__ DeviceRowTeam(int dimension, double* scratch) : DeviceTeam<0>(dimension, scratch) {}

  struct Owned {
    double* v;
    __device__ double& operator[](int q) const { return v[q]; }
  };

  // Unrolled so that the loads of several components are in flight at once: the vectors live in
  // global memory, and a pass whose loads wait one after the other costs a band of 20 LJ38
  // images most of its iteration (the order of the arithmetic, and so the bits, are the same).
  template <class F>
  __device__ void forOwned(F f) const {
#pragma unroll 4
    for (int c = threadIdx.x; c < n; c += blockDim.x) f(c, c);
  }

  template <int R, class F>
  __device__ TeamSum<R> sumOwned(F f) {
    TeamSum<R> s;
    for (int r = 0; r < R; ++r) s.v[r] = 0.0;
    forOwned([&](int c, int q) { f(c, q, s); });
    return this->reduce(s);
  }

 protected:
  /// The host's stop flag (gpu/MappedStopFlag.h; null: never) as the whole team sees it: one
  /// thread reads it into `shared`, the others hear its answer after a barrier.
  __device__ bool readStopFlag(const volatile int* flag, int* shared) {
    this->sync();
    if (threadIdx.x == 0) *shared = flag ? *flag : 0;
    this->sync();
    return *shared != 0;
  }
};

/// A team of run-time size.
using DeviceTeamBase = DeviceTeam<0>;

/// A team whose threads own at most K components each (K >= n / threads, checked by the
/// launcher), so that an Owned vector is K registers per thread: component c = t + q threads of
/// thread t lives in element q, and the loops over owned components unroll.
template <int K, int T = 0>
class DeviceOwnedTeam : public DeviceTeam<T> {
 public:
  using Base = DeviceTeam<T>;
  __device__ DeviceOwnedTeam(int dimension, double* scratch) : Base(dimension, scratch) {}

  struct Owned {
    double v[K];
    __device__ double& operator[](int q) { return v[q]; }
    __device__ double operator[](int q) const { return v[q]; }
  };
  __device__ Owned owned() const { return Owned{}; }

  template <class F>
  __device__ void forOwned(F f) const {
#pragma unroll
    for (int q = 0; q < K; ++q) {
      const int c = threadIdx.x + q * Base::threads();
      if (c < this->n) f(c, q);
    }
  }

  /// forEach over the same components, unrolled.
  template <class F>
  __device__ void forEach(F f) const {
    forOwned([&](int c, int) { f(c); });
  }

  template <int R, class F>
  __device__ TeamSum<R> sumOwned(F f) {
    TeamSum<R> s;
    for (int r = 0; r < R; ++r) s.v[r] = 0.0;
    forOwned([&](int c, int q) { f(c, q, s); });
    return this->reduce(s);
  }
};

}  // namespace landscape
