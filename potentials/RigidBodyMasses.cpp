#include "potentials/RigidBodyMasses.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"

namespace landscape {

void RigidBodyMasses::check(const RigidBodySystem& system) const {
  require(bodies.size() == system.bodyCount(),
          "rigid-body masses: " + std::to_string(bodies.size()) + " bodies for a system of " +
              std::to_string(system.bodyCount()));
  require(freeAtomMasses.size() == system.freeAtomCount(),
          "rigid-body masses: " + std::to_string(freeAtomMasses.size()) +
              " free-atom masses for a system of " + std::to_string(system.freeAtomCount()) +
              " free atoms");
  for (const RigidBodyMass& b : bodies)
    require(std::isfinite(b.mass) && b.mass > 0.0, "rigid-body masses: a body's mass must be > 0");
  for (double m : freeAtomMasses)
    require(std::isfinite(m) && m > 0.0, "rigid-body masses: a free atom's mass must be > 0");
}

RigidBodyMasses rigidBodyMassesOfAtoms(const RigidBodySystem& system,
                                       const std::vector<double>& atomMasses) {
  require(atomMasses.size() == system.atomCount(),
          "rigid-body masses: " + std::to_string(atomMasses.size()) + " masses for " +
              std::to_string(system.atomCount()) + " atoms");
  for (double m : atomMasses)
    require(std::isfinite(m) && m >= 0.0, "rigid-body masses: an atom's mass must be >= 0");
  RigidBodyMasses out;
  const std::vector<double>& offsets = system.referenceOffsets();
  for (std::size_t b = 0; b < system.bodyCount(); ++b) {
    RigidBodyMass body;
    for (std::size_t e = system.bodyStart()[b]; e < system.bodyStart()[b + 1]; ++e) {
      const double m = atomMasses[system.bodyAtoms()[e]];
      const double* s = &offsets[3 * e];
      body.mass += m;
      for (int i = 0; i < 3; ++i) {
        body.firstMoment[i] += m * s[i];
        for (int j = 0; j < 3; ++j) body.secondMoment[3 * i + j] += m * s[i] * s[j];
      }
    }
    out.bodies.push_back(body);
  }
  for (std::size_t a : system.freeAtoms()) out.freeAtomMasses.push_back(atomMasses[a]);
  out.check(system);
  return out;
}

RigidBodyMass rigidBodyMassOfInertia(double mass, const std::array<double, 3>& moments,
                                     const std::array<double, 9>& axes) {
  require(std::isfinite(mass) && mass > 0.0, "rigid-body mass must be > 0 (amu)");
  for (double i : moments)
    require(std::isfinite(i) && i > 0.0, "rigid-body moments of inertia must be > 0");
  const double half = 0.5 * (moments[0] + moments[1] + moments[2]);
  // S's principal values, half tr I - I_k, are sums m s_k^2 >= 0: the triangle inequality. A
  // planar body (water) has one of them zero, which published moments rounded to 4 figures can
  // undershoot by 1e-4: allowed down to -1e-3 of the largest moment.
  const double largest = std::max(moments[0], std::max(moments[1], moments[2]));
  for (double i : moments)
    require(half - i >= -1e-3 * largest,
            "rigid-body moments of inertia break the triangle inequality (each must be at most "
            "the sum of the other two)");
  RigidBodyMass body;
  body.mass = mass;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        body.secondMoment[3 * i + j] += (half - moments[k]) * axes[3 * i + k] * axes[3 * j + k];
  return body;
}

}  // namespace landscape
