#pragma once
// The minima database: one HDF5 file (conventionally minima.h5) holding the minima a search found,
// with units and a schema_version stamped on it. docs/database.md is the schema's reference.
//
// This header does not include HDF5; only the database's own files in landscape/network/ do
// (Hdf5File, the layer over the HDF5 C API, and the Database*.cpp parts that use it; HDF5 stays
// behind this one interface). Transition networks (optim) live in the same kind of file:
// /minima gains optional datasets with the Hessian-derived fields of PATHSAMPLE's min.data, and a
// /transition_states group holds the ts.data fields, an additive change that schema version 1
// readers of minima ignore (TransitionNetworkDatabase below).
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/network/StoredMinimum.h"
#include "landscape/network/StoredNetwork.h"

namespace landscape {

/// What the file says about the run that produced it; stored as root attributes.
/// DatabaseMetadata::hessianMasses values.
constexpr const char* kUnitMasses = "unit";
constexpr const char* kAtomicMassesAmu = "amu";

struct DatabaseMetadata {
  std::string potential;   ///< potential specification, e.g. "lj" or a prmtop path
  std::string energyUnit;  ///< e.g. "reduced (epsilon)" for Lennard-Jones, "kcal/mol" for AMBER/SOP
  std::string lengthUnit;  ///< e.g. "reduced (sigma)" for Lennard-Jones, "Angstrom" for AMBER/SOP
  std::size_t atoms = 0;   ///< N; every minimum has 3N coordinates
  std::string program;     ///< the program that wrote the file, e.g. "gmin"
  /// The masses of the Hessian-derived fields (log products, Hessian eigenvalues, moments of
  /// inertia): kUnitMasses (atomic clusters) or kAtomicMassesAmu (molecules: a Hessian
  /// mass-weighted with the atoms' masses in amu). Root attribute `hessian_masses`; a file without
  /// it has unit masses.
  std::string hessianMasses = kUnitMasses;
#ifdef LANDSCAPE_VERSION
  std::string createdBy = "landscape " LANDSCAPE_VERSION;  ///< software and version
#else
  std::string createdBy = "landscape";  ///< software and version
#endif
};

/// Reads and writes minima.h5. All functions are static: the file is opened and closed within each
/// call, so no HDF5 handle outlives a call. Errors throw std::runtime_error whose message names the
/// file and the group, dataset or attribute involved; HDF5's own error printing is switched off for
/// the duration of each call. One writer per file at a time: the library does not lock the file
/// (or its ".tmp" sibling); the programs hold DatabaseLock (src/common/OutputLock.h) for that.
class MinimaDatabase {
 public:
  /// The schema this build writes and the newest it reads. Additive changes (new groups, datasets
  /// or attributes) keep the number; a change of an existing field's meaning, type or shape bumps
  /// it.
  static constexpr int kSchemaVersion = 1;

  /// Writes `minima` (in the given order) to `path`, replacing any file there. Atomic: the data go
  /// to path + ".tmp", which is flushed to disk and then renamed over `path`, so a crash during a
  /// checkpoint leaves the previous file intact. Throws std::invalid_argument when the metadata is
  /// incomplete (atoms == 0, an empty unit), a minimum's coordinate count is not 3 * atoms, or an
  /// energy or coordinate is not finite (read() refuses those).
  static void write(const std::string& path, const DatabaseMetadata& metadata,
                    const std::vector<StoredMinimum>& minima);

  /// Adds `minima` after the ones already in `path` by extending the datasets; when `path` does not
  /// exist it is the same as write(). The existing file's atoms, potential and units must equal
  /// `metadata`'s (the program and createdBy attributes keep their first values). Atomic like
  /// write(): the file is copied to path + ".tmp", extended there and renamed back. In a transition
  /// network file the optional /minima datasets grow too, with "unknown" values (NaN, order 0).
  static void append(const std::string& path, const DatabaseMetadata& metadata,
                     const std::vector<StoredMinimum>& minima);

  /// Reads every minimum in file order. Checks that schema_version is one this build knows, that
  /// the datasets exist with the documented types and that their shapes agree (n and n x 3N),
  /// that energies and coordinates are finite, and that the rows fit in memory (requireMemory,
  /// landscape/core/InputChecks.h) before allocating them; throws std::runtime_error with a
  /// sentence naming the file and the failed check otherwise. When `metadata` is given it receives
  /// the root attributes.
  static std::vector<StoredMinimum> read(const std::string& path,
                                         DatabaseMetadata* metadata = nullptr);

  /// The root attributes alone (validated as in read()), without reading the minima.
  static DatabaseMetadata readMetadata(const std::string& path);

  /// Number of minima stored, without reading them (validated as in read()).
  static std::size_t count(const std::string& path);
};

/// Reads and writes a transition network (minima and transition states with their PATHSAMPLE
/// fields) in the same HDF5 file layout, schema_version 1 (docs/database.md). The file stays a
/// valid minima database: MinimaDatabase::read() returns its minima, and MinimaDatabase::append()
/// may add more. Error handling as MinimaDatabase.
class TransitionNetworkDatabase {
 public:
  /// Writes the whole network to `path`, replacing any file there, atomically as
  /// MinimaDatabase::write(). Throws std::invalid_argument when the metadata is incomplete, a
  /// coordinate or Hessian-eigenvalue vector does not have 3 * atoms entries (eigenvalues may be
  /// empty), or a transition state names a minimum that is not in the network.
  static void write(const std::string& path, const DatabaseMetadata& metadata,
                    const StoredTransitionNetwork& network);

  /// Reads a network written by write(), or any minima database (gmin's minima.h5): the datasets
  /// of the Hessian-derived fields and the /transition_states group are optional and read as
  /// unknown (StationaryPointProperties defaults) or empty when absent. Validation as
  /// MinimaDatabase::read(), plus: optional datasets have the documented types and shapes, and
  /// every transition state's minima are rows of /minima.
  static StoredTransitionNetwork read(const std::string& path,
                                      DatabaseMetadata* metadata = nullptr);
};

namespace detail {
/// Overwrites the root schema_version attribute of an existing file in place (not atomically).
/// Exists so that tests can make files of other schema versions without including HDF5, and for
/// future migration tools; library code never calls it.
void overwriteSchemaVersion(const std::string& path, int schemaVersion);
}  // namespace detail

}  // namespace landscape
