#pragma once
// The transition network as the output files store it: minima and transition states with the
// fields of PATHSAMPLE's min.data and ts.data (energy, log product of the positive Hessian
// eigenvalues, point-group order, principal moments of inertia, the two minima of each transition
// state) plus their coordinates and, where a finite-difference Hessian was affordable, its
// eigenvalues (OPTIM's path.info). Kept apart from Database.h, like StoredMinimum.h, so that
// algorithm and export code can build these without the HDF5 layer.
//
// StoredMinimum (basin-hopping's record) is unchanged; a network minimum carries the same fields
// plus the Hessian-derived ones, and the HDF5 file keeps both readable (docs/database.md).
//
// Units are the potential's (reduced epsilon and sigma for Lennard-Jones). Masses are unit masses
// for atomic clusters (PATHSAMPLE's convention for them), so Hessian eigenvalues are in
// energy/length^2 and moments of inertia in length^2; molecules (AMBER) use the atoms' masses in
// amu: a mass-weighted Hessian in kcal/mol / (amu Angstrom^2), moments in amu Angstrom^2
// (DatabaseMetadata::hessianMasses says which).
#include <array>
#include <limits>
#include <string>
#include <vector>

namespace landscape {

/// What characterises a stationary point beyond its energy and coordinates. Unknown values are
/// NaN (reals), 0 (point-group order) or empty (eigenvalues).
struct StationaryPointProperties {
  /// Sum of ln(lambda) over the positive Hessian eigenvalues once the six (five for a linear
  /// structure) rigid-body modes are removed; the negative one of a transition state is left out.
  /// PATHSAMPLE's second column (ln of energy/length^2 per factor with unit masses; of energy /
  /// (mass length^2) for a mass-weighted Hessian, DatabaseMetadata::hessianMasses). NaN = not
  /// computed.
  double logProductOfPositiveEigenvalues = std::numeric_limits<double>::quiet_NaN();
  /// All 3N eigenvalues of the finite-difference Hessian, ascending, rigid-body modes included
  /// (near zero); energy/length^2 (energy / (mass length^2) when mass-weighted). Empty = not
  /// computed (system above the spectrum size cap).
  std::vector<double> hessianEigenvalues;
  /// Order of the point group (landscape/geometry/PointGroup.h; 1 = C1, 48 = Oh). 0 = unknown.
  int pointGroupOrder = 0;
  /// Principal moments of inertia, ascending (mass x length^2, unit or atomic masses;
  /// landscape/geometry/InertiaTensor.h).
  std::array<double, 3> principalMoments = {std::numeric_limits<double>::quiet_NaN(),
                                            std::numeric_limits<double>::quiet_NaN(),
                                            std::numeric_limits<double>::quiet_NaN()};
};

struct StoredNetworkMinimum {
  double energy = 0.0;              ///< energy unit of the potential
  std::vector<double> coordinates;  ///< 3N Cartesians x1 y1 z1 x2 ..., length unit
  long firstFoundStep = -1;         ///< basin-hopping quench number; -1 = not from basin-hopping
  long functionCalls = -1;          ///< as StoredMinimum::functionCalls; -1 = unknown
  StationaryPointProperties properties;
};

struct StoredTransitionState {
  double energy = 0.0;              ///< energy unit of the potential
  std::vector<double> coordinates;  ///< 3N Cartesians, length unit
  int plusMinimum = -1;             ///< 0-based index into the minima, reached along +eigenvector
  int minusMinimum = -1;            ///< ... and along -eigenvector
  /// The negative Hessian eigenvalue found by the eigenvector search (energy/length^2, unit masses
  /// whatever the masses of the properties); NaN when
  /// unknown (e.g. read from PATHSAMPLE files, which do not carry it).
  double eigenvalue = std::numeric_limits<double>::quiet_NaN();
  StationaryPointProperties properties;
};

/// Where a growth run (`pathsample grow`, docs/pathsample.md) stands, saved with the network so
/// that `--resume` continues it exactly: the cycles done, PATHSAMPLE's list of the pairs already
/// tried (never tried again) and the candidate list still being worked through (recomputed when
/// empty). Pairs are 0-based indices into the minima.
struct GrowthRecord {
  int cycles = 0;        ///< growth cycles completed; 0 and empty lists: no growth run
  std::string settings;  ///< the run's pair-selection and connect settings (checked on resume)
  std::vector<std::array<int, 2>> triedPairs;    ///< in the order they were tried
  std::vector<std::array<int, 2>> pendingPairs;  ///< next first
  bool empty() const { return cycles == 0 && settings.empty() && triedPairs.empty() &&
                              pendingPairs.empty(); }
};

struct StoredTransitionNetwork {
  std::vector<StoredNetworkMinimum> minima;
  std::vector<StoredTransitionState> transitionStates;
  /// PATHSAMPLE's endpoint sets (min.A, min.B): 0-based indices into `minima`; empty = not set.
  /// Rates are quoted as PATHSAMPLE quotes them, k(A<-B) from B to A (docs/pathsample.md).
  std::vector<int> setA;
  std::vector<int> setB;
  GrowthRecord growth;  ///< the growth run that built the network, if any (/growth)
};

}  // namespace landscape
