#pragma once
// The LJ13 walker settings of the walker tests: every piece of a chain's state is used (ASTEP,
// step adaptation, NEWRESTART reseeds and a wrapping AVOID taboo list), with GMIN's LJ38 example
// quench settings.
#include <cstdint>

#include "landscape/search/BasinHoppingParams.h"

namespace landscape {

inline BasinHoppingParams walkerParams(long steps, std::uint64_t seed) {
  BasinHoppingParams p;
  p.steps = steps;
  p.angularThreshold = 0.51;
  p.stepAdjustInterval = 7;
  p.saveCount = 4;
  p.energyDifference = 0.003;
  p.sloppyRms = 5e-3;
  p.sloppyMaxIterations = 600;
  p.tightRms = 1e-3;
  p.tightMaxIterations = 500;
  p.newRestartSteps = 6;
  p.avoidDistance = 1.0;
  p.avoidMaxSaved = 3;
  p.seed = seed;
  return p;
}

}  // namespace landscape
