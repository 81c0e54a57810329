#pragma once
// Whole-file writes that never leave a half-written file behind: the bytes go to path + ".tmp",
// which is flushed to disk (fsync) and renamed over `path` (docs/database.md explains why).
#include <string>

namespace landscape {

/// Writes `bytes` to `path` atomically. `what` names the file's kind in messages ("min.data").
/// Throws std::runtime_error naming the file when it cannot be written; the temporary file is
/// removed then.
void writeFileAtomically(const std::string& path, const std::string& bytes,
                         const std::string& what);

/// Appends `bytes` to `path` (created when missing) in one write and flushes the file to disk
/// (fsync) before it returns: a journal's record. A kill during the write can leave the record
/// cut short, which the journal's reader must recognise. Throws std::runtime_error naming the
/// file when it cannot be written.
void appendToFileDurably(const std::string& path, const std::string& bytes,
                         const std::string& what);

/// The whole content of a file (binary). Throws std::runtime_error naming it when it cannot be
/// read.
std::string readWholeFile(const std::string& path, const std::string& what);

}  // namespace landscape
