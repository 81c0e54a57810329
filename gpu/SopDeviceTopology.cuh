#pragma once
// The SOP topology on the device in the layouts of gpu/SopKernels.cuh (bonds as previous/next
// bead, native contacts in chunks of kSopLanes entries per bead, the fixed-bead flags), uploaded
// once and shared by every replica or structure: the dynamics (gpu/SopCuda.cu) and the batched
// energy + gradient (gpu/BatchedSopCuda.cu) both hold one. Included only from .cu files.
#include <algorithm>
#include <utility>
#include <vector>

#include "gpu/DeviceBuffer.h"
#include "gpu/SopKernels.cuh"
#include "potentials/SopTopology.h"

namespace landscape {

template <class R>
struct SopDeviceTopology {
  /// fixedBeads: 1 = held in place (dynamics protocols); shorter than N or empty: the rest free.
  SopDeviceTopology(const SopTopology& t, const std::vector<unsigned char>& fixedBeads)
      : n(static_cast<int>(t.beadCount())), params(t.params) {
    std::vector<int> prev(n, -1), next(n, -1);
    std::vector<R> prevR0(n, R(0)), nextR0(n, R(0));
    for (const SopBond& b : t.bonds) {
      next[b.i] = b.j;
      nextR0[b.i] = static_cast<R>(b.r0);
      prev[b.j] = b.i;
      prevR0[b.j] = static_cast<R>(b.r0);
    }
    std::vector<std::vector<std::pair<int, double>>> natives(n);
    for (const SopContact& c : t.contacts) {
      natives[c.i].push_back({c.j, c.r0});
      natives[c.j].push_back({c.i, c.r0});
    }
    maxNatives = 1;
    for (const auto& v : natives) maxNatives = std::max<int>(maxNatives, v.size());
    // Chunks of kSopLanes entries per bead (sopNativeSlot), padded to whole chunks.
    const std::size_t nativeSlots =
        static_cast<std::size_t>((maxNatives + kSopLanes - 1) / kSopLanes * kSopLanes) * n;
    std::vector<int> nativeCountHost(n), nativeIndexHost(nativeSlots, 0);
    std::vector<R> nativeR0sqHost(nativeSlots, R(1));
    for (int i = 0; i < n; ++i) {
      nativeCountHost[i] = static_cast<int>(natives[i].size());
      for (std::size_t k = 0; k < natives[i].size(); ++k) {
        const std::size_t slot = sopNativeSlot(static_cast<int>(k), i, n);
        nativeIndexHost[slot] = natives[i][k].first;
        nativeR0sqHost[slot] = static_cast<R>(natives[i][k].second * natives[i][k].second);
      }
    }
    bondPrev = DeviceBuffer<int>(prev);
    bondNext = DeviceBuffer<int>(next);
    bondPrevR0 = DeviceBuffer<R>(prevR0);
    bondNextR0 = DeviceBuffer<R>(nextR0);
    nativeCount = DeviceBuffer<int>(nativeCountHost);
    nativeIndex = DeviceBuffer<int>(nativeIndexHost);
    nativeR0sq = DeviceBuffer<R>(nativeR0sqHost);
    std::vector<unsigned char> fixedHost = fixedBeads;
    fixedHost.resize(n, 0);
    fixed = DeviceBuffer<unsigned char>(fixedHost);
  }

  SopTopologyView<R> view() const {
    SopTopologyView<R> v;
    v.beads = n;
    v.d_bondPrev = bondPrev.data();
    v.d_bondNext = bondNext.data();
    v.d_bondPrevR0 = bondPrevR0.data();
    v.d_bondNextR0 = bondNextR0.data();
    v.d_nativeCount = nativeCount.data();
    v.d_nativeIndex = nativeIndex.data();
    v.d_nativeR0sq = nativeR0sq.data();
    v.d_fixed = fixed.data();
    v.feneK = static_cast<R>(params.feneK);
    v.feneR0sq = static_cast<R>(params.feneR0 * params.feneR0);
    v.nativeEpsilon = static_cast<R>(params.nativeEpsilon);
    v.repulsion =
        makeSopRepulsion<R>(params.repulsiveEpsilon, params.sigma, params.repulsiveCutoff);
    return v;
  }

  /// Device bytes of the tables (shared, not per structure).
  std::size_t bytes() const {
    return bondPrev.bytes() + bondNext.bytes() + bondPrevR0.bytes() + bondNextR0.bytes() +
           nativeCount.bytes() + nativeIndex.bytes() + nativeR0sq.bytes() + fixed.bytes();
  }

  int n;
  SopParams params;
  int maxNatives = 1;
  DeviceBuffer<int> bondPrev, bondNext, nativeCount, nativeIndex;
  DeviceBuffer<R> bondPrevR0, bondNextR0, nativeR0sq;
  DeviceBuffer<unsigned char> fixed;
};

}  // namespace landscape
