// The HDF5 layer beneath the minima database (Hdf5File.h): errors, attributes, extendible
// datasets, and the atomic publication of a written file.
#include "landscape/network/Hdf5File.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "landscape/core/InputChecks.h"
#include "landscape/network/DatabaseSchema.h"

namespace landscape::database {

namespace {

namespace fs = std::filesystem;

// Chunk sizes: HDF5 reads and writes whole chunks, and its default chunk cache is 1 MiB, so chunks
// of tens of KiB keep reading one minimum cheap while appending stays a few chunk writes.
constexpr hsize_t kChunkEntries1D = 1024;         // 8 KiB of float64 or int64
constexpr hsize_t kCoordinateChunkBytes = 65536;  // 64 KiB of coordinate rows (at least one row)
constexpr hsize_t kSmallestChunkRows = 16;
// The longest fixed-length string attribute read (a damaged size field would size the buffer).
constexpr std::size_t kLongestStringAttribute = std::size_t{1} << 20;

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

/// Counts against sizes: rows that were written are stored whole (chunks are allocated whole, and
/// without a compression filter a value takes its 8 bytes), so a shape larger than the dataset's
/// storage is a damaged shape, refused before it sizes a read. Compressed datasets (other
/// writers) are not checked here.
void requireStoredRows(const OpenDataset& set, const std::string& name, const std::string& path) {
  const std::string what = "cannot inspect dataset " + name;
  Handle properties = checked(H5Dget_create_plist(set.dataset.get()), H5Pclose, path, what);
  const int filters = H5Pget_nfilters(properties.get());
  if (filters < 0) failHdf5(path, what);
  for (int i = 0; i < filters; ++i) {
    unsigned flags = 0;
    std::size_t elements = 0;
    const H5Z_filter_t filter =
        H5Pget_filter2(properties.get(), static_cast<unsigned>(i), &flags, &elements, nullptr, 0,
                       nullptr, nullptr);
    if (filter < 0) failHdf5(path, what);
    if (filter != H5Z_FILTER_FLETCHER32) return;
  }
  Handle type = checked(H5Dget_type(set.dataset.get()), H5Tclose, path, what);
  const std::size_t valueBytes = H5Tget_size(type.get());
  if (valueBytes == 0) failHdf5(path, what);
  const double needed = static_cast<double>(set.rows) *
                        static_cast<double>(std::max<hsize_t>(set.width, 1)) *
                        static_cast<double>(valueBytes);
  const double stored = static_cast<double>(H5Dget_storage_size(set.dataset.get()));
  if (needed > stored) {
    invalid(path, "dataset " + name + " declares " + std::to_string(set.rows) + " rows (" +
                      std::to_string(static_cast<long long>(needed)) + " bytes), but only " +
                      std::to_string(static_cast<long long>(stored)) +
                      " bytes are stored (a damaged shape?)");
  }
}

/// Flushes `file` to stable storage so that the rename in commit() publishes complete data even
/// across a power loss. File systems that cannot sync (EINVAL, EROFS, ENOTSUP) are accepted as they
/// are.
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

}  // namespace

// ---- errors ----------------------------------------------------------------------------------

std::string prefix(const std::string& path) { return "minima database '" + path + "'"; }

void invalid(const std::string& path, const std::string& sentence) {
  throw std::runtime_error(prefix(path) + ": " + sentence);
}

void failHdf5(const std::string& path, const std::string& what) {
  const std::string reason = takeHdf5Reason();
  // HDF5 verifies the checksums of the metadata (superblock v2+, object headers v2, chunk
  // indexes) and of the data chunks written with the Fletcher32 filter: a mismatch is a damaged
  // file, said so in words.
  std::string lower = reason;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.find("checksum") != std::string::npos) {
    SilenceHdf5Errors::damagedMetadataSeen() = true;
    throw std::runtime_error(prefix(path) + ": " + what +
                             ": checksum mismatch, the file was changed after it was written "
                             "(damaged on disk or in transfer; HDF5: " + reason + ")");
  }
  throw std::runtime_error(prefix(path) + ": " + what +
                           (reason.empty() ? "" : " (HDF5: " + reason + ")"));
}

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
  // Fixed-length UTF-8, null-padded, stored inside the object header, which carries a checksum
  // (createFile): a variable-length string would live in HDF5's global heap, which has none, and
  // whose damaged lengths libhdf5 1.10 copies past its buffers.
  Handle type = checked(H5Tcopy(H5T_C_S1), H5Tclose, path, what);
  check(H5Tset_size(type.get(), std::max<std::size_t>(1, value.size())), path, what);
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), path, what);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), path, what);
  Handle space = checked(H5Screate(H5S_SCALAR), H5Sclose, path, what);
  Handle attribute =
      checked(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              path, what);
  std::string data = value;
  data.resize(std::max<std::size_t>(1, value.size()), '\0');
  check(H5Awrite(attribute.get(), type.get(), data.data()), path, what);
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
  if (size > kLongestStringAttribute) {
    invalid(path, "attribute '" + std::string(name) + "' of " + where + " declares a string of " +
                      std::to_string(size) + " bytes (at most " +
                      std::to_string(kLongestStringAttribute) + " are read; a damaged file?)");
  }
  check(H5Tset_size(memoryType.get(), size), path, what);
  check(H5Tset_strpad(memoryType.get(), H5Tget_strpad(fileType.get())), path, what);
  check(H5Tset_cset(memoryType.get(), H5Tget_cset(fileType.get())), path, what);
  std::string buffer(size, '\0');
  check(H5Aread(attribute.get(), memoryType.get(), buffer.data()), path, what);
  buffer.resize(std::min(buffer.find('\0'), buffer.size()));
  if (H5Tget_strpad(fileType.get()) == H5T_STR_SPACEPAD) {
    buffer.erase(buffer.find_last_not_of(' ') + 1);
  }
  return buffer;
}

// ---- datasets --------------------------------------------------------------------------------

std::string datasetPath(const char* name, const char* group) {
  return std::string("/") + group + "/" + name;
}

std::string datasetPath(const Column& column) { return datasetPath(column.name, column.group); }

Column floatColumn(const char* name, const char* group) {
  return {name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, H5T_FLOAT, "float64", group};
}
Column integerColumn(const char* name, const char* group) {
  return {name, H5T_STD_I64LE, H5T_NATIVE_LONG, H5T_INTEGER, "int64", group};
}

void createExtendibleDataset(hid_t group, const Column& column, hsize_t width,
                             const std::string& units, const std::string& path,
                             hsize_t rowsHint) {
  const std::string what = "cannot create dataset " + datasetPath(column);
  const int rank = width == 0 ? 1 : 2;
  const hsize_t dims[2] = {0, width};
  const hsize_t maxDims[2] = {H5S_UNLIMITED, width};
  hsize_t chunkRows = width == 0
                          ? kChunkEntries1D
                          : std::max<hsize_t>(1, kCoordinateChunkBytes / (width * sizeof(double)));
  // A chunk is stored whole: a few rows get a chunk of the next power of two of them (at least
  // kSmallestChunkRows, so that later appends stay a few chunk writes).
  if (rowsHint > 0) {
    hsize_t fit = kSmallestChunkRows;
    while (fit < rowsHint && fit < chunkRows) fit *= 2;
    chunkRows = std::min(chunkRows, fit);
  }
  const hsize_t chunk[2] = {chunkRows, width};
  Handle space = checked(H5Screate_simple(rank, dims, maxDims), H5Sclose, path, what);
  Handle properties = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, what);
  check(H5Pset_chunk(properties.get(), rank, chunk), path, what);
  // A Fletcher32 checksum per chunk, verified by HDF5 on every read: a changed digit in a stored
  // record is reported (failHdf5: "checksum mismatch") instead of read as data.
  check(H5Pset_fletcher32(properties.get()), path, what);
  Handle dataset = checked(H5Dcreate2(group, column.name, column.fileType, space.get(), H5P_DEFAULT,
                                      properties.get(), H5P_DEFAULT),
                           H5Dclose, path, what);
  writeStringAttribute(dataset.get(), kUnitsAttribute, units, path,
                       "dataset " + datasetPath(column));
  check(dataset.close(), path, what);
}

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
  requireStoredRows(result, name, path);
  // A damaged shape must not size an allocation: every reader holds the whole dataset in memory.
  requireMemory(prefix(path) + ": dataset " + name + " of " + std::to_string(result.rows) +
                    (twoDimensional ? " x " + std::to_string(result.width) : std::string()) +
                    " values",
                static_cast<double>(result.rows),
                8.0 * static_cast<double>(std::max<hsize_t>(result.width, 1)));
  return result;
}

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

bool hasDataset(hid_t group, const Column& column, const std::string& path) {
  const htri_t exists = H5Lexists(group, column.name, H5P_DEFAULT);
  if (exists < 0) failHdf5(path, "cannot look up dataset " + datasetPath(column));
  return exists > 0;
}

void createFilledDataset(hid_t group, const Column& column, hsize_t width, const std::string& units,
                         hsize_t rows, const void* data, const std::string& path) {
  createExtendibleDataset(group, column, width, units, path, rows);
  OpenDataset set = openDataset(group, column, width != 0, path);
  appendRows(set, column, rows, data, path);
  check(set.dataset.close(), path, "cannot close dataset " + datasetPath(column));
}

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

Handle createFile(const std::string& temporary, const std::string& path) {
  const std::string what = "cannot create the temporary file '" + temporary + "'";
  // The HDF5 1.10 format: superblock version 3, version 2 object headers and the new chunk
  // indexes, all of which carry checksums that HDF5 verifies when it reads them, so damaged
  // metadata is refused before it is parsed. Readers need HDF5 1.10 or newer (h5py ships it).
  Handle access = checked(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, path, what);
  check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V110, H5F_LIBVER_V110), path, what);
  return checked(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose,
                 path, what);
}

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

}  // namespace landscape::database
