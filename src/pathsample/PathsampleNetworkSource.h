#pragma once
// Where the modes of `pathsample` get their network (docs/pathsample.md, "Running in a PATHSAMPLE
// folder"): network.h5 (or a kinetics-only one, KineticsOnlyDatabase.h) or, run with a pathdata
// file and no --database, PATHSAMPLE's own files of --directory; and the units of --units in
// which temperatures are given and rates reported.
#include <string>

#include "landscape/network/Database.h"
#include "landscape/network/StoredNetwork.h"
#include "src/pathsample/PathsampleConfig.h"

namespace landscape {

/// --units molecular: kcal/mol or kJ/mol (the network's), temperatures in K, rates in s^-1.
bool usesMolecularUnits(const PathsampleConfig& c);
std::string reportedRateUnit(const PathsampleConfig& c);

/// What rates, committors and regroup work on: the network, where it came from, the factor from
/// its frequencies to the reported rate unit and kT per unit of temperature as the user gives it.
struct KineticsNetwork {
  StoredTransitionNetwork network;
  std::string source;       ///< the database, or "DIR/min.data" for PATHSAMPLE files
  std::string setNames;     ///< "min.A and min.B of DIR" or "the endpoint sets of DB"
  double rateFactor = 1.0;  ///< graph rates x this = reported rates
  /// kT per temperature unit: 1 for reduced units (the temperature is kT), Boltzmann's constant in
  /// the network's energy unit per K for molecular ones.
  double kTPerTemperature = 1.0;
  /// Planck's constant in the energy unit x s (molecular units; 0 for reduced ones).
  double planckSeconds = 0.0;
  double kT(double temperature) const { return kTPerTemperature * temperature; }
};

/// PATHSAMPLE's way: a run configured by a pathdata file (or --no-points) without --database
/// reads the PATHSAMPLE files (min.data, ...) of --directory; grow then imports them into its
/// output's network.h5 first.
bool readsPathsampleFolder(const PathsampleConfig& config);
/// Refuses a NATOMS of the pathdata that differs from the `atoms` found in `where`.
void checkPathdataAtoms(const PathsampleConfig& c, std::size_t atoms, const std::string& where);
/// min.data and ts.data of `dir` with min.A and min.B (required when `needSets`); transition
/// states must name lines of min.data (ts.data line named otherwise).
StoredTransitionNetwork readKineticsFiles(const std::string& dir, bool needSets);
/// Checks the endpoint sets before the graph transformation sees them, in the user's words.
void checkEndpointSets(const KineticsNetwork& k);
/// The network of rates, committors, regroup and kmc: --database, or the folder's files.
KineticsNetwork kineticsNetwork(const PathsampleConfig& c, bool needSets);

}  // namespace landscape
