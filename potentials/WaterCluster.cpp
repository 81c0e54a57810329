#include "potentials/WaterCluster.h"

#include <cmath>  // RigidBodyTerms.h calls sqrt, sin, cos
#include <stdexcept>
#include <string>

#include "potentials/RigidBodyTerms.h"

namespace landscape {

std::vector<double> tip4pBodyFrame() {
  return {0.0,          0.0, 0.0,            //
          0.756950327,  0.0, -0.5858822760,  //
          -0.756950327, 0.0, -0.5858822760,  //
          0.0,          0.0, -0.15};
}

std::vector<double> WaterCluster::referenceSites() const {
  std::vector<double> x;
  x.reserve(3 * model.siteCount());
  for (std::size_t m = 0; m < moleculeCount(); ++m)
    x.insert(x.end(), bodyFrame.begin(), bodyFrame.end());
  return x;
}

RigidBodySystem WaterCluster::rigidSystem() const {
  return RigidBodySystem(bodies, referenceSites());
}

std::vector<double> WaterCluster::gminToSites(const std::vector<double>& gmin) const {
  const std::size_t n = moleculeCount(), k = sitesPerMolecule();
  if (gmin.size() != 6 * n)
    throw std::invalid_argument("GMIN rigid coordinates of " + std::to_string(n) +
                                " molecules need " + std::to_string(6 * n) + " numbers, got " +
                                std::to_string(gmin.size()));
  std::vector<double> x(3 * k * n);
  for (std::size_t m = 0; m < n; ++m) {
    const double minusP[3] = {-gmin[3 * (n + m)], -gmin[3 * (n + m) + 1], -gmin[3 * (n + m) + 2]};
    double R[9];
    rotationMatrix(minusP, R);
    for (std::size_t s = 0; s < k; ++s) {
      double r[3];
      matVec3(R, &bodyFrame[3 * s], r);
      for (int c = 0; c < 3; ++c) x[3 * (k * m + s) + c] = gmin[3 * m + c] + r[c];
    }
  }
  return x;
}

std::vector<double> WaterCluster::sitesToGmin(const std::vector<double>& sites) const {
  const std::size_t n = moleculeCount(), k = sitesPerMolecule();
  const std::vector<double> q = rigidSystem().fromAtoms(sites);  // sizes checked there
  // Our sites are c + R(p) (s0 - c0); GMIN's O + R(-p_gmin) s0, so p_gmin = -p and O is site 0.
  std::vector<double> gmin(6 * n);
  for (std::size_t m = 0; m < n; ++m)
    for (int c = 0; c < 3; ++c) {
      gmin[3 * m + c] = sites[3 * k * m + c];
      gmin[3 * (n + m) + c] = -q[3 * (n + m) + c];
    }
  return gmin;
}

std::vector<double> WaterCluster::gminToRigid(const std::vector<double>& gmin) const {
  return rigidSystem().fromAtoms(gminToSites(gmin));
}

RigidBodyMasses WaterCluster::masses() const {
  std::vector<double> atomMasses;
  for (std::size_t m = 0; m < moleculeCount(); ++m)
    atomMasses.insert(atomMasses.end(), {15.9994, 1.008, 1.008, 0.0});
  return rigidBodyMassesOfAtoms(rigidSystem(), atomMasses);
}

WaterCluster tip4pCluster(std::size_t molecules) {
  if (molecules < 2)
    throw std::invalid_argument("a TIP4P water cluster needs at least 2 molecules, got " +
                                std::to_string(molecules));
  WaterCluster w;
  w.bodyFrame = tip4pBodyFrame();
  SiteModel& s = w.model;
  const double charge[4] = {0.0, kTip4pChargeH, kTip4pChargeH, kTip4pChargeM};
  for (std::size_t m = 0; m < molecules; ++m)
    for (int k = 0; k < 4; ++k) {
      s.molecule.push_back(m);
      s.charge.push_back(charge[k]);
      s.c6.push_back(k == 0 ? kTip4pC6 : 0.0);
      s.c12.push_back(k == 0 ? kTip4pC12 : 0.0);
    }
  s.coulomb = kTip4pCoulomb;
  s.energyUnit = "kJ/mol";
  s.lengthUnit = "Angstrom";
  s.name = "TIP4P water x " + std::to_string(molecules);
  s.check();
  w.bodies = RigidBodySet(4 * molecules);
  for (std::size_t m = 0; m < molecules; ++m)
    w.bodies.addBody({4 * m, 4 * m + 1, 4 * m + 2, 4 * m + 3});
  return w;
}

}  // namespace landscape
