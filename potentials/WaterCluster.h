#pragma once
// Rigid TIP4P water clusters (Jorgensen, Chandrasekhar, Madura, Impey and Klein, J. Chem. Phys. 79,
// 926 (1983)) as GMIN defines them (keyword NTIP 4): four sites per molecule, O (no charge, the
// only Lennard-Jones site), two H (+0.52 e) and the massless M site (-1.04 e) on the HOH bisector
// 0.15 Angstrom from O. The sites interact by potentials/SitePotential (intramolecular pairs
// excluded) and RigidBodyPotential makes each molecule one rigid body (no free atoms).
//
// Units: kJ/mol and Angstrom, GMIN's and the Cambridge Cluster Database's units for TIP4P.
//
// GMIN's rigid coordinates (its TIP4P coords file): the N oxygen positions, then N angle-axis
// vectors p; its TIP4P routine places the sites at O + R(-p) s0 = O + R(p)^T s0, with R the
// standard Rodrigues matrix of RigidBodyTerms.h and s0 the body frame below (its x component
// c2a s0x - c3a l (l . s0) + (n s0y - m s0z) s, with (l, m, n) = p, c2a = cos a, c3a = (cos a - 1)
// / a^2 and s = sin a / a, is R(-p) s0). Our rigid coordinates are RigidBodySystem's: centres of
// geometry of the 4 sites and the standard rotation R(p) of the body frame.
#include <cstddef>
#include <vector>

#include "potentials/RigidBodyMasses.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/SiteModel.h"

namespace landscape {

/// TIP4P in GMIN's units (Jorgensen et al. 1983, Table I: A = 600e3 kcal/mol A^12 and C = 610
/// kcal/mol A^6, times 4.184 kJ/kcal): O-O C6 (kJ/mol A^6), C12 (kJ/mol A^12), charges (e) and
/// the Coulomb constant (kJ/mol A / e^2) GMIN uses.
constexpr double kTip4pC6 = 2552.24;
constexpr double kTip4pC12 = 2510.4e3;
constexpr double kTip4pChargeH = 0.52;
constexpr double kTip4pChargeM = -1.04;
constexpr double kTip4pCoulomb = 1389.354848;

/// One TIP4P molecule in GMIN's body frame (Angstrom), sites O, H, H, M: O at the origin, H at
/// (+-0.756950327, 0, -0.5858822760) (r_OH 0.9572, HOH 104.52 degrees), M at (0, 0, -0.15).
std::vector<double> tip4pBodyFrame();

struct WaterCluster {
  SiteModel model;                ///< 4 sites per molecule, O H H M, molecule-major
  RigidBodySet bodies;            ///< one body of the 4 sites of each molecule, no free atoms
  std::vector<double> bodyFrame;  ///< 3 x 4 sites of one molecule in GMIN's body frame

  std::size_t moleculeCount() const { return model.moleculeCount(); }
  std::size_t sitesPerMolecule() const { return bodyFrame.size() / 3; }
  /// Every molecule in the body frame (3 x siteCount()): the reference geometry, so that p = 0
  /// in our rigid coordinates is GMIN's p = 0.
  std::vector<double> referenceSites() const;
  /// RigidBodySystem(bodies, referenceSites()).
  RigidBodySystem rigidSystem() const;
  /// The molecules' masses on their sites, as TIP4P has them: O 15.9994 and H 1.008 amu (AMBER's
  /// masses), M none.
  RigidBodyMasses masses() const;

  /// GMIN's rigid coordinates (6N: oxygens, then angle-axis vectors) to site Cartesians (3 x 4N):
  /// site = O + R(-p) s0. Throws std::invalid_argument when the size is not 6N.
  std::vector<double> gminToSites(const std::vector<double>& gmin) const;
  /// The inverse (exact for rigid molecules; the best fit otherwise), |p| <= pi.
  std::vector<double> sitesToGmin(const std::vector<double>& sites) const;
  /// Our rigid coordinates (centres of geometry, then standard angle-axis vectors) of GMIN's
  /// coordinates: rigidSystem().fromAtoms(gminToSites(gmin)).
  std::vector<double> gminToRigid(const std::vector<double>& gmin) const;
};

/// N rigid TIP4P molecules (N >= 2), model name "TIP4P water x N". Throws std::invalid_argument
/// for N < 2.
WaterCluster tip4pCluster(std::size_t molecules);

}  // namespace landscape
