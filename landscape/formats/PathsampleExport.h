#pragma once
// The text and binary files of PATHSAMPLE and OPTIM (min.data, ts.data, points.min, points.ts,
// path.info), written from (and read back into) a transition network, for users of the Wales
// group's tools. Formats as in the wales-group LJ38 example (tests/data/lj38/pathsample and
// tests/data/lj38/optim/path.info), checked against those files in tests/PathsampleExportTest.cpp;
// the "Exports" paragraph of docs/database.md lists every column and its units.
//
// Units are the potential's, with unit masses for Lennard-Jones. For a mass-weighted database
// (molecules, DatabaseMetadata::hessianMasses = "amu") the files follow OPTIM and PATHSAMPLE for
// AMBER: every mass-weighted Hessian eigenvalue (kcal/mol / (amu A^2)) is multiplied by FRQCONV^2,
// FRQCONV = 2.045483e13 rad/s per sqrt(kcal/mol / (amu A^2)), so that PATHSAMPLE's rates come out
// in s^-1; network.h5 keeps kcal/mol / (amu A^2), and the `frequencyConversion` arguments below
// (pathsampleFrequencyConversion) convert on the way out and back in. Unknown values (a system
// above the Hessian size cap) are written as PATHSAMPLE's NOFRQS runs expect to ignore them: log
// product 0, point-group order 1, moments 0, no eigenvalue lines in path.info. Readers return what
// the files hold.
#include <string>
#include <vector>

#include "landscape/geometry/PointGroup.h"
#include "landscape/network/Database.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape {

// ---- PATHSAMPLE ------------------------------------------------------------------------------

/// The text of min.data for `minima`, in order.
std::string formatMinData(const std::vector<StoredNetworkMinimum>& minima);
/// The text of ts.data for `transitionStates` (their 0-based minima are written 1-based).
std::string formatTsData(const std::vector<StoredTransitionState>& transitionStates);

/// Parses min.data: 6 fields per line (or PATHSAMPLE's older 3, moments then unknown). The
/// minima come back without coordinates. Throws std::runtime_error "FILE:LINE: expected ..." on
/// lines that do not parse.
std::vector<StoredNetworkMinimum> readMinData(const std::string& path);
/// Parses ts.data: 8 fields per line (or 5); minima indices are converted to 0-based and must be
/// >= 1 in the file. Coordinates are left empty, eigenvalue NaN.
std::vector<StoredTransitionState> readTsData(const std::string& path);
/// The same, and every minimum must be a line of a min.data of `minimaCount` minima
/// ("FILE:LINE: minimum K is beyond min.data's N minima" otherwise).
std::vector<StoredTransitionState> readTsData(const std::string& path, std::size_t minimaCount);

/// Writes records of coordinates as raw little-endian float64 (points.min / points.ts), atomically.
/// Every record must have the same, non-zero size.
void writePoints(const std::string& path, const std::vector<std::vector<double>>& records);
/// Reads raw float64 records of `coordinatesPerRecord` values each. Throws std::runtime_error when
/// the file size is not a multiple of the record size.
std::vector<std::vector<double>> readPoints(const std::string& path,
                                            std::size_t coordinatesPerRecord);

/// The text of min.A / min.B: the number of minima (I10), then their 1-based min.data lines (I10
/// each), one per line, as PATHSAMPLE reads them (free format) and the wales-group example has it.
std::string formatEndpointSet(const std::vector<int>& minima);
/// Parses min.A / min.B: a count, then that many 1-based minima (blank-separated, any layout);
/// returns them 0-based. Each must be in 1..`minimaCount`. Throws std::runtime_error
/// "FILE:LINE: ..." on a bad count, a bad or out-of-range index, a duplicate or too few entries.
std::vector<int> readEndpointSet(const std::string& path, std::size_t minimaCount);

/// The angular frequency of the files per frequency unit of a database with this metadata: 1 for
/// unit masses (the files hold what network.h5 holds), kMolecularFrequencyPerSecond (OPTIM's
/// FRQCONV for AMBER, rad/s per sqrt(kcal/mol / (amu A^2))) for a mass-weighted database,
/// kKjMolecularFrequencyPerSecond for one in kJ/mol (TIP4P water's normal modes). Throws
/// std::invalid_argument for a mass-weighted database in other units. (A rigid-molecule database's
/// log products are shifted as if its 3N atomic coordinates were vibrating: by ln FRQCONV^2 for
/// each of 3N - 6 modes rather than 6B - 6. Every rate and free-energy difference, which is all
/// PATHSAMPLE takes from them, is unchanged: a minimum and a transition state differ by one mode
/// either way.)
double pathsampleFrequencyConversion(const DatabaseMetadata& metadata);

/// The log products of `network` with every finite, non-zero log product shifted by
/// sign x (modes) x ln(conversion^2): from database units to the files' (sign +1) or back (-1).
/// modes = 3N minus the rigid-body modes of the point's coordinates (RigidBodyModes: 6, 5 for a
/// linear one), minus one for a transition state. A log product of 0 (PATHSAMPLE's NOFRQS runs)
/// is kept. conversion = 1 returns the network unchanged.
StoredTransitionNetwork withConvertedLogProducts(StoredTransitionNetwork network, double conversion,
                                                 int sign);

/// Writes min.data, ts.data, points.min and points.ts of `network` into `directory` (created if
/// missing), each atomically, and min.A / min.B when the network has endpoint sets; log products
/// converted by `frequencyConversion` (pathsampleFrequencyConversion). Throws
/// std::invalid_argument when coordinates are missing or of mixed sizes, or a transition state
/// names an unknown minimum.
void writePathsampleFiles(const std::string& directory, const StoredTransitionNetwork& network,
                          double frequencyConversion = 1.0);

/// Writes min.data and ts.data of a network without coordinates (PATHSAMPLE's NOPOINTS), and
/// min.A / min.B when it has endpoint sets; no points files. Log products as stored. Throws
/// std::invalid_argument when a transition state names an unknown minimum.
void writePathsampleKineticsFiles(const std::string& directory,
                                  const StoredTransitionNetwork& network);

/// Reads the four files of `directory` back (atoms = N, so records of 3N values), and min.A and
/// min.B when both exist; log products converted back to database units by
/// `frequencyConversion`. Throws std::runtime_error when a file is missing or the record counts
/// differ from the line counts.
StoredTransitionNetwork readPathsampleFiles(const std::string& directory, std::size_t atoms,
                                            double frequencyConversion = 1.0);

/// The number of atoms N of a PATHSAMPLE database in `directory`: points.min holds one record of
/// 3N float64 per line of min.data. Throws std::runtime_error when min.data is empty or the size
/// of points.min is not a whole number of 3-coordinate records per minimum.
std::size_t pathsampleAtomCount(const std::string& directory);

// ---- OPTIM path.info -------------------------------------------------------------------------

/// One stationary point of path.info.
struct PathInfoPoint {
  double energy = 0.0;
  int pointGroupOrder = 1;
  std::string pointGroupLabel = "C1";      ///< OPTIM's spelling, e.g. "O h", "C5v" (A4, trimmed)
  std::vector<double> hessianEigenvalues;  ///< descending as written; empty = not known
  std::vector<double> coordinates;         ///< 3N
};

/// OPTIM's spelling of a Schoenflies symbol in path.info: a two-letter symbol whose second letter
/// is a subscript letter gets a blank between ("Oh" -> "O h", "Cs" -> "C s", "Ih" -> "I h"), all
/// others are unchanged ("C1", "C5v", "D5h").
std::string optimPointGroupLabel(const std::string& schoenflies);

/// The text of path.info for `points`, in order (triples min, ts, min by convention).
std::string formatPathInfo(const std::vector<PathInfoPoint>& points);

/// Parses path.info of a system of `atoms` atoms: every point has 2 + N lines (no eigenvalues) or
/// 2 + 2N lines. Throws std::runtime_error "FILE:LINE: ..." when the text does not fit.
std::vector<PathInfoPoint> readPathInfo(const std::string& path, std::size_t atoms);

/// The path.info points of the given transition states of `network`: for each, the plus minimum,
/// the transition state and the minus minimum. The point-group symbol is found from the
/// coordinates (findPointGroup with `symmetry`), the order is the stored one (the found one when
/// the stored order is unknown); eigenvalues are multiplied by frequencyConversion^2 (OPTIM's
/// FRQCONV2). Throws std::invalid_argument for an unknown index.
std::vector<PathInfoPoint> pathInfoTriples(const StoredTransitionNetwork& network,
                                           const std::vector<int>& transitionStates,
                                           const PointGroupParams& symmetry = {},
                                           double frequencyConversion = 1.0);

/// The stationary points of path.info read as PATHSAMPLE's STARTFROMPATH and ADDPATH read them
/// (min-sad-min triples): per triple two minima and the transition state between them (plus
/// minimum first), every minimum listed as often as it appears (duplicates are for the caller's
/// duplicate detection). Log products from the listed eigenvalues, as PATHSAMPLE sums them: the
/// 3N - 6 largest of a minimum, the 3N - 7 largest of a transition state (rigid-body modes and
/// the negative eigenvalue left out), divided by frequencyConversion^2 (OPTIM's FRQCONV2) into the
/// database's units; NaN without eigenvalues. Point-group orders as listed; principal moments from
/// the coordinates (unit masses, or `masses`). Throws std::runtime_error naming `path` when the
/// points are not whole triples or a listed eigenvalue needed is not positive.
StoredTransitionNetwork networkFromPathInfo(const std::vector<PathInfoPoint>& points,
                                            const std::string& path,
                                            double frequencyConversion = 1.0,
                                            const std::vector<double>& masses = {});

}  // namespace landscape
