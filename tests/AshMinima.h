#pragma once
// Two distinct minima of Ace-Ash-Nme (gb/ash, 25 atoms) on AMBER-GB for connect tests: the
// minimised rst7 structure, and the minimum reached after turning the side chain's chi1 dihedral
// (N-CA-CB-CG) by 120 degrees. 0-based atoms: 8 CA, 10 CB, 11 HB2, 12 HB3, 13 CG, 14 OD1,
// 15 OD2, 16 HD2.
#include <Eigen/Geometry>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "backends/PotentialFactory.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "tests/TestData.h"

namespace landscape {

/// x with the atoms beyond CB (the side chain past the CA-CB bond) turned by `degrees` about the
/// CA -> CB axis.
inline std::vector<double> rotateAshChi1(std::vector<double> x, double degrees) {
  const int ca = 8, cb = 10;
  const Eigen::Vector3d origin(x[3 * cb], x[3 * cb + 1], x[3 * cb + 2]);
  const Eigen::Vector3d axis =
      (origin - Eigen::Vector3d(x[3 * ca], x[3 * ca + 1], x[3 * ca + 2])).normalized();
  const Eigen::Matrix3d r =
      Eigen::AngleAxisd(degrees * 3.14159265358979323846 / 180.0, axis).toRotationMatrix();
  for (int atom : {11, 12, 13, 14, 15, 16}) {
    Eigen::Vector3d p(x[3 * atom], x[3 * atom + 1], x[3 * atom + 2]);
    p = origin + r * (p - origin);
    for (int k = 0; k < 3; ++k) x[3 * atom + k] = p[k];
  }
  return x;
}

struct AshMinima {
  std::string prmtop, rst7;  ///< paths of the test data
  AmberTopology topology;
  std::vector<double> first, second;             ///< minima, Angstrom
  double firstEnergy = 0.0, secondEnergy = 0.0;  ///< kcal/mol

  /// The molecule as the factories take it (AMBER-GB, default parameters, double precision).
  PotentialSpec spec() const {
    PotentialSpec s;
    s.kind = PotentialSpec::Kind::AmberGb;
    s.atoms = static_cast<std::size_t>(topology.atomCount);
    s.amberTopology = std::make_shared<const AmberTopology>(topology);
    return s;
  }
};

/// The two minima (L-BFGS to RMS 1e-6 kcal/mol/A with the default AMBER-GB parameters), or
/// nullopt when the test data are missing.
inline std::optional<AshMinima> makeAshMinima(double rmsTolerance = 1e-6) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) return std::nullopt;
  AshMinima m;
  m.prmtop = *prmtop;
  m.rst7 = *rst7;
  m.topology = readAmberTopology(*prmtop);
  AmberGb potential(m.topology);
  LbfgsParams p;
  p.rmsTolerance = rmsTolerance;
  p.maxIterations = 20000;
  m.first = readAmberCoordinates(*rst7, m.topology).positions;
  Lbfgs(p).minimize(potential, m.first);
  m.second = rotateAshChi1(m.first, 120.0);
  Lbfgs(p).minimize(potential, m.second);
  m.firstEnergy = potential.energy(m.first.data());
  m.secondEnergy = potential.energy(m.second.data());
  return m;
}

}  // namespace landscape
