#pragma once
// The reduction plan of the rigid-body gradient on the device (gpu/RigidBodyKernels.cuh): which
// bodies one warp sums, and the block tables of the multi-pass reduction for the larger ones
// (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016: "launch repeatedly until the number of
// blocks became equal to the number of large rigid bodies"). Plain C++ so that the plan is built
// and tested without a GPU.
#include <cstddef>
#include <vector>

#include "potentials/RigidBodySystem.h"

namespace landscape {

/// Threads per block of the per-chunk block reductions (also the chunk length).
constexpr int kRigidBlockSize = 256;
/// Bodies of at most this many atoms are reduced by one warp.
constexpr int kRigidWarpBodyLimit = 32;

/// One block of a reduction pass: sums `count` (<= kRigidBlockSize) inputs starting at `begin`
/// for body `body` and writes partial `out`, or (out < 0) the body's rigid gradient. Pass 0 reads
/// body entries (atoms in body order); pass k > 0 reads the partials written by pass k - 1.
struct RigidPassBlock {
  int body;
  int begin;
  int count;
  int out;
};

struct RigidReductionPlan {
  std::vector<int> warpBodies;                      ///< bodies of <= kRigidWarpBodyLimit atoms
  std::vector<std::vector<RigidPassBlock>> passes;  ///< block tables, pass 0 first
  std::size_t maxPartials = 0;                      ///< largest partial count of any pass
};

RigidReductionPlan makeRigidReductionPlan(const RigidBodySystem& system);

}  // namespace landscape
