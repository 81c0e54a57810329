#pragma once
// Rigid TIP4P water clusters (Jorgensen, Chandrasekhar, Madura, Impey and Klein, J. Chem. Phys. 79,
// 926 (1983)) as GMIN defines them (keyword NTIP 4): four sites per molecule, O (no charge, the
// only Lennard-Jones site), two H (+0.52 e) and the massless M site (-1.04 e) on the HOH bisector
// 0.15 Angstrom from O. The sites interact by potentials/SitePotential (intramolecular pairs
// excluded) and RigidBodyPotential makes each molecule one rigid body.
//
// Ions among the molecules (Na+, Cl-: point beads of charge +-1 e with a Lennard-Jones core) are
// one-site molecules after the water's sites: free atoms of the rigid layer, which carry no
// orientation. Their parameters are OPLS-AA's, whose geometric combination rule SiteTerms.h uses.
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
#include <string>
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

/// A point ion among TIP4P molecules: one site with a charge and a Lennard-Jones core
/// (4 epsilon ((sigma/r)^12 - (sigma/r)^6), combined geometrically with the oxygen's and other
/// ions' cores, as OPLS-AA does).
struct WaterIon {
  std::string name;     ///< as --ions takes it: "Na+", "Cl-"
  std::string element;  ///< its label in output files: "Na", "Cl"
  double charge = 0;    ///< e
  double sigma = 0;     ///< Angstrom
  double epsilon = 0;   ///< kJ/mol
  double mass = 0;      ///< amu
  double c6() const;    ///< 4 epsilon sigma^6 (kJ/mol A^6)
  double c12() const;   ///< 4 epsilon sigma^12 (kJ/mol A^12)
};

/// The ions known by name, OPLS-AA's monovalent pair as GROMACS distributes it (oplsaa.ff,
/// ffnonbonded.itp): Na+ (type opls_407, sigma 3.33045 A, epsilon 0.0115980 kJ/mol; Aqvist, J.
/// Phys. Chem. 94, 8021 (1990)) and Cl- (opls_401, sigma 4.41724 A, epsilon 0.492833 kJ/mol;
/// Chandrasekhar, Spellmeyer and Jorgensen, J. Am. Chem. Soc. 106, 903 (1984), fitted with
/// TIP4P water); masses 22.98977 and 35.453 amu.
const std::vector<WaterIon>& tip4pIonTypes();

/// The ions of a list "NAME[:COUNT],..." (e.g. "Na+:2,Cl-:2"; COUNT 1 when omitted), in the
/// list's order, each repeated COUNT times; "" gives none. Throws std::invalid_argument naming the
/// bad entry: an unknown name (the message lists the known ones), a count that is not a positive
/// integer, an empty entry.
std::vector<WaterIon> tip4pIonsFromList(const std::string& list);

struct WaterCluster {
  /// 4 sites per molecule, O H H M, molecule-major; then one site per ion (a one-site molecule
  /// each).
  SiteModel model;
  RigidBodySet bodies;            ///< one body of the 4 sites of each molecule; the ions free
  std::vector<double> bodyFrame;  ///< 3 x 4 sites of one molecule in GMIN's body frame
  std::vector<WaterIon> ions;     ///< the ions, in site order

  /// Water molecules (the ions not counted).
  std::size_t moleculeCount() const { return model.moleculeCount() - ions.size(); }
  std::size_t ionCount() const { return ions.size(); }
  std::size_t sitesPerMolecule() const { return bodyFrame.size() / 3; }
  /// Output labels of the sites: O H H X per molecule, then each ion's element.
  std::vector<std::string> siteLabels() const;
  /// Every molecule in the body frame (3 x siteCount()): the reference geometry, so that p = 0
  /// in our rigid coordinates is GMIN's p = 0; the ions at the origin (free atoms have no
  /// reference).
  std::vector<double> referenceSites() const;
  /// RigidBodySystem(bodies, referenceSites()): 6N + 3K rigid coordinates, the K ions' Cartesians
  /// last.
  RigidBodySystem rigidSystem() const;
  /// The molecules' masses on their sites, as TIP4P has them: O 15.9994 and H 1.008 amu (AMBER's
  /// masses), M none; the ions' own.
  RigidBodyMasses masses() const;

  /// GMIN's rigid coordinates (6N + 3K: oxygens, then angle-axis vectors, then the ions'
  /// positions, an extension of GMIN's layout) to site Cartesians (3 x (4N + K)): site = O +
  /// R(-p) s0. Throws std::invalid_argument when the size is not 6N + 3K.
  std::vector<double> gminToSites(const std::vector<double>& gmin) const;
  /// The inverse (exact for rigid molecules; the best fit otherwise), |p| <= pi.
  std::vector<double> sitesToGmin(const std::vector<double>& sites) const;
  /// Our rigid coordinates (centres of geometry, then standard angle-axis vectors, then the ions)
  /// of GMIN's coordinates: rigidSystem().fromAtoms(gminToSites(gmin)).
  std::vector<double> gminToRigid(const std::vector<double>& gmin) const;
};

/// N rigid TIP4P molecules and the given ions, model name "TIP4P water x N" (with ions e.g.
/// "TIP4P water x N + Na+ x 1 + Cl- x 1", counts of consecutive equal ions). Throws
/// std::invalid_argument for N = 0 or fewer than 2 molecules and ions together.
WaterCluster tip4pCluster(std::size_t molecules, const std::vector<WaterIon>& ions = {});

}  // namespace landscape
