#pragma once
// Driver of the whole-band DNEB kernel for Lennard-Jones clusters: a block per band
// (landscape/paths/DnebTeamTerms.h), its warps taking the band's images in turn (each image's
// energy and gradient by gpu/TeamLennardJones.cuh on one warp, then its nudged gradient), the
// band's L-BFGS over the block; the band stays on the device from its linear interpolation to its
// last evaluation. Determinism: a band's arithmetic depends on its own endpoints only (no float
// atomics, sums in fixed team orders), so its bits equal the CPU twin's
// (landscape/paths/DnebBandTwin) whatever the other bands of the launch. Compiled with
// -fmad=false. Included only from .cu files.
#include <cuda_runtime.h>

#include "gpu/TeamLennardJones.cuh"
#include "landscape/paths/DnebTeamTerms.h"

namespace landscape {

/// Where one band's arrays start (doubles into the io and work pools; dnebTeamLayout) and its
/// sizes.
struct DnebBandSlot {
  long long io = 0;
  long long work = 0;
  int images = 0;
  int iterations = 0;
};

struct BatchedDnebArgs {
  const DnebBandSlot* d_slots = nullptr;  ///< [bands]
  double* d_io = nullptr;                 ///< endpoints in; band, tangents, energies out
  double* d_work = nullptr;               ///< work space
  DnebTeamOutcome* d_outcomes = nullptr;  ///< [bands], overwritten
  const volatile int* d_stop = nullptr;   ///< non-zero: end every band before its next iteration
  TeamPairSchedule schedule;              ///< device slots, built for one warp
  DnebTeamSettings settings;              ///< images, n and maxIterations are each slot's
  int bands = 0;
  int warps = 0;  ///< warps per band (block), 1 to 32
};

/// Enqueues the kernel, a block per band, on `stream`; returns without synchronising. Throws
/// std::invalid_argument for a bad argument, std::runtime_error when the launch fails.
void launchBatchedDneb(const BatchedDnebArgs& args, cudaStream_t stream);

}  // namespace landscape
