#include "landscape/network/Database.h"

// The only includer of HDF5 in the project (DESIGN.md, "HDF5 behind one file").
#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

namespace fs = std::filesystem;

// Names of the schema, version 1 (docs/database.md).
constexpr const char* kSchemaVersionAttribute = "schema_version";
constexpr const char* kMinimaGroup = "minima";
constexpr const char* kEnergyDataset = "energy";
constexpr const char* kCoordinatesDataset = "coordinates";
constexpr const char* kFirstFoundStepDataset = "first_found_step";
constexpr const char* kFunctionCallsDataset = "function_calls";
constexpr const char* kUnitsAttribute = "units";
constexpr const char* kCountUnit = "count";
// Additions for transition networks (still schema_version 1: new, optional datasets and a group).
constexpr const char* kTransitionStatesGroup = "transition_states";
constexpr const char* kLogProductDataset = "log_product_frequencies";
constexpr const char* kPointGroupOrderDataset = "point_group_order";
constexpr const char* kPrincipalMomentsDataset = "principal_moments";
constexpr const char* kHessianEigenvaluesDataset = "hessian_eigenvalues";
constexpr const char* kConnectedMinimaDataset = "minima";
constexpr const char* kEigenvalueDataset = "eigenvalue";
constexpr const char* kIndexUnit = "index (0-based row of /minima)";
// PATHSAMPLE's endpoint sets min.A and min.B (optional group, still schema_version 1).
constexpr const char* kEndpointsGroup = "endpoints";
constexpr const char* kSetADataset = "a";
constexpr const char* kSetBDataset = "b";
// A growth run's state (pathsample grow; optional group, still schema_version 1).
constexpr const char* kGrowthGroup = "growth";
constexpr const char* kGrowthCyclesAttribute = "cycles";
constexpr const char* kGrowthSettingsAttribute = "settings";
constexpr const char* kTriedPairsDataset = "tried_pairs";
constexpr const char* kPendingPairsDataset = "pending_pairs";

// Chunk sizes: HDF5 reads and writes whole chunks, and its default chunk cache is 1 MiB, so chunks
// of tens of KiB keep reading one minimum cheap while appending stays a few chunk writes.
constexpr hsize_t kChunkEntries1D = 1024;         // 8 KiB of float64 or int64
constexpr hsize_t kCoordinateChunkBytes = 65536;  // 64 KiB of coordinate rows (at least one row)

std::string datasetPath(const char* name, const char* group = kMinimaGroup) {
  return std::string("/") + group + "/" + name;
}

// ---- errors ----------------------------------------------------------------------------------

// Keeps the text of the innermost entry of HDF5's error stack: walking upward, entry 0 is where
// the library detected the problem, which says more than the API call that failed.
herr_t keepInnermostError(unsigned n, const H5E_error2_t* error, void* clientData) {
  if (n == 0) {
    auto* text = static_cast<std::string*>(clientData);
    if (error->func_name != nullptr) *text = error->func_name;
    if (error->desc != nullptr && error->desc[0] != '\0') {
      *text += text->empty() ? "" : ": ";
      *text += error->desc;
    }
  }
  return 0;
}

std::string takeHdf5Reason() {
  std::string text;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keepInnermostError, &text);
  H5Eclear2(H5E_DEFAULT);
  // Some HDF5 descriptions span lines (e.g. the sec2 driver's); keep the exception one line.
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

std::string prefix(const std::string& path) { return "minima database '" + path + "'"; }

/// A check on the file's content failed (no HDF5 call failed).
[[noreturn]] void invalid(const std::string& path, const std::string& sentence) {
  throw std::runtime_error(prefix(path) + ": " + sentence);
}

/// An HDF5 call failed; the message carries HDF5's own reason.
[[noreturn]] void failHdf5(const std::string& path, const std::string& what) {
  const std::string reason = takeHdf5Reason();
  throw std::runtime_error(prefix(path) + ": " + what +
                           (reason.empty() ? "" : " (HDF5: " + reason + ")"));
}

void check(herr_t status, const std::string& path, const std::string& what) {
  if (status < 0) failHdf5(path, what);
}

/// Turns HDF5's automatic printing of errors to stderr off for one public call (library code never
/// prints, DESIGN.md) and restores the caller's setting afterwards.
class SilenceHdf5Errors {
 public:
  SilenceHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &m_function, &m_data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    H5Eclear2(H5E_DEFAULT);
  }
  ~SilenceHdf5Errors() { H5Eset_auto2(H5E_DEFAULT, m_function, m_data); }
  SilenceHdf5Errors(const SilenceHdf5Errors&) = delete;
  SilenceHdf5Errors& operator=(const SilenceHdf5Errors&) = delete;

 private:
  H5E_auto2_t m_function = nullptr;
  void* m_data = nullptr;
};

/// Move-only owner of one HDF5 identifier. The destructor closes silently (it runs while an
/// exception unwinds); paths that must know the close succeeded call close() and check it.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);

  Handle() = default;
  Handle(hid_t id, Closer closer) : m_id(id), m_closer(closer) {}
  Handle(Handle&& other) noexcept : m_id(std::exchange(other.m_id, -1)), m_closer(other.m_closer) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      close();
      m_id = std::exchange(other.m_id, -1);
      m_closer = other.m_closer;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { close(); }

  hid_t get() const { return m_id; }

  herr_t close() {
    herr_t status = 0;
    if (m_id >= 0) status = m_closer(m_id);
    m_id = -1;
    return status;
  }

 private:
  hid_t m_id = -1;
  Closer m_closer = nullptr;
};

Handle checked(hid_t id, Handle::Closer closer, const std::string& path, const std::string& what) {
  if (id < 0) failHdf5(path, what);
  return Handle(id, closer);
}

// ---- attributes ------------------------------------------------------------------------------

bool hasAttribute(hid_t object, const char* name, const std::string& path,
                  const std::string& where) {
  const htri_t exists = H5Aexists(object, name);
  if (exists < 0)
    failHdf5(path, "cannot look up attribute '" + std::string(name) + "' of " + where);
  return exists > 0;
}

void writeStringAttribute(hid_t object, const char* name, const std::string& value,
                          const std::string& path, const std::string& where) {
  const std::string what = "cannot write attribute '" + std::string(name) + "' of " + where;
  // Variable-length UTF-8, so h5py returns str and h5dump prints the text without padding.
  Handle type = checked(H5Tcopy(H5T_C_S1), H5Tclose, path, what);
  check(H5Tset_size(type.get(), H5T_VARIABLE), path, what);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), path, what);
  Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, path, what);
  Handle attribute =
      checked(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              path, what);
  const char* data = value.c_str();
  check(H5Awrite(attribute.get(), type.get(), &data), path, what);
  check(attribute.close(), path, what);
}

void writeIntegerAttribute(hid_t object, const char* name, long long value, hid_t fileType,
                           const std::string& path, const std::string& where) {
  const std::string what = "cannot write attribute '" + std::string(name) + "' of " + where;
  Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, path, what);
  Handle attribute =
      checked(H5Acreate2(object, name, fileType, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              path, what);
  check(H5Awrite(attribute.get(), H5T_NATIVE_LLONG, &value), path, what);
  check(attribute.close(), path, what);
}

/// Opens a scalar (one-element) attribute and checks its type class.
Handle openScalarAttribute(hid_t object, const char* name, H5T_class_t expectedClass,
                           const char* expectedType, const std::string& path,
                           const std::string& where) {
  const std::string what = "cannot read attribute '" + std::string(name) + "' of " + where;
  Handle attribute = checked(H5Aopen(object, name, H5P_DEFAULT), H5Aclose, path, what);
  Handle type = checked(H5Aget_type(attribute.get()), H5Tclose, path, what);
  const H5T_class_t typeClass = H5Tget_class(type.get());
  if (typeClass == H5T_NO_CLASS) failHdf5(path, what);
  if (typeClass != expectedClass) {
    invalid(path, "attribute '" + std::string(name) + "' of " + where + " must be " + expectedType);
  }
  Handle space = checked(H5Aget_space(attribute.get()), H5Sclose, path, what);
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  if (points < 0) failHdf5(path, what);
  if (points != 1) {
    invalid(path, "attribute '" + std::string(name) + "' of " + where +
                      " must hold one value, not " + std::to_string(points));
  }
  return attribute;
}

long long readIntegerAttribute(hid_t object, const char* name, const std::string& path,
                               const std::string& where) {
  Handle attribute = openScalarAttribute(object, name, H5T_INTEGER, "an integer", path, where);
  long long value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_LLONG, &value), path,
        "cannot read attribute '" + std::string(name) + "' of " + where);
  return value;
}

std::string readStringAttribute(hid_t object, const char* name, const std::string& path,
                                const std::string& where) {
  const std::string what = "cannot read attribute '" + std::string(name) + "' of " + where;
  Handle attribute = openScalarAttribute(object, name, H5T_STRING, "a string", path, where);
  Handle fileType = checked(H5Aget_type(attribute.get()), H5Tclose, path, what);
  const htri_t variable = H5Tis_variable_str(fileType.get());
  if (variable < 0) failHdf5(path, what);
  Handle memoryType = checked(H5Tcopy(H5T_C_S1), H5Tclose, path, what);
  if (variable > 0) {
    // Our own files; h5py also writes str attributes this way.
    check(H5Tset_size(memoryType.get(), H5T_VARIABLE), path, what);
    check(H5Tset_cset(memoryType.get(), H5Tget_cset(fileType.get())), path, what);
    char* data = nullptr;
    check(H5Aread(attribute.get(), memoryType.get(), &data), path, what);
    std::string value = data != nullptr ? data : "";
    H5free_memory(data);
    return value;
  }
  // Fixed-length strings (other writers, e.g. numpy bytes through h5py): read the bytes as stored.
  const std::size_t size = H5Tget_size(fileType.get());
  if (size == 0) failHdf5(path, what);
  check(H5Tset_size(memoryType.get(), size), path, what);
  check(H5Tset_strpad(memoryType.get(), H5Tget_strpad(fileType.get())), path, what);
  std::string buffer(size, '\0');
  check(H5Aread(attribute.get(), memoryType.get(), buffer.data()), path, what);
  buffer.resize(std::min(buffer.find('\0'), buffer.size()));
  if (H5Tget_strpad(fileType.get()) == H5T_STR_SPACEPAD) {
    buffer.erase(buffer.find_last_not_of(' ') + 1);
  }
  return buffer;
}

// ---- the file's header -----------------------------------------------------------------------

void writeRootAttributes(hid_t file, const DatabaseMetadata& metadata, const std::string& path) {
  const std::string where = "the root group";
  writeIntegerAttribute(file, kSchemaVersionAttribute, MinimaDatabase::kSchemaVersion,
                        H5T_STD_I32LE, path, where);
  writeStringAttribute(file, "program", metadata.program, path, where);
  writeStringAttribute(file, "created_by", metadata.createdBy, path, where);
  writeStringAttribute(file, "potential", metadata.potential, path, where);
  writeStringAttribute(file, "energy_unit", metadata.energyUnit, path, where);
  writeStringAttribute(file, "length_unit", metadata.lengthUnit, path, where);
  writeStringAttribute(file, "hessian_masses", metadata.hessianMasses, path, where);
  writeIntegerAttribute(file, "atoms", static_cast<long long>(metadata.atoms), H5T_STD_I64LE, path,
                        where);
}

/// Reads and validates the root attributes. schema_version, atoms and the two units are required;
/// program, created_by and potential are read when present (empty otherwise).
DatabaseMetadata readRootAttributes(hid_t file, const std::string& path) {
  const std::string where = "the root group";
  if (!hasAttribute(file, kSchemaVersionAttribute, path, where)) {
    invalid(path,
            "has no schema_version attribute on its root group, so it is not a minima "
            "database written by landscape");
  }
  const long long version = readIntegerAttribute(file, kSchemaVersionAttribute, path, where);
  if (version < 1 || version > MinimaDatabase::kSchemaVersion) {
    const std::string known = MinimaDatabase::kSchemaVersion == 1
                                  ? std::string("1")
                                  : "1 to " + std::to_string(MinimaDatabase::kSchemaVersion);
    invalid(path, "has schema_version " + std::to_string(version) +
                      ", but this build of landscape reads schema_version " + known +
                      (version > MinimaDatabase::kSchemaVersion
                           ? " (the file was written by a newer landscape; upgrade to read it)"
                           : ""));
  }

  DatabaseMetadata metadata;
  auto optionalString = [&](const char* name) {
    return hasAttribute(file, name, path, where) ? readStringAttribute(file, name, path, where)
                                                 : std::string();
  };
  auto requiredString = [&](const char* name) {
    if (!hasAttribute(file, name, path, where)) {
      invalid(path, "has no '" + std::string(name) + "' attribute on its root group");
    }
    return readStringAttribute(file, name, path, where);
  };
  metadata.program = optionalString("program");
  metadata.createdBy = optionalString("created_by");
  metadata.potential = optionalString("potential");
  metadata.energyUnit = requiredString("energy_unit");
  metadata.lengthUnit = requiredString("length_unit");
  if (hasAttribute(file, "hessian_masses", path, where)) {
    metadata.hessianMasses = readStringAttribute(file, "hessian_masses", path, where);
    if (metadata.hessianMasses != kUnitMasses && metadata.hessianMasses != kAtomicMassesAmu) {
      invalid(path, "attribute 'hessian_masses' of the root group is " +
                        quoteInput(metadata.hessianMasses) + ", expected '" + kUnitMasses +
                        "' or '" + kAtomicMassesAmu + "'");
    }
  }
  if (!hasAttribute(file, "atoms", path, where)) {
    invalid(path, "has no 'atoms' attribute on its root group");
  }
  const long long atoms = readIntegerAttribute(file, "atoms", path, where);
  if (atoms <= 0) {
    invalid(path, "attribute 'atoms' of the root group must be > 0, got " + std::to_string(atoms));
  }
  // One row of 3N coordinates must fit in memory (and 3N in an integer).
  requireMemory(prefix(path) + ": one minimum of atoms = " + std::to_string(atoms), 3.0 * atoms,
                sizeof(double));
  metadata.atoms = static_cast<std::size_t>(atoms);
  return metadata;
}

// ---- datasets --------------------------------------------------------------------------------

/// One dataset of /minima: name, HDF5 types and the shape of one row (empty for 1-D).
struct Column {
  const char* name;
  hid_t fileType;    // type on disk
  hid_t memoryType;  // type of the buffer in memory
  H5T_class_t typeClass;
  const char* typeName;              // for messages
  const char* group = kMinimaGroup;  // the group holding it
};

std::string datasetPath(const Column& column) { return datasetPath(column.name, column.group); }

Column energyColumn() {
  return {kEnergyDataset, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5T_FLOAT, "float64"};
}
Column coordinatesColumn() {
  return {kCoordinatesDataset, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5T_FLOAT, "float64"};
}
Column firstFoundStepColumn() {
  return {kFirstFoundStepDataset, H5T_STD_I64LE, H5T_NATIVE_LONG, H5T_INTEGER, "int64"};
}
Column functionCallsColumn() {
  return {kFunctionCallsDataset, H5T_STD_I64LE, H5T_NATIVE_LONG, H5T_INTEGER, "int64"};
}

/// Creates an empty dataset of shape (0) or (0, width), chunked and unlimited along the first axis.
void createExtendibleDataset(hid_t group, const Column& column, hsize_t width,
                             const std::string& units, const std::string& path) {
  const std::string what = "cannot create dataset " + datasetPath(column);
  const int rank = width == 0 ? 1 : 2;
  const hsize_t dims[2] = {0, width};
  const hsize_t maxDims[2] = {H5S_UNLIMITED, width};
  const hsize_t chunk[2] = {
      width == 0 ? kChunkEntries1D
                 : std::max<hsize_t>(1, kCoordinateChunkBytes / (width * sizeof(double))),
      width};
  Handle space = checked(H5Screate_simple(rank, dims, maxDims), H5Sclose, path, what);
  Handle properties = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, what);
  check(H5Pset_chunk(properties.get(), rank, chunk), path, what);
  Handle dataset = checked(H5Dcreate2(group, column.name, column.fileType, space.get(), H5P_DEFAULT,
                                      properties.get(), H5P_DEFAULT),
                           H5Dclose, path, what);
  writeStringAttribute(dataset.get(), kUnitsAttribute, units, path,
                       "dataset " + datasetPath(column));
  check(dataset.close(), path, what);
}

/// An opened dataset of /minima with its validated current shape.
struct OpenDataset {
  Handle dataset;
  hsize_t rows = 0;
  hsize_t width = 0;  // 0 for 1-D
};

OpenDataset openDataset(hid_t group, const Column& column, bool twoDimensional,
                        const std::string& path) {
  const std::string name = datasetPath(column);
  const std::string what = "cannot open dataset " + name;
  const htri_t exists = H5Lexists(group, column.name, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, what);
  if (exists == 0) invalid(path, "has no dataset " + name);

  OpenDataset result;
  result.dataset = checked(H5Dopen2(group, column.name, H5P_DEFAULT), H5Dclose, path, what);
  Handle type = checked(H5Dget_type(result.dataset.get()), H5Tclose, path, what);
  const H5T_class_t typeClass = H5Tget_class(type.get());
  if (typeClass == H5T_NO_CLASS) failHdf5(path, what);
  if (typeClass != column.typeClass) {
    invalid(path,
            "dataset " + name + " must hold " + column.typeName + " values (schema_version 1)");
  }
  Handle space = checked(H5Dget_space(result.dataset.get()), H5Sclose, path, what);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) failHdf5(path, what);
  const int expectedRank = twoDimensional ? 2 : 1;
  if (rank != expectedRank) {
    invalid(path, "dataset " + name + " must be " + std::to_string(expectedRank) +
                      "-dimensional, but it has rank " + std::to_string(rank));
  }
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0) failHdf5(path, what);
  result.rows = dims[0];
  result.width = twoDimensional ? dims[1] : 0;
  return result;
}

/// The four datasets of /minima, opened and checked against each other and the atom count.
struct MinimaDatasets {
  OpenDataset energy;
  OpenDataset coordinates;
  OpenDataset firstFoundStep;
  OpenDataset functionCalls;
  hsize_t count = 0;
};

MinimaDatasets openMinimaDatasets(hid_t group, std::size_t atoms, const std::string& path) {
  MinimaDatasets sets;
  sets.energy = openDataset(group, energyColumn(), false, path);
  sets.coordinates = openDataset(group, coordinatesColumn(), true, path);
  sets.firstFoundStep = openDataset(group, firstFoundStepColumn(), false, path);
  sets.functionCalls = openDataset(group, functionCallsColumn(), false, path);
  sets.count = sets.energy.rows;
  const std::string n = std::to_string(sets.count);
  const hsize_t width = 3 * static_cast<hsize_t>(atoms);
  if (sets.coordinates.rows != sets.count || sets.coordinates.width != width) {
    invalid(path, "dataset " + datasetPath(kCoordinatesDataset) + " has shape " +
                      std::to_string(sets.coordinates.rows) + " x " +
                      std::to_string(sets.coordinates.width) + ", but " + n +
                      " energies and atoms = " + std::to_string(atoms) + " need " + n + " x " +
                      std::to_string(width));
  }
  for (const OpenDataset* counted : {&sets.firstFoundStep, &sets.functionCalls}) {
    if (counted->rows != sets.count) {
      const char* name =
          counted == &sets.firstFoundStep ? kFirstFoundStepDataset : kFunctionCallsDataset;
      invalid(path, "dataset " + datasetPath(name) + " has " + std::to_string(counted->rows) +
                        " entries, but " + datasetPath(kEnergyDataset) + " has " + n);
    }
  }
  return sets;
}

Handle openMinimaGroup(hid_t file, const std::string& path) {
  const std::string what = std::string("cannot open group /") + kMinimaGroup;
  const htri_t exists = H5Lexists(file, kMinimaGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, what);
  if (exists == 0) invalid(path, std::string("has no group /") + kMinimaGroup);
  return checked(H5Gopen2(file, kMinimaGroup, H5P_DEFAULT), H5Gclose, path, what);
}

/// Grows `set` by `rows` rows and writes `data` (rows x width values, row-major) into them.
void appendRows(OpenDataset& set, const Column& column, hsize_t rows, const void* data,
                const std::string& path) {
  if (rows == 0) return;
  const std::string what = "cannot extend dataset " + datasetPath(column);
  const int rank = set.width == 0 ? 1 : 2;
  const hsize_t newDims[2] = {set.rows + rows, set.width};
  check(H5Dset_extent(set.dataset.get(), newDims), path, what);
  Handle fileSpace = checked(H5Dget_space(set.dataset.get()), H5Sclose, path, what);
  const hsize_t start[2] = {set.rows, 0};
  const hsize_t count[2] = {rows, set.width};
  check(H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), path,
        what);
  Handle memorySpace = checked(H5Screate_simple(rank, count, nullptr), H5Sclose, path, what);
  check(H5Dwrite(set.dataset.get(), column.memoryType, memorySpace.get(), fileSpace.get(),
                 H5P_DEFAULT, data),
        path, "cannot write dataset " + datasetPath(column));
  set.rows += rows;
}

/// Appends the minima to the (validated) datasets of /minima and closes them, checking each close
/// because closing flushes the chunk cache.
void appendMinima(MinimaDatasets& sets, const std::vector<StoredMinimum>& minima, std::size_t atoms,
                  const std::string& path) {
  const std::size_t n = minima.size();
  const std::size_t width = 3 * atoms;
  std::vector<double> energies(n);
  std::vector<double> coordinates(n * width);
  std::vector<long> steps(n);
  std::vector<long> calls(n);
  for (std::size_t i = 0; i < n; ++i) {
    energies[i] = minima[i].energy;
    std::copy(minima[i].coordinates.begin(), minima[i].coordinates.end(),
              coordinates.begin() + i * width);
    steps[i] = minima[i].firstFoundStep;
    calls[i] = minima[i].functionCalls;
  }
  appendRows(sets.energy, energyColumn(), n, energies.data(), path);
  appendRows(sets.coordinates, coordinatesColumn(), n, coordinates.data(), path);
  appendRows(sets.firstFoundStep, firstFoundStepColumn(), n, steps.data(), path);
  appendRows(sets.functionCalls, functionCallsColumn(), n, calls.data(), path);
  for (OpenDataset* set :
       {&sets.energy, &sets.coordinates, &sets.firstFoundStep, &sets.functionCalls}) {
    check(set->dataset.close(), path, "cannot close a dataset of /minima");
  }
}

// ---- files -----------------------------------------------------------------------------------

Handle openExisting(const std::string& path, unsigned flags) {
  std::error_code error;
  if (!fs::exists(path, error)) invalid(path, "does not exist");
  if (fs::is_directory(path, error)) invalid(path, "is a directory, not an HDF5 file");
  const htri_t isHdf5 = H5Fis_hdf5(path.c_str());
  if (isHdf5 < 0) failHdf5(path, "cannot be read");
  if (isHdf5 == 0) invalid(path, "is not an HDF5 file");
  return checked(H5Fopen(path.c_str(), flags, H5P_DEFAULT), H5Fclose, path, "cannot be opened");
}

/// Flushes `file` to stable storage so that the rename below publishes complete data even across a
/// power loss. File systems that cannot sync (EINVAL, EROFS, ENOTSUP) are accepted as they are.
void syncToDisk(const std::string& file, const std::string& path) {
  const int descriptor = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) {
    invalid(path, "cannot reopen '" + file + "' to flush it: " + std::strerror(errno));
  }
  const int status = ::fsync(descriptor);
  const int error = errno;
  ::close(descriptor);
  if (status != 0 && error != EINVAL && error != EROFS && error != ENOTSUP) {
    invalid(path, "cannot flush '" + file + "' to disk: " + std::strerror(error));
  }
}

/// Publishes the finished temporary file under its final name (rename is atomic within a file
/// system, and the temporary file lives beside the target).
void commit(const std::string& temporary, const std::string& path) {
  syncToDisk(temporary, path);
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) invalid(path, "cannot rename '" + temporary + "' to it: " + error.message());
  // Best effort: persist the directory entry too.
  fs::path directory = fs::path(path).parent_path();
  if (directory.empty()) directory = ".";
  const int descriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (descriptor >= 0) {
    ::fsync(descriptor);
    ::close(descriptor);
  }
}

void removeQuietly(const std::string& file) {
  std::error_code ignored;
  fs::remove(file, ignored);
}

void validateInput(const std::string& function, const std::string& path,
                   const DatabaseMetadata& metadata, const std::vector<StoredMinimum>& minima) {
  const std::string where = "MinimaDatabase::" + function + "('" + path + "'): ";
  if (metadata.atoms == 0) throw std::invalid_argument(where + "metadata.atoms must be > 0");
  if (metadata.energyUnit.empty()) {
    throw std::invalid_argument(where +
                                "metadata.energyUnit must name the energy unit "
                                "(e.g. \"reduced (epsilon)\" or \"kcal/mol\")");
  }
  if (metadata.lengthUnit.empty()) {
    throw std::invalid_argument(where +
                                "metadata.lengthUnit must name the length unit "
                                "(e.g. \"reduced (sigma)\" or \"Angstrom\")");
  }
  if (metadata.hessianMasses != kUnitMasses && metadata.hessianMasses != kAtomicMassesAmu) {
    throw std::invalid_argument(where + "metadata.hessianMasses must be \"" + kUnitMasses +
                                "\" or \"" + kAtomicMassesAmu + "\", got " +
                                quoteInput(metadata.hessianMasses));
  }
  for (std::size_t i = 0; i < minima.size(); ++i) {
    if (minima[i].coordinates.size() != 3 * metadata.atoms) {
      throw std::invalid_argument(
          where + "minimum " + std::to_string(i) + " has " +
          std::to_string(minima[i].coordinates.size()) + " coordinates, but metadata.atoms = " +
          std::to_string(metadata.atoms) + " needs " + std::to_string(3 * metadata.atoms));
    }
    // What read() refuses is not written either.
    bool finite = std::isfinite(minima[i].energy);
    for (double x : minima[i].coordinates) finite = finite && std::isfinite(x);
    if (!finite) {
      throw std::invalid_argument(where + "minimum " + std::to_string(i) +
                                  " has a non-finite energy or coordinate");
    }
  }
}

// ---- transition networks ---------------------------------------------------------------------

constexpr double kUnknownReal = std::numeric_limits<double>::quiet_NaN();

Column floatColumn(const char* name, const char* group) {
  return {name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5T_FLOAT, "float64", group};
}
Column integerColumn(const char* name, const char* group) {
  return {name, H5T_STD_I64LE, H5T_NATIVE_LONG, H5T_INTEGER, "int64", group};
}

bool massWeighted(const DatabaseMetadata& m) { return m.hessianMasses == kAtomicMassesAmu; }
/// The unit of a Hessian eigenvalue of the stored properties.
std::string hessianUnit(const DatabaseMetadata& m) {
  return massWeighted(m) ? m.energyUnit + " / (amu " + m.lengthUnit + "^2), mass-weighted"
                         : m.energyUnit + " / " + m.lengthUnit + "^2, unit masses";
}
std::string logProductUnit(const DatabaseMetadata& m) { return "ln(" + hessianUnit(m) + ")"; }
/// The transition states' `eigenvalue` (the eigenvector search's): always unit masses.
std::string searchEigenvalueUnit(const DatabaseMetadata& m) {
  return m.energyUnit + " / " + m.lengthUnit + "^2, unit masses";
}
std::string momentUnit(const DatabaseMetadata& m) {
  return massWeighted(m) ? "amu " + m.lengthUnit + "^2" : m.lengthUnit + "^2, unit masses";
}

bool hasDataset(hid_t group, const Column& column, const std::string& path) {
  const htri_t exists = H5Lexists(group, column.name, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, "cannot look up dataset " + datasetPath(column));
  return exists > 0;
}

/// Creates an extendible dataset and fills it with `rows` rows of `data` (rows x max(width, 1)).
void createFilledDataset(hid_t group, const Column& column, hsize_t width, const std::string& units,
                         hsize_t rows, const void* data, const std::string& path) {
  createExtendibleDataset(group, column, width, units, path);
  OpenDataset set = openDataset(group, column, width != 0, path);
  appendRows(set, column, rows, data, path);
  check(set.dataset.close(), path, "cannot close dataset " + datasetPath(column));
}

/// Opens a dataset and checks that it has `rows` rows and, for width != 0, `width` columns.
OpenDataset openShapedDataset(hid_t group, const Column& column, hsize_t width, hsize_t rows,
                              const std::string& path) {
  OpenDataset set = openDataset(group, column, width != 0, path);
  if (set.rows != rows || set.width != width) {
    const std::string expected =
        width == 0 ? std::to_string(rows) : std::to_string(rows) + " x " + std::to_string(width);
    const std::string found = width == 0
                                  ? std::to_string(set.rows)
                                  : std::to_string(set.rows) + " x " + std::to_string(set.width);
    invalid(path, "dataset " + datasetPath(column) + " has shape " + found + ", expected " +
                      expected + " (one row per entry of its group)");
  }
  return set;
}

void readWhole(OpenDataset& set, const Column& column, void* buffer, const std::string& path) {
  if (set.rows == 0) return;
  check(H5Dread(set.dataset.get(), column.memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer), path,
        "cannot read dataset " + datasetPath(column));
}

/// The optional /minima datasets of a network file, with the value a row gets when unknown.
struct OptionalColumn {
  Column column;
  bool perCoordinate;  // width 3N (else `width`)
  hsize_t width;
};

std::vector<OptionalColumn> optionalPropertyColumns(const char* group) {
  return {{floatColumn(kLogProductDataset, group), false, 0},
          {integerColumn(kPointGroupOrderDataset, group), false, 0},
          {floatColumn(kPrincipalMomentsDataset, group), false, 3},
          {floatColumn(kHessianEigenvaluesDataset, group), true, 0}};
}

/// After MinimaDatabase::append added `added` rows to the four base datasets, grows the optional
/// datasets of a network file by as many unknown rows, so that every dataset keeps n rows.
void extendOptionalMinimaColumns(hid_t group, std::size_t added, std::size_t atoms,
                                 hsize_t oldCount, const std::string& path) {
  for (const OptionalColumn& optional : optionalPropertyColumns(kMinimaGroup)) {
    if (!hasDataset(group, optional.column, path)) continue;
    const hsize_t width = optional.perCoordinate ? 3 * static_cast<hsize_t>(atoms) : optional.width;
    OpenDataset set = openShapedDataset(group, optional.column, width, oldCount, path);
    const std::size_t values = added * std::max<hsize_t>(width, 1);
    if (optional.column.typeClass == H5T_INTEGER) {
      const std::vector<long> unknown(values, 0);
      appendRows(set, optional.column, added, unknown.data(), path);
    } else {
      const std::vector<double> unknown(values, kUnknownReal);
      appendRows(set, optional.column, added, unknown.data(), path);
    }
    check(set.dataset.close(), path, "cannot close dataset " + datasetPath(optional.column));
  }
}

/// Writes the Hessian-derived datasets of `points` (minima or transition states) into `group`.
template <typename Point>
void writeProperties(hid_t group, const char* groupName, const std::vector<Point>& points,
                     const DatabaseMetadata& metadata, const std::string& path) {
  const std::size_t n = points.size();
  const std::size_t width = 3 * metadata.atoms;
  std::vector<double> logProducts(n), moments(3 * n);
  std::vector<long> orders(n);
  bool anySpectrum = false;
  for (std::size_t i = 0; i < n; ++i) {
    const StationaryPointProperties& p = points[i].properties;
    logProducts[i] = p.logProductOfPositiveEigenvalues;
    orders[i] = p.pointGroupOrder;
    std::copy(p.principalMoments.begin(), p.principalMoments.end(), moments.begin() + 3 * i);
    anySpectrum = anySpectrum || !p.hessianEigenvalues.empty();
  }
  const std::vector<OptionalColumn> columns = optionalPropertyColumns(groupName);
  createFilledDataset(group, columns[0].column, 0, logProductUnit(metadata), n, logProducts.data(),
                      path);
  createFilledDataset(group, columns[1].column, 0, kCountUnit, n, orders.data(), path);
  createFilledDataset(group, columns[2].column, 3, momentUnit(metadata), n, moments.data(), path);
  if (anySpectrum) {
    // Rows of points whose Hessian was not computed are NaN.
    std::vector<double> spectra(n * width, kUnknownReal);
    for (std::size_t i = 0; i < n; ++i) {
      const std::vector<double>& e = points[i].properties.hessianEigenvalues;
      std::copy(e.begin(), e.end(), spectra.begin() + i * width);
    }
    createFilledDataset(group, columns[3].column, width, hessianUnit(metadata), n, spectra.data(),
                        path);
  }
}

/// Reads the Hessian-derived datasets of `group` that exist into `points` (n rows each).
template <typename Point>
void readProperties(hid_t group, const char* groupName, std::vector<Point>& points,
                    std::size_t atoms, const std::string& path) {
  const std::size_t n = points.size();
  const std::size_t width = 3 * atoms;
  const std::vector<OptionalColumn> columns = optionalPropertyColumns(groupName);
  if (hasDataset(group, columns[0].column, path)) {
    std::vector<double> values(n);
    OpenDataset set = openShapedDataset(group, columns[0].column, 0, n, path);
    readWhole(set, columns[0].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      points[i].properties.logProductOfPositiveEigenvalues = values[i];
    }
  }
  if (hasDataset(group, columns[1].column, path)) {
    std::vector<long> values(n);
    OpenDataset set = openShapedDataset(group, columns[1].column, 0, n, path);
    readWhole(set, columns[1].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      if (values[i] < 0 || values[i] > 1000000) {
        invalid(path, "dataset " + datasetPath(columns[1].column) + " row " + std::to_string(i) +
                          " holds " + std::to_string(values[i]) +
                          ", not a point-group order (0 = unknown)");
      }
      points[i].properties.pointGroupOrder = static_cast<int>(values[i]);
    }
  }
  if (hasDataset(group, columns[2].column, path)) {
    std::vector<double> values(3 * n);
    OpenDataset set = openShapedDataset(group, columns[2].column, 3, n, path);
    readWhole(set, columns[2].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      std::copy(values.begin() + 3 * i, values.begin() + 3 * i + 3,
                points[i].properties.principalMoments.begin());
    }
  }
  if (hasDataset(group, columns[3].column, path)) {
    std::vector<double> values(n * width);
    OpenDataset set = openShapedDataset(group, columns[3].column, width, n, path);
    readWhole(set, columns[3].column, values.data(), path);
    for (std::size_t i = 0; i < n; ++i) {
      const auto row = values.begin() + i * width;
      // A NaN row is a point whose Hessian was not computed.
      if (std::isnan(row[0])) continue;
      points[i].properties.hessianEigenvalues.assign(row, row + width);
    }
  }
}

/// Writes /endpoints/a and /endpoints/b (0-based rows of /minima) when either set is non-empty.
void writeEndpointSets(hid_t file, const StoredTransitionNetwork& network, const std::string& path) {
  if (network.setA.empty() && network.setB.empty()) return;
  Handle group =
      checked(H5Gcreate2(file, kEndpointsGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
              path, std::string("cannot create group /") + kEndpointsGroup);
  const std::vector<long> a(network.setA.begin(), network.setA.end());
  const std::vector<long> b(network.setB.begin(), network.setB.end());
  createFilledDataset(group.get(), integerColumn(kSetADataset, kEndpointsGroup), 0, kIndexUnit,
                      a.size(), a.data(), path);
  createFilledDataset(group.get(), integerColumn(kSetBDataset, kEndpointsGroup), 0, kIndexUnit,
                      b.size(), b.data(), path);
  check(group.close(), path, std::string("cannot close group /") + kEndpointsGroup);
}

/// Reads one endpoint set; every entry must be a row of /minima.
std::vector<int> readEndpointSet(hid_t group, const char* name, long minima,
                                 const std::string& path) {
  const Column column = integerColumn(name, kEndpointsGroup);
  if (!hasDataset(group, column, path)) return {};
  OpenDataset set = openDataset(group, column, false, path);
  std::vector<long> values(set.rows);
  readWhole(set, column, values.data(), path);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0 || values[i] >= minima) {
      invalid(path, "dataset " + datasetPath(column) + " row " + std::to_string(i) +
                        " names minimum " + std::to_string(values[i]) + ", but /minima has " +
                        std::to_string(minima) + " rows (0-based)");
    }
  }
  return std::vector<int>(values.begin(), values.end());
}

void readEndpointSets(hid_t file, StoredTransitionNetwork& network, const std::string& path) {
  const htri_t exists = H5Lexists(file, kEndpointsGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, std::string("cannot look up group /") + kEndpointsGroup);
  if (exists == 0) return;
  Handle group = checked(H5Gopen2(file, kEndpointsGroup, H5P_DEFAULT), H5Gclose, path,
                         std::string("cannot open group /") + kEndpointsGroup);
  const long n = static_cast<long>(network.minima.size());
  network.setA = readEndpointSet(group.get(), kSetADataset, n, path);
  network.setB = readEndpointSet(group.get(), kSetBDataset, n, path);
}

/// Writes /growth (attributes cycles and settings, pair lists n x 2) unless the record is empty.
void writeGrowthRecord(hid_t file, const GrowthRecord& growth, const std::string& path) {
  if (growth.empty()) return;
  const std::string where = std::string("group /") + kGrowthGroup;
  Handle group = checked(H5Gcreate2(file, kGrowthGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Gclose, path, "cannot create " + where);
  writeIntegerAttribute(group.get(), kGrowthCyclesAttribute, growth.cycles, H5T_STD_I64LE, path,
                        where);
  writeStringAttribute(group.get(), kGrowthSettingsAttribute, growth.settings, path, where);
  for (const auto& [name, pairs] : {std::make_pair(kTriedPairsDataset, &growth.triedPairs),
                                    std::make_pair(kPendingPairsDataset, &growth.pendingPairs)}) {
    std::vector<long> flat;
    for (const std::array<int, 2>& pair : *pairs) flat.insert(flat.end(), pair.begin(), pair.end());
    createFilledDataset(group.get(), integerColumn(name, kGrowthGroup), 2, kIndexUnit,
                        pairs->size(), flat.data(), path);
  }
  check(group.close(), path, "cannot close " + where);
}

std::vector<std::array<int, 2>> readPairs(hid_t group, const char* name, long minima,
                                          const std::string& path) {
  const Column column = integerColumn(name, kGrowthGroup);
  OpenDataset set = openDataset(group, column, true, path);
  if (set.width != 2) invalid(path, "dataset " + datasetPath(column) + " must have 2 columns");
  std::vector<long> flat(2 * set.rows);
  readWhole(set, column, flat.data(), path);
  std::vector<std::array<int, 2>> pairs(set.rows);
  for (std::size_t i = 0; i < flat.size(); ++i) {
    if (flat[i] < 0 || flat[i] >= minima) {
      invalid(path, "dataset " + datasetPath(column) + " row " + std::to_string(i / 2) +
                        " names minimum " + std::to_string(flat[i]) + ", but /minima has " +
                        std::to_string(minima) + " rows (0-based)");
    }
    pairs[i / 2][i % 2] = static_cast<int>(flat[i]);
  }
  return pairs;
}

void readGrowthRecord(hid_t file, StoredTransitionNetwork& network, const std::string& path) {
  const htri_t exists = H5Lexists(file, kGrowthGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, std::string("cannot look up group /") + kGrowthGroup);
  if (exists == 0) return;
  const std::string where = std::string("group /") + kGrowthGroup;
  Handle group = checked(H5Gopen2(file, kGrowthGroup, H5P_DEFAULT), H5Gclose, path,
                         "cannot open " + where);
  GrowthRecord& growth = network.growth;
  const long long cycles = readIntegerAttribute(group.get(), kGrowthCyclesAttribute, path, where);
  if (cycles < 0 || cycles > std::numeric_limits<int>::max()) {
    invalid(path, "attribute 'cycles' of " + where + " must be a count, not " +
                      std::to_string(cycles));
  }
  growth.cycles = static_cast<int>(cycles);
  growth.settings = readStringAttribute(group.get(), kGrowthSettingsAttribute, path, where);
  const long n = static_cast<long>(network.minima.size());
  growth.triedPairs = readPairs(group.get(), kTriedPairsDataset, n, path);
  growth.pendingPairs = readPairs(group.get(), kPendingPairsDataset, n, path);
}

void validateNetwork(const std::string& path, const DatabaseMetadata& metadata,
                     const StoredTransitionNetwork& network) {
  std::vector<StoredMinimum> plain;  // the checks of the minima database
  validateInput("write", path, metadata, plain);
  const std::string where = "TransitionNetworkDatabase::write('" + path + "'): ";
  const std::size_t width = 3 * metadata.atoms;
  auto checkPoint = [&](const std::string& what, double energy,
                        const std::vector<double>& coordinates,
                        const StationaryPointProperties& properties) {
    bool finite = std::isfinite(energy);  // what read() refuses is not written either
    for (double x : coordinates) finite = finite && std::isfinite(x);
    if (!finite) {
      throw std::invalid_argument(where + what + " has a non-finite energy or coordinate");
    }
    if (coordinates.size() != width) {
      throw std::invalid_argument(
          where + what + " has " + std::to_string(coordinates.size()) +
          " coordinates, but metadata.atoms = " + std::to_string(metadata.atoms) + " needs " +
          std::to_string(width));
    }
    if (!properties.hessianEigenvalues.empty() && properties.hessianEigenvalues.size() != width) {
      throw std::invalid_argument(where + what + " has " +
                                  std::to_string(properties.hessianEigenvalues.size()) +
                                  " Hessian eigenvalues, expected 0 or " + std::to_string(width));
    }
    if (properties.pointGroupOrder < 0) {
      throw std::invalid_argument(where + what + " has a negative point-group order");
    }
  };
  for (std::size_t i = 0; i < network.minima.size(); ++i) {
    checkPoint("minimum " + std::to_string(i), network.minima[i].energy,
               network.minima[i].coordinates, network.minima[i].properties);
  }
  const int n = static_cast<int>(network.minima.size());
  for (const std::vector<int>* set : {&network.setA, &network.setB}) {
    for (int index : *set) {
      if (index < 0 || index >= n) {
        throw std::invalid_argument(where + "endpoint set " + (set == &network.setA ? "A" : "B") +
                                    " names minimum " + std::to_string(index) +
                                    ", but the network has " + std::to_string(n) +
                                    " minima (0-based)");
      }
    }
  }
  for (const auto* pairs : {&network.growth.triedPairs, &network.growth.pendingPairs}) {
    for (const std::array<int, 2>& pair : *pairs) {
      if (pair[0] < 0 || pair[0] >= n || pair[1] < 0 || pair[1] >= n) {
        throw std::invalid_argument(where + "growth pair (" + std::to_string(pair[0]) + ", " +
                                    std::to_string(pair[1]) + ") is outside the network's " +
                                    std::to_string(n) + " minima (0-based)");
      }
    }
  }
  for (std::size_t i = 0; i < network.transitionStates.size(); ++i) {
    const StoredTransitionState& ts = network.transitionStates[i];
    const std::string what = "transition state " + std::to_string(i);
    checkPoint(what, ts.energy, ts.coordinates, ts.properties);
    if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n) {
      throw std::invalid_argument(where + what + " connects minima " +
                                  std::to_string(ts.plusMinimum) + " and " +
                                  std::to_string(ts.minusMinimum) + ", but the network has " +
                                  std::to_string(n) + " minima (0-based)");
    }
  }
}

}  // namespace

void MinimaDatabase::write(const std::string& path, const DatabaseMetadata& metadata,
                           const std::vector<StoredMinimum>& minima) {
  validateInput("write", path, metadata, minima);
  SilenceHdf5Errors silence;
  const std::string temporary = path + ".tmp";
  try {
    Handle file = checked(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                          H5Fclose, path, "cannot create the temporary file '" + temporary + "'");
    writeRootAttributes(file.get(), metadata, path);
    const std::string groupWhat = std::string("cannot create group /") + kMinimaGroup;
    Handle group =
        checked(H5Gcreate2(file.get(), kMinimaGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                H5Gclose, path, groupWhat);
    const hsize_t width = 3 * static_cast<hsize_t>(metadata.atoms);
    createExtendibleDataset(group.get(), energyColumn(), 0, metadata.energyUnit, path);
    createExtendibleDataset(group.get(), coordinatesColumn(), width, metadata.lengthUnit, path);
    createExtendibleDataset(group.get(), firstFoundStepColumn(), 0, kCountUnit, path);
    createExtendibleDataset(group.get(), functionCallsColumn(), 0, kCountUnit, path);
    // One code path for writing rows: a fresh file is an empty one that is appended to.
    MinimaDatasets sets = openMinimaDatasets(group.get(), metadata.atoms, path);
    appendMinima(sets, minima, metadata.atoms, path);
    check(group.close(), path, std::string("cannot close group /") + kMinimaGroup);
    check(file.close(), path, "cannot close the temporary file '" + temporary + "'");
    commit(temporary, path);
  } catch (...) {
    removeQuietly(temporary);
    throw;
  }
}

void MinimaDatabase::append(const std::string& path, const DatabaseMetadata& metadata,
                            const std::vector<StoredMinimum>& minima) {
  validateInput("append", path, metadata, minima);
  std::error_code error;
  if (!fs::exists(path, error)) {
    write(path, metadata, minima);
    return;
  }
  SilenceHdf5Errors silence;
  {
    // Check compatibility on the original before paying for the copy.
    Handle file = openExisting(path, H5F_ACC_RDONLY);
    const DatabaseMetadata existing = readRootAttributes(file.get(), path);
    auto require = [&](bool same, const std::string& field, const std::string& stored,
                       const std::string& given) {
      if (!same) {
        invalid(path, "cannot append: the file has " + field + " " + stored +
                          " but the new minima have " + given);
      }
    };
    require(existing.atoms == metadata.atoms, "atoms =", std::to_string(existing.atoms),
            std::to_string(metadata.atoms));
    require(existing.potential == metadata.potential, "potential", quoteInput(existing.potential),
            quoteInput(metadata.potential));
    require(existing.energyUnit == metadata.energyUnit, "energy_unit",
            quoteInput(existing.energyUnit), quoteInput(metadata.energyUnit));
    require(existing.lengthUnit == metadata.lengthUnit, "length_unit",
            quoteInput(existing.lengthUnit), quoteInput(metadata.lengthUnit));
    Handle group = openMinimaGroup(file.get(), path);
    openMinimaDatasets(group.get(), metadata.atoms, path);
  }
  const std::string temporary = path + ".tmp";
  try {
    fs::copy_file(path, temporary, fs::copy_options::overwrite_existing, error);
    if (error) invalid(path, "cannot copy it to '" + temporary + "': " + error.message());
    Handle file = checked(H5Fopen(temporary.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path,
                          "cannot open the temporary copy '" + temporary + "'");
    Handle group = openMinimaGroup(file.get(), path);
    MinimaDatasets sets = openMinimaDatasets(group.get(), metadata.atoms, path);
    const hsize_t oldCount = sets.count;
    appendMinima(sets, minima, metadata.atoms, path);
    extendOptionalMinimaColumns(group.get(), minima.size(), metadata.atoms, oldCount, path);
    check(group.close(), path, std::string("cannot close group /") + kMinimaGroup);
    check(file.close(), path, "cannot close the temporary copy '" + temporary + "'");
    commit(temporary, path);
  } catch (...) {
    removeQuietly(temporary);
    throw;
  }
}

std::vector<StoredMinimum> MinimaDatabase::read(const std::string& path,
                                                DatabaseMetadata* metadata) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  const DatabaseMetadata header = readRootAttributes(file.get(), path);
  Handle group = openMinimaGroup(file.get(), path);
  MinimaDatasets sets = openMinimaDatasets(group.get(), header.atoms, path);

  const std::size_t n = sets.count;
  const std::size_t width = 3 * header.atoms;
  // The rows are read whole, then copied into the minima: twice the coordinates, and the counts.
  requireMemory(prefix(path) + ": " + std::to_string(n) + " minima of " +
                    std::to_string(header.atoms) + " atoms",
                static_cast<double>(n), 2.0 * sizeof(double) * static_cast<double>(width) + 64.0);
  std::vector<double> energies(n);
  std::vector<double> coordinates(n * width);
  std::vector<long> steps(n);
  std::vector<long> calls(n);
  if (n > 0) {
    auto readAll = [&](OpenDataset& set, const Column& column, void* buffer) {
      check(H5Dread(set.dataset.get(), column.memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer),
            path, "cannot read dataset " + datasetPath(column));
    };
    readAll(sets.energy, energyColumn(), energies.data());
    readAll(sets.coordinates, coordinatesColumn(), coordinates.data());
    readAll(sets.firstFoundStep, firstFoundStepColumn(), steps.data());
    readAll(sets.functionCalls, functionCallsColumn(), calls.data());
  }

  std::vector<StoredMinimum> minima(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(energies[i])) {
      invalid(path, "dataset " + datasetPath(kEnergyDataset) + " row " + std::to_string(i) +
                        " is not a finite energy");
    }
    for (std::size_t k = i * width; k < (i + 1) * width; ++k) {
      if (!std::isfinite(coordinates[k])) {
        invalid(path, "dataset " + datasetPath(kCoordinatesDataset) + " row " + std::to_string(i) +
                          " column " + std::to_string(k - i * width) + " is not a finite number");
      }
    }
    minima[i].energy = energies[i];
    minima[i].coordinates.assign(coordinates.begin() + i * width,
                                 coordinates.begin() + (i + 1) * width);
    minima[i].firstFoundStep = steps[i];
    minima[i].functionCalls = calls[i];
  }
  if (metadata != nullptr) *metadata = header;
  return minima;
}

DatabaseMetadata MinimaDatabase::readMetadata(const std::string& path) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  DatabaseMetadata header = readRootAttributes(file.get(), path);
  Handle group = openMinimaGroup(file.get(), path);
  openMinimaDatasets(group.get(), header.atoms, path);
  return header;
}

std::size_t MinimaDatabase::count(const std::string& path) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  const DatabaseMetadata header = readRootAttributes(file.get(), path);
  Handle group = openMinimaGroup(file.get(), path);
  return openMinimaDatasets(group.get(), header.atoms, path).count;
}

void TransitionNetworkDatabase::write(const std::string& path, const DatabaseMetadata& metadata,
                                      const StoredTransitionNetwork& network) {
  validateNetwork(path, metadata, network);
  SilenceHdf5Errors silence;
  const std::string temporary = path + ".tmp";
  const hsize_t width = 3 * static_cast<hsize_t>(metadata.atoms);
  try {
    Handle file = checked(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                          H5Fclose, path, "cannot create the temporary file '" + temporary + "'");
    writeRootAttributes(file.get(), metadata, path);

    // /minima: the four datasets of a minima database, then the Hessian-derived ones.
    Handle minimaGroup =
        checked(H5Gcreate2(file.get(), kMinimaGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                H5Gclose, path, std::string("cannot create group /") + kMinimaGroup);
    createExtendibleDataset(minimaGroup.get(), energyColumn(), 0, metadata.energyUnit, path);
    createExtendibleDataset(minimaGroup.get(), coordinatesColumn(), width, metadata.lengthUnit,
                            path);
    createExtendibleDataset(minimaGroup.get(), firstFoundStepColumn(), 0, kCountUnit, path);
    createExtendibleDataset(minimaGroup.get(), functionCallsColumn(), 0, kCountUnit, path);
    std::vector<StoredMinimum> plain(network.minima.size());
    for (std::size_t i = 0; i < plain.size(); ++i) {
      const StoredNetworkMinimum& m = network.minima[i];
      plain[i] = {m.energy, m.coordinates, m.firstFoundStep, m.functionCalls};
    }
    MinimaDatasets sets = openMinimaDatasets(minimaGroup.get(), metadata.atoms, path);
    appendMinima(sets, plain, metadata.atoms, path);
    writeProperties(minimaGroup.get(), kMinimaGroup, network.minima, metadata, path);
    check(minimaGroup.close(), path, std::string("cannot close group /") + kMinimaGroup);

    // /transition_states
    const std::size_t m = network.transitionStates.size();
    Handle tsGroup = checked(
        H5Gcreate2(file.get(), kTransitionStatesGroup, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Gclose, path, std::string("cannot create group /") + kTransitionStatesGroup);
    std::vector<double> energies(m), coordinates(m * width), eigenvalues(m);
    std::vector<long> connected(2 * m);
    for (std::size_t i = 0; i < m; ++i) {
      const StoredTransitionState& ts = network.transitionStates[i];
      energies[i] = ts.energy;
      std::copy(ts.coordinates.begin(), ts.coordinates.end(), coordinates.begin() + i * width);
      connected[2 * i] = ts.plusMinimum;
      connected[2 * i + 1] = ts.minusMinimum;
      eigenvalues[i] = ts.eigenvalue;
    }
    createFilledDataset(tsGroup.get(), floatColumn(kEnergyDataset, kTransitionStatesGroup), 0,
                        metadata.energyUnit, m, energies.data(), path);
    createFilledDataset(tsGroup.get(), floatColumn(kCoordinatesDataset, kTransitionStatesGroup),
                        width, metadata.lengthUnit, m, coordinates.data(), path);
    createFilledDataset(tsGroup.get(),
                        integerColumn(kConnectedMinimaDataset, kTransitionStatesGroup), 2,
                        kIndexUnit, m, connected.data(), path);
    createFilledDataset(tsGroup.get(), floatColumn(kEigenvalueDataset, kTransitionStatesGroup), 0,
                        searchEigenvalueUnit(metadata), m, eigenvalues.data(), path);
    writeProperties(tsGroup.get(), kTransitionStatesGroup, network.transitionStates, metadata,
                    path);
    check(tsGroup.close(), path, std::string("cannot close group /") + kTransitionStatesGroup);
    writeEndpointSets(file.get(), network, path);
    writeGrowthRecord(file.get(), network.growth, path);
    check(file.close(), path, "cannot close the temporary file '" + temporary + "'");
    commit(temporary, path);
  } catch (...) {
    removeQuietly(temporary);
    throw;
  }
}

StoredTransitionNetwork TransitionNetworkDatabase::read(const std::string& path,
                                                        DatabaseMetadata* metadata) {
  DatabaseMetadata header;
  const std::vector<StoredMinimum> plain = MinimaDatabase::read(path, &header);
  StoredTransitionNetwork network;
  network.minima.resize(plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    StoredNetworkMinimum& m = network.minima[i];
    m.energy = plain[i].energy;
    m.coordinates = plain[i].coordinates;
    m.firstFoundStep = plain[i].firstFoundStep;
    m.functionCalls = plain[i].functionCalls;
  }

  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDONLY);
  {
    Handle group = openMinimaGroup(file.get(), path);
    readProperties(group.get(), kMinimaGroup, network.minima, header.atoms, path);
  }
  const htri_t exists = H5Lexists(file.get(), kTransitionStatesGroup, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, std::string("cannot look up group /") + kTransitionStatesGroup);
  if (exists > 0) {
    Handle group = checked(H5Gopen2(file.get(), kTransitionStatesGroup, H5P_DEFAULT), H5Gclose,
                           path, std::string("cannot open group /") + kTransitionStatesGroup);
    const hsize_t width = 3 * static_cast<hsize_t>(header.atoms);
    const Column energyColumn = floatColumn(kEnergyDataset, kTransitionStatesGroup);
    OpenDataset energySet = openDataset(group.get(), energyColumn, false, path);
    const std::size_t m = energySet.rows;
    requireMemory(prefix(path) + ": " + std::to_string(m) + " transition states of " +
                      std::to_string(header.atoms) + " atoms",
                  static_cast<double>(m), 2.0 * sizeof(double) * static_cast<double>(width) + 64.0);
    std::vector<double> energies(m), coordinates(m * width);
    std::vector<long> connected(2 * m);
    readWhole(energySet, energyColumn, energies.data(), path);
    const Column coordinatesColumn = floatColumn(kCoordinatesDataset, kTransitionStatesGroup);
    OpenDataset coordinateSet = openShapedDataset(group.get(), coordinatesColumn, width, m, path);
    readWhole(coordinateSet, coordinatesColumn, coordinates.data(), path);
    const Column minimaColumn = integerColumn(kConnectedMinimaDataset, kTransitionStatesGroup);
    OpenDataset minimaSet = openShapedDataset(group.get(), minimaColumn, 2, m, path);
    readWhole(minimaSet, minimaColumn, connected.data(), path);
    network.transitionStates.resize(m);
    const long n = static_cast<long>(network.minima.size());
    for (std::size_t i = 0; i < m; ++i) {
      StoredTransitionState& ts = network.transitionStates[i];
      ts.energy = energies[i];
      ts.coordinates.assign(coordinates.begin() + i * width, coordinates.begin() + (i + 1) * width);
      if (!std::isfinite(ts.energy)) {
        invalid(path, "dataset " + datasetPath(energyColumn) + " row " + std::to_string(i) +
                          " is not a finite energy");
      }
      for (double v : ts.coordinates) {
        if (!std::isfinite(v)) {
          invalid(path, "dataset " + datasetPath(coordinatesColumn) + " row " + std::to_string(i) +
                            " holds a coordinate that is not a finite number");
        }
      }
      for (int side = 0; side < 2; ++side) {
        const long index = connected[2 * i + side];
        if (index < 0 || index >= n) {
          invalid(path, "dataset " + datasetPath(minimaColumn) + " row " + std::to_string(i) +
                            " names minimum " + std::to_string(index) + ", but /minima has " +
                            std::to_string(n) + " rows (0-based)");
        }
      }
      ts.plusMinimum = static_cast<int>(connected[2 * i]);
      ts.minusMinimum = static_cast<int>(connected[2 * i + 1]);
    }
    const Column eigenvalueColumn = floatColumn(kEigenvalueDataset, kTransitionStatesGroup);
    if (hasDataset(group.get(), eigenvalueColumn, path)) {
      std::vector<double> values(m);
      OpenDataset set = openShapedDataset(group.get(), eigenvalueColumn, 0, m, path);
      readWhole(set, eigenvalueColumn, values.data(), path);
      for (std::size_t i = 0; i < m; ++i) network.transitionStates[i].eigenvalue = values[i];
    }
    readProperties(group.get(), kTransitionStatesGroup, network.transitionStates, header.atoms,
                   path);
  }
  readEndpointSets(file.get(), network, path);
  readGrowthRecord(file.get(), network, path);
  if (metadata != nullptr) *metadata = header;
  return network;
}

namespace detail {

void overwriteSchemaVersion(const std::string& path, int schemaVersion) {
  SilenceHdf5Errors silence;
  Handle file = openExisting(path, H5F_ACC_RDWR);
  const std::string where = "the root group";
  if (hasAttribute(file.get(), kSchemaVersionAttribute, path, where)) {
    check(H5Adelete(file.get(), kSchemaVersionAttribute), path,
          "cannot delete attribute 'schema_version'");
  }
  writeIntegerAttribute(file.get(), kSchemaVersionAttribute, schemaVersion, H5T_STD_I32LE, path,
                        where);
  check(file.close(), path, "cannot close it");
}

}  // namespace detail

}  // namespace landscape
