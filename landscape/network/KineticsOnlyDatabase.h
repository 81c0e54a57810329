#pragma once
// A transition network without coordinates (PATHSAMPLE's NOPOINTS: model networks, networks from
// other codes) in the layout of network.h5 (docs/database.md, "Kinetics-only networks"): the root
// attributes with atoms = 0 and kinetics_only = 1, /minima and /transition_states with the
// energies, the fields of min.data and ts.data and the transition states' minima, /endpoints; no
// coordinates datasets. Log products are those of the files (PATHSAMPLE's units: reduced, or
// ln((rad/s)^2) for molecules, which their `units` attribute then says), so rates computed from
// them need no frequency conversion. Readers of coordinates (MinimaDatabase, TransitionNetworkDatabase) refuse
// such a file at its atoms attribute; `pathsample` reads it through this class for its kinetics
// and export. Kept apart from Database.cpp, whose files always have coordinates.
#include <string>

#include "landscape/network/Database.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape {

class KineticsOnlyDatabase {
 public:
  /// True when `path` is an HDF5 file whose root says atoms = 0 and kinetics_only = 1; false for
  /// any other file (a missing one included).
  static bool holdsOne(const std::string& path);

  /// Writes `network` to `path`, replacing any file there, atomically (path + ".tmp", flushed,
  /// renamed). metadata.atoms must be 0; coordinates and Hessian eigenvalues must be empty.
  /// Throws std::invalid_argument naming the first bad record (1-based) otherwise, or a
  /// non-finite energy, or a transition state naming a minimum that is not in the network.
  static void write(const std::string& path, const DatabaseMetadata& metadata,
                    const StoredTransitionNetwork& network);

  /// Reads a file written by write(). Checks the schema version, the kinetics_only attribute, the
  /// datasets' types and shapes, finite energies and that every transition state's minima are
  /// rows of /minima; throws std::runtime_error naming the file and the failed check.
  static StoredTransitionNetwork read(const std::string& path,
                                      DatabaseMetadata* metadata = nullptr);
};

/// A network file of either kind, chosen by what the file (or, to write, metadata.atoms) says:
/// kinetics-only (atoms = 0, KineticsOnlyDatabase) or with coordinates (TransitionNetworkDatabase).
StoredTransitionNetwork readNetworkOfEitherKind(const std::string& path,
                                               DatabaseMetadata* metadata = nullptr);
void writeNetworkOfEitherKind(const std::string& path, const DatabaseMetadata& metadata,
                              const StoredTransitionNetwork& network);

}  // namespace landscape
