#pragma once
// What the GPU's batched L-BFGS kernel (gpu/BatchedLbfgsCuda) and its CPU twin (BatchedLbfgsTwin)
// share on the host: the team shape (warps per structure, pair tile width) chosen from the shared
// memory one structure needs, and the conversions between LbfgsParams/LbfgsResult and the
// plain structs of landscape/minimisation/LbfgsTeamTerms.h.
#include <cstddef>

#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/LbfgsTeamTerms.h"

namespace landscape {

/// Shared-memory limits of one GPU; the defaults are those of the H100 and H200 (sm_90).
struct SharedMemoryLimits {
  std::size_t perSm = 228 * 1024;       ///< bytes per multiprocessor
  std::size_t perBlock = 227 * 1024;    ///< bytes one block may opt in to
  std::size_t reservedPerBlock = 1024;  ///< bytes the runtime keeps per resident block
  int maxBlocksPerSm = 32;
  int maxWarpsPerSm = 64;
};

/// Warps per multiprocessor the shape chooser aims for: enough to hide FP64 and shared-memory
/// latency (4 per scheduler).
constexpr int kTargetWarpsPerSm = 16;

/// Bytes of dynamic shared memory of one team (lbfgsTeamStorageDoubles doubles).
std::size_t lbfgsTeamSharedBytes(std::size_t n, int m, int warps);

/// Fills in the zeros of `requested`: warps is the smallest of 1, 2, 4, 8 that puts
/// kTargetWarpsPerSm warps on a multiprocessor (else the one that puts most), the tile width is
/// choosePairTileWidth's. Throws std::invalid_argument when a structure does not fit in one
/// block's shared memory (naming the bytes), or for a requested value out of range.
BatchedTeamShape resolveTeamShape(BatchedTeamShape requested, std::size_t atoms, int m,
                                  const SharedMemoryLimits& limits);

/// Resident teams per multiprocessor for `shape` (0 if one does not fit).
int teamsPerSm(std::size_t n, int m, int warps, const SharedMemoryLimits& limits);

LbfgsTeamSettings lbfgsTeamSettings(const LbfgsParams& params, std::size_t n);

}  // namespace landscape
