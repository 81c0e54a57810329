#include "landscape/search/RigidBodySearch.h"

#include <cmath>
#include <vector>

#include "landscape/geometry/ClusterGeometry.h"

namespace landscape {

void installRigidBodyHooks(const RigidBodySystem& system, const RigidBodyMoveParams& moves,
                           double startRadius, BasinHoppingHooks& hooks) {
  const RigidBodySystem* rigid = &system;
  hooks.extraMove = [rigid, moves, atomisticMove = hooks.extraMove](std::vector<double>& q,
                                                                    Random& random) {
    if (moves.active()) moveRigidBodies(*rigid, moves, q, random);
    if (atomisticMove) {
      std::vector<double> x = rigid->toAtoms(q);
      atomisticMove(x, random);
      q = rigid->fromAtoms(x);
    }
    rigid->canonicalise(q);
  };
  // CENTRE and the container act on the atoms: translate centres and free atoms together. The
  // atoms' centroid needs no atoms: a body's centre is its atoms' centroid (RigidBodySystem: the
  // reference offsets of a body sum to zero), so it is the centres weighted by body size, with the
  // free atoms.
  hooks.centre = [rigid](std::vector<double>& q) {
    const std::size_t B = rigid->bodyCount();
    const double atoms = static_cast<double>(rigid->atomCount());
    double c[3] = {0.0, 0.0, 0.0};
    for (std::size_t b = 0; b < B; ++b) {
      const double share = static_cast<double>(rigid->bodySize(b)) / atoms;
      for (int k = 0; k < 3; ++k) c[k] += share * q[3 * b + k];
    }
    for (std::size_t f = 0; f < rigid->freeAtomCount(); ++f)
      for (int k = 0; k < 3; ++k) c[k] += q[6 * B + 3 * f + k] / atoms;
    rigid->translate(q, -c[0], -c[1], -c[2]);
  };
  hooks.maxRadius = [rigid](const std::vector<double>& q) { return maxRadius(rigid->toAtoms(q)); };
  if (hooks.rejectReason) {
    hooks.rejectReason = [rigid,
                          atomisticCheck = hooks.rejectReason](const std::vector<double>& q) {
      return atomisticCheck(rigid->toAtoms(q));
    };
  }
  if (startRadius > 0.0)
    hooks.randomStructure = [rigid, startRadius](Random& random) {
      return randomRigidStructure(*rigid, startRadius, random);
    };
}

RigidBodyMoveParams waterRigidBodyMoves() {
  RigidBodyMoveParams moves;
  moves.translation = 0.5;
  moves.rotation = 3.14159265358979323846;
  moves.probability = 0.25;
  return moves;
}

double waterStartRadius(std::size_t molecules) {
  return 2.5 * std::cbrt(static_cast<double>(molecules));
}

RigidClusterSearch gayBerneClusterSearch(const GayBerneParams& gb, std::size_t ellipsoids) {
  gb.check();
  RigidClusterSearch d;
  BasinHoppingParams& p = d.params;
  p.temperature = 1.0 * gb.eps0;
  p.stepSize = 0.0;
  p.angularThreshold = 0.0;
  p.container = false;
  p.centre = true;
  p.saveCount = 5;
  p.energyDifference = 1e-4 * gb.eps0;
  p.sloppyRms = 1e-4 * gb.eps0 / gb.sigma0;
  p.sloppyMaxIterations = 5000;
  p.tightRms = 1e-7 * gb.eps0 / gb.sigma0;
  p.tightMaxIterations = 20000;
  p.newRestartSteps = 0;
  p.avoidDistance = 0.0;
  d.moves.translation = 0.5 * gb.sigma0;
  d.moves.rotation = 0.6;
  d.startRadius = 1.5 * gb.kappa * gb.sigma0 * std::cbrt(static_cast<double>(ellipsoids));
  const GayBerneCluster lattice = gayBerneCluster(gb, ellipsoids);
  d.start = lattice.rigidSystem().fromAtoms(lattice.referenceMarkers);
  return d;
}

}  // namespace landscape
