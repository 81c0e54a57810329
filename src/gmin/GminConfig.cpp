#include "src/gmin/GminConfig.h"

namespace landscape {

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

}  // namespace landscape
