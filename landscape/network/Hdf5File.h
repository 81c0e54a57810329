#pragma once
// The HDF5 layer beneath the minima database: move-only owners of HDF5 identifiers, errors that
// name the file and what failed (with HDF5's own reason), scalar attributes, extendible chunked
// datasets read and written whole or by rows, and the atomic publication of a finished file
// (written beside the target, flushed to disk, renamed over it). With the Database*.cpp files,
// the only code that includes HDF5; nothing outside the database includes this header.
#include <hdf5.h>

#include <string>
#include <utility>

namespace landscape::database {

// ---- errors ----------------------------------------------------------------------------------

/// "minima database 'path'": how every message about the file begins.
std::string prefix(const std::string& path);

/// A check on the file's content failed (no HDF5 call failed).
[[noreturn]] void invalid(const std::string& path, const std::string& sentence);

/// An HDF5 call failed; the message carries HDF5's own reason.
[[noreturn]] void failHdf5(const std::string& path, const std::string& what);

inline void check(herr_t status, const std::string& path, const std::string& what) {
  if (status < 0) failHdf5(path, what);
}

/// Turns HDF5's automatic printing of errors to stderr off for one public call (library code never
/// prints) and restores the caller's setting afterwards.
class SilenceHdf5Errors {
 public:
  SilenceHdf5Errors() {
    H5Eget_auto2(H5E_DEFAULT, &m_function, &m_data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    H5Eclear2(H5E_DEFAULT);
  }
  ~SilenceHdf5Errors() {
    if (!damagedMetadataSeen()) H5Eset_auto2(H5E_DEFAULT, m_function, m_data);
  }
  /// True once HDF5 refused a file's metadata for a checksum mismatch: HDF5 1.10 then cannot free
  /// its cache entries, and at exit would print "infinite loop closing library" through the
  /// automatic handler, so printing stays off for the rest of the process.
  static bool& damagedMetadataSeen() {
    static bool seen = false;
    return seen;
  }
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

/// Owns `id`, or throws (failHdf5) when the call that returned it failed.
Handle checked(hid_t id, Handle::Closer closer, const std::string& path, const std::string& what);

// ---- attributes ------------------------------------------------------------------------------
// `where` names the object in messages ("the root group", "dataset /minima/energy").

bool hasAttribute(hid_t object, const char* name, const std::string& path,
                  const std::string& where);

/// A scalar string attribute, fixed-length UTF-8, null-padded (h5py returns numpy.bytes_).
void writeStringAttribute(hid_t object, const char* name, const std::string& value,
                          const std::string& path, const std::string& where);

/// A scalar integer attribute of the given type on disk.
void writeIntegerAttribute(hid_t object, const char* name, long long value, hid_t fileType,
                           const std::string& path, const std::string& where);

long long readIntegerAttribute(hid_t object, const char* name, const std::string& path,
                               const std::string& where);

/// Variable-length strings, and fixed-length ones as other writers store them.
std::string readStringAttribute(hid_t object, const char* name, const std::string& path,
                                const std::string& where);

// ---- datasets --------------------------------------------------------------------------------

/// "/group/name", as messages print a dataset.
std::string datasetPath(const char* name, const char* group);

/// One dataset of a group: name, HDF5 types and the group holding it.
struct Column {
  const char* name;
  hid_t fileType;    // type on disk
  hid_t memoryType;  // type of the buffer in memory
  H5T_class_t typeClass;
  const char* typeName;  // for messages
  const char* group;     // the group holding it
};

std::string datasetPath(const Column& column);

/// float64 on disk, double in memory.
Column floatColumn(const char* name, const char* group);
/// int64 on disk, long in memory.
Column integerColumn(const char* name, const char* group);

/// Creates an empty dataset of shape (0) or (0, width), chunked and unlimited along the first axis,
/// with a `units` attribute. `rowsHint`, the rows about to be written (0: unknown), sizes the
/// chunks, so that a small network is a small file.
void createExtendibleDataset(hid_t group, const Column& column, hsize_t width,
                             const std::string& units, const std::string& path,
                             hsize_t rowsHint = 0);

/// An opened dataset with its validated current shape.
struct OpenDataset {
  Handle dataset;
  hsize_t rows = 0;
  hsize_t width = 0;  // 0 for 1-D
};

/// Opens a dataset that must exist, checking its type class and rank.
OpenDataset openDataset(hid_t group, const Column& column, bool twoDimensional,
                        const std::string& path);

/// Grows `set` by `rows` rows and writes `data` (rows x width values, row-major) into them.
void appendRows(OpenDataset& set, const Column& column, hsize_t rows, const void* data,
                const std::string& path);

bool hasDataset(hid_t group, const Column& column, const std::string& path);

/// Creates an extendible dataset and fills it with `rows` rows of `data` (rows x max(width, 1)).
void createFilledDataset(hid_t group, const Column& column, hsize_t width, const std::string& units,
                         hsize_t rows, const void* data, const std::string& path);

/// Opens a dataset and checks that it has `rows` rows and, for width != 0, `width` columns.
OpenDataset openShapedDataset(hid_t group, const Column& column, hsize_t width, hsize_t rows,
                              const std::string& path);

/// Reads the whole dataset into `buffer` (nothing when it has no rows).
void readWhole(OpenDataset& set, const Column& column, void* buffer, const std::string& path);

// ---- files -----------------------------------------------------------------------------------

/// Opens an existing HDF5 file, saying in one sentence why when it is missing, a directory or not
/// HDF5.
Handle openExisting(const std::string& path, unsigned flags);

/// Creates (truncating) the temporary file of a write, in the checksummed HDF5 1.10 file format.
Handle createFile(const std::string& temporary, const std::string& path);

/// Publishes the finished temporary file under its final name: flushed to stable storage, then
/// renamed over `path` (atomic within a file system; the temporary file lives beside the target).
void commit(const std::string& temporary, const std::string& path);

/// Removes a file, ignoring every error (the temporary file of a failed write).
void removeQuietly(const std::string& file);

}  // namespace landscape::database
