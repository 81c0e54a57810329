#pragma once
// One run per output folder: gmin, optim and sop hold an exclusive flock(2) on DIR/.lock for their
// whole run, so a second run on the same folder is refused at the start (naming the process that
// holds it) instead of racing on the same temporary files and failing after its whole run. The
// kernel releases the lock when the holder dies, even by kill -9, so a stale .lock file never
// blocks. And every file a run will write is tried at the start (requireWritable), so that an
// unwritable path fails before the work rather than after it.
#include <string>

namespace landscape {

class OutputLock {
 public:
  /// Creates `dir` (and its parents) when missing and locks it for `program`. Throws
  /// std::runtime_error "DIR is in use by PROGRAM (process PID) ..." when another process holds
  /// the lock, or naming the folder when it cannot be created or locked.
  OutputLock(const std::string& dir, const std::string& program);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int m_fd = -1;
};

/// Throws std::runtime_error "cannot write WHAT PATH: reason" unless a file can be created beside
/// `path` (its temporary, path + ".tmp", which the atomic writers rename over it); removes it again.
void requireWritable(const std::string& path, const std::string& what);

}  // namespace landscape
