#pragma once
// One writer per output folder and per database: gmin, optim, sop and pathsample hold an exclusive
// flock(2) on DIR/.lock for their whole run, and every program that writes a database file (a
// minima.h5 or network.h5, in its folder or given by --database anywhere else) also holds one on
// the file's lock sibling, so a second writer is refused at the start (naming the program, process
// and host that holds it) instead of racing on the same temporary files, failing after its whole
// run, or replacing the first writer's network with its own. The kernel releases the lock when the
// holder dies, even by kill -9, so a stale lock file never blocks. And every file a run will write
// is tried at the start (requireWritable), so that an unwritable path fails before the work rather
// than after it.
#include <string>

namespace landscape {

class OutputLock {
 public:
  /// Creates `dir` (and its parents) when missing and locks it for `program`. Throws
  /// std::runtime_error "DIR is in use by PROGRAM (process PID on host HOST) ..." when another
  /// process holds the lock, or naming the folder when it cannot be created or locked.
  OutputLock(const std::string& dir, const std::string& program);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int m_fd = -1;
};

/// The lock of one database file: an exclusive flock(2) on its sibling ".NAME.lock" (the file
/// itself is replaced by rename on every write, and HDF5 locks it for its own use), held for the
/// whole run by every program that writes the file. Its folder must exist (call requireWritable
/// first for a message about the database). Throws std::runtime_error "database FILE is in
/// use by PROGRAM (process PID on host HOST) ..." when another process holds it.
class DatabaseLock {
 public:
  DatabaseLock(const std::string& databasePath, const std::string& program);
  ~DatabaseLock();
  DatabaseLock(const DatabaseLock&) = delete;
  DatabaseLock& operator=(const DatabaseLock&) = delete;

  /// The lock file of `databasePath`: DIR/.NAME.lock beside it.
  static std::string lockFileOf(const std::string& databasePath);

 private:
  int m_fd = -1;
};

/// Throws std::runtime_error "cannot write WHAT PATH: reason" unless a file can be created beside
/// `path` (its temporary, path + ".tmp", which the atomic writers rename over it); removes it again.
void requireWritable(const std::string& path, const std::string& what);

}  // namespace landscape
