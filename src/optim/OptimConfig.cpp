#include "src/optim/OptimConfig.h"

#include <algorithm>
#include <stdexcept>

namespace landscape {

void OptimSettings::applySeed() {
  network.alignment.seed = seed;
  connect.dneb.alignment.seed = seed;
  connect.transitionStateSearch.seed = seed;
}

void OptimSettings::check() const {
  connect.check();
  try {
    network.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("network: ") + e.what());
  }
  try {
    endpointMinimiser.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("endpoint minimiser: ") + e.what());
  }
  characterisation.check();
}

void raiseDnebRandomOrientations(DnebParams& dneb, int n) {
  dneb.alignment.randomOrientations =
      std::max(n, DnebParams::thoroughAlignment().randomOrientations);
}

OptimSettings optimKeywordDefaults() {
  OptimSettings s;
  // OPTIM's switches are off unless their keyword is present.
  s.network.alignment.permutations = false;
  s.connect.dneb.alignment.permutations = false;
  s.reoptimiseEndpoints = false;
  s.endpointMinimiser = s.connect.descent.minimiser;
  s.applySeed();
  return s;
}

OptimSettings optimLj38ExampleSettings() {
  OptimSettings s;
  ConnectParams& c = s.connect;
  c.maxCycles = 100;  // NEWCONNECT 100 1 20.0 20.0 30 0.0 0.025
  c.maxTriesPerPair = 1;
  c.dneb.imageDensity = 20.0;
  c.dneb.iterationDensity = 20.0;
  c.dneb.maxImages = 30;
  c.dneb.rmsTolerance = 0.025;
  c.firstImages = 50;  // NEWNEB 50 500 0.025
  c.firstIterations = 500;
  c.dneb.springConstant = 10.0;             // NEBK 10.0
  c.distancePower = 1.0;                    // DIJKSTRA 1
  s.network.alignment.permutations = true;  // PERMDIST 0.01D0
  c.dneb.alignment.permutations = true;
  // RANROT 5; the DNEB keeps its thorough endpoint alignment (DnebParams::thoroughAlignment).
  s.network.alignment.randomOrientations = 5;
  s.network.energyTolerance = 1e-6;   // EDIFFTOL 1.0D-6
  s.network.geometryTolerance = 0.2;  // GEOMDIFFTOL 0.2
  LbfgsParams& m = c.descent.minimiser;
  m.rmsTolerance = 1e-6;   // BFGSMIN 1.0D-6
  m.historySize = 10;      // UPDATES 10 10
  m.maxIterations = 5000;  // BFGSSTEPS 5000
  m.maxStep = 0.2;         // MAXBFGS 0.2 0.2
  c.transitionStateSearch.tangentSpace.historySize = 10;
  c.transitionStateSearch.tangentSpace.maxStep = 0.2;
  c.descent.pushoff = 0.02;      // PUSHOFF 0.02
  s.reoptimiseEndpoints = true;  // REOPTIMISEENDPOINTS
  s.endpointMinimiser = m;
  c.transitionStateSearch.maxIterations = 200;                    // STEPS 200
  c.transitionStateSearch.rayleighRitz.lbfgs.maxIterations = 50;  // BFGSTS 50 3 25 0.0001
  c.transitionStateSearch.tangentIterationsBefore = 3;
  c.transitionStateSearch.tangentIterationsAfter = 25;
  c.transitionStateSearch.rayleighRitz.lbfgs.rmsTolerance = 1e-4;
  c.transitionStateSearch.initialUphillStep = 0.1;  // MAXSTEP 0.1
  c.transitionStateSearch.maxUphillStep = 0.2;      // MAXMAX 0.2
  c.transitionStateSearch.trustRatio = 0.2;         // TRAD 0.2
  s.applySeed();
  return s;
}

OptimSettings optimAmberDefaultSettings() {
  OptimSettings s;  // hybrid EF, Rayleigh-Ritz and L-BFGS: the library defaults (Mantell, Pitt and
                    // Wales, J. Chem. Theory Comput. 2016, section 3.3)
  ConnectParams& c = s.connect;
  c.maxCycles = 50;  // NEWCONNECT 50 3 4.0 30.0 30
  c.maxTriesPerPair = 3;
  c.dneb.imageDensity = 4.0;  // images per Angstrom of aligned endpoint distance
  c.dneb.iterationDensity = 30.0;
  c.dneb.maxImages = 30;
  c.firstImages = 10;  // Mantell et al. 2016, section 3.3: 10 images, 300 iterations, m = 4
  c.firstIterations = 300;
  c.dneb.rmsTolerance = 0.01;    // kcal/mol/A
  c.dneb.springConstant = 10.0;  // kcal/mol/A^2
  // An image 100 kcal/mol below both endpoints is a hydroxyl hydrogen falling onto an oxygen
  // (no Lennard-Jones repulsion on AMBER's HO), not an intermediate minimum.
  c.dneb.coldFusionDrop = 100.0;
  // Chiral molecules: no inversion; permutations only within perm.allow groups (optim_main).
  for (AlignmentParams* a : {&s.network.alignment, &c.dneb.alignment}) {
    a->inversion = false;
    a->permutations = false;
  }
  s.network.energyTolerance = 1e-4;   // EDIFFTOL, kcal/mol
  s.network.geometryTolerance = 0.1;  // GEOMDIFFTOL, Angstrom
  LbfgsParams& m = c.descent.minimiser;
  m.rmsTolerance = 1e-5;  // BFGSMIN, kcal/mol/A
  m.historySize = 10;
  m.maxIterations = 20000;
  m.maxStep = 0.4;           // Angstrom
  c.descent.pushoff = 0.05;  // Angstrom
  s.reoptimiseEndpoints = true;
  s.endpointMinimiser = m;
  // The Hessian of a stationary point is a finite-difference one (NumericalHessian), mass-weighted
  // with the prmtop's masses (OptimSystem): 6N gradient calls and one Cholesky factorisation for
  // the log product at any size; all 3N eigenvalues (path.info) up to the spectrum cap.
  s.characterisation.pointGroup.distanceTolerance = 1e-2;  // Angstrom
  s.applySeed();
  return s;
}

}  // namespace landscape
