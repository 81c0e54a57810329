#include "landscape/minimisation/BatchedTeamPlan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "landscape/core/PairTileSchedule.h"

namespace landscape {

std::size_t lbfgsTeamSharedBytes(std::size_t n, int m, int warps) {
  return sizeof(double) *
         static_cast<std::size_t>(lbfgsTeamStorageDoubles(static_cast<int>(n), m, warps));
}

int teamsPerSm(std::size_t n, int m, int warps, const SharedMemoryLimits& limits) {
  const std::size_t bytes = lbfgsTeamSharedBytes(n, m, warps);
  if (bytes > limits.perBlock) return 0;
  const std::size_t bySharedMemory = limits.perSm / (bytes + limits.reservedPerBlock);
  return static_cast<int>(
      std::min<std::size_t>({bySharedMemory, static_cast<std::size_t>(limits.maxBlocksPerSm),
                             static_cast<std::size_t>(limits.maxWarpsPerSm / warps)}));
}

namespace {

int chooseWarps(std::size_t n, int m, const SharedMemoryLimits& limits) {
  int best = 0, bestWarps = 0;
  for (int warps : {1, 2, 4, 8}) {
    const int resident = teamsPerSm(n, m, warps, limits) * warps;
    if (resident >= kTargetWarpsPerSm) return warps;
    if (resident > bestWarps) {
      best = warps;
      bestWarps = resident;
    }
  }
  return best;
}

}  // namespace

BatchedTeamShape resolveTeamShape(BatchedTeamShape requested, std::size_t atoms, int m,
                                  const SharedMemoryLimits& limits) {
  const std::size_t n = 3 * atoms;
  if (requested.warps != 0 && requested.warps != 1 && requested.warps != 2 &&
      requested.warps != 4 && requested.warps != 8)
    throw std::invalid_argument("batched team: warps per structure must be 1, 2, 4 or 8, got " +
                                std::to_string(requested.warps));
  const int warps = requested.warps != 0 ? requested.warps : chooseWarps(n, m, limits);
  if (warps == 0 || teamsPerSm(n, m, warps, limits) == 0)
    throw std::invalid_argument(
        "the GPU batched L-BFGS keeps a structure in shared memory: " + std::to_string(atoms) +
        " atoms with history m = " + std::to_string(m) + " need " +
        std::to_string(lbfgsTeamSharedBytes(n, m, std::max(warps, 1))) +
        " bytes per block, at most " + std::to_string(limits.perBlock) +
        " are available; use a smaller history or the cpu backend");
  BatchedTeamShape shape{warps, requested.tileWidth};
  if (shape.tileWidth == 0)
    shape.tileWidth = choosePairTileWidth(static_cast<int>(atoms), 32 * warps);
  (void)buildPairTileSchedule(static_cast<int>(atoms), shape.tileWidth, 32 * warps);  // checks
  return shape;
}

LbfgsTeamSettings lbfgsTeamSettings(const LbfgsParams& params, std::size_t n) {
  return {static_cast<int>(n), params.historySize,   params.initialGuess,  params.maxStep,
          params.maxRise,      params.maxBacktracks, params.maxIterations, params.rmsTolerance};
}

}  // namespace landscape
