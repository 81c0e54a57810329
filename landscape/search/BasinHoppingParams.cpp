#include "landscape/search/BasinHoppingParams.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"

namespace landscape {

void BasinHoppingParams::check() const {
  require(steps >= 0, "basin-hopping steps must be >= 0");
  require(std::isfinite(temperature) && temperature > 0.0, "temperature kT must be > 0 (energy)");
  require(std::isfinite(stepSize) && stepSize >= 0.0, "step size must be >= 0 (length)");
  require(std::isfinite(angularThreshold) && angularThreshold >= 0.0,
          "angular-move threshold (STEP 2nd field) must be >= 0");
  require(stepAdjustInterval >= 1, "step-adjust interval (NACCEPT) must be >= 1");
  require(targetAcceptance > 0.0 && targetAcceptance < 1.0,
          "target acceptance ratio must be in (0, 1)");
  require(stepAdjustFactor >= 1.0, "step-adjust factor must be >= 1");
  require(saveCount >= 1, "SAVE must keep at least 1 minimum");
  require(std::isfinite(energyDifference) && energyDifference >= 0.0, "EDIFF must be >= 0 (energy)");
  require(sloppyRms > 0.0 && tightRms > 0.0, "convergence RMS gradients must be > 0");
  require(sloppyMaxIterations >= 1 && tightMaxIterations >= 1, "MAXIT values must be >= 1");
  require(std::isfinite(containerRadius) && containerRadius >= 0.0,
          "container radius must be >= 0 (0 = default)");
  require(newRestartSteps >= 0, "NEWRESTART steps must be >= 0");
  require(std::isfinite(avoidDistance) && avoidDistance >= 0.0, "AVOID distance must be >= 0");
  require(avoidMaxSaved >= 0, "AVOID list length must be >= 0");
  require(crowdLimit >= 0, "the crowd limit (walkers per minimum) must be >= 0");
  require(avoidDistance == 0.0 || avoidMaxSaved >= 1,
          "AVOID needs a list length >= 1 when its distance is > 0");
  require(!targetEnergy || std::isfinite(*targetEnergy), "target energy must be finite");
  require(dumpInterval >= 0, "DUMPINT must be >= 0");
  require(coldFusionDrop > 0.0, "cold-fusion drop must be > 0 (energy; infinity = off)");
  lbfgs.check();
  symmetrisation.check();
}

BasinHoppingParams gminLj38ExampleParams() {
  BasinHoppingParams p;         // keywords the example leaves out keep these defaults
  p.sloppyRms = 5.0e-3;         // SLOPPYCONV 5.0D-3
  p.tightRms = 1.0e-3;          // TIGHTCONV 1.0D-3
  p.energyDifference = 0.003;   // EDIFF 0.003
  p.sloppyMaxIterations = 600;  // MAXIT 600 500
  p.tightMaxIterations = 500;
  p.saveCount = 2;        // SAVE 2
  p.centre = true;        // CENTRE
  p.dumpInterval = 6000;  // DUMPINT 6000
  p.temperature = 1.0;    // TEMPERATURE 1.0
  p.steps = 5000;         // STEPS 5000 1.0
  p.stepSize = 0.40;      // STEP 0.40 0.51
  p.angularThreshold = 0.51;
  p.newRestartSteps = 40;  // NEWRESTART 40
  p.avoidDistance = 4.0;   // AVOID 4.0 20 F
  p.avoidMaxSaved = 20;
  p.avoidReseeds = false;  // the F of AVOID 4.0 20 F
  return p;
}

BasinHoppingParams gminAmberDefaultParams() {
  BasinHoppingParams p;
  p.steps = 100;
  p.temperature = 0.6;
  p.stepSize = 0.3;
  p.angularThreshold = 0.0;
  p.saveCount = 10;
  p.energyDifference = 0.01;
  p.sloppyRms = 1e-2;
  p.sloppyMaxIterations = 20000;
  p.tightRms = 1e-4;
  p.tightMaxIterations = 50000;
  p.container = false;
  p.centre = true;
  return p;
}

BasinHoppingParams gminWaterDefaultParams() {
  BasinHoppingParams p;
  p.steps = 10000;
  p.temperature = 4.0;
  p.stepSize = 0.0;
  p.angularThreshold = 0.0;
  p.saveCount = 10;
  p.energyDifference = 0.01;
  p.sloppyRms = 0.1;
  p.sloppyMaxIterations = 10000;
  p.tightRms = 1e-4;
  p.tightMaxIterations = 50000;
  p.lbfgs.maxStep = 0.5;
  p.container = false;
  p.centre = true;
  return p;
}

}  // namespace landscape
