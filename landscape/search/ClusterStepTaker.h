#pragma once
// GMIN's basin-hopping perturbation for atomic clusters (GMIN takestep):
//  - the most weakly bound atom (highest per-atom energy) is moved to the surface at random
//    angles, at distance (max distance from the centre of mass + 1), when its energy is above
//    angularThreshold x (lowest per-atom energy) (GMIN's second STEP field, ASTEP);
//  - every other atom gets a random Cartesian displacement, uniform in [-step, step] per
//    coordinate;
//  - no atom is left outside the spherical container.
#include <vector>

#include "landscape/core/Random.h"

namespace landscape {

struct ClusterStepSummary {
  int angularMovedAtom = -1;  ///< index of the atom moved to the surface, -1 if none
};

class ClusterStepTaker {
 public:
  /// containerRadius > 0 (length); angularThreshold 0 disables angular moves.
  ClusterStepTaker(double containerRadius, double angularThreshold);

  /// Perturbs x in place. atomEnergies (one per atom, GMIN's VAT) may be empty when the potential
  /// cannot provide them; angular moves are then skipped. A zero stepSize draws no displacement
  /// (only atoms outside the container are pulled in), so it takes no random numbers but the
  /// angular move's.
  ClusterStepSummary takeStep(std::vector<double>& x, double stepSize,
                              const std::vector<double>& atomEnergies, Random& random) const;

 private:
  double m_radius;
  double m_angularThreshold;
};

}  // namespace landscape
