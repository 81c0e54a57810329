#pragma once
// optim's connect checkpoint (`connect.checkpoint` in its output folder, docs/database.md): the
// ConnectProgress after the last completed cycle (counters and the DNEB attempts per pair), the
// number of transition states the database held before the run (path.info lists only the run's
// own) and the fingerprint of the options, as versioned text. Written atomically after
// network.h5 in every cycle, so the pair on disk always describes one cycle: a checkpoint newer
// than the network cannot happen, an older one (killed between the two renames) is caught by the
// minima count it records.
#include <cstddef>
#include <string>

#include "landscape/formats/CheckpointFile.h"
#include "landscape/paths/Connect.h"

namespace landscape {

/// Version 2 ends with the checksum line (CheckpointReader.h); version 1 files still read.
inline constexpr int kConnectCheckpointVersion = 2;

struct ConnectCheckpoint {
  CheckpointFingerprint fingerprint;
  std::size_t loadedTransitionStates = 0;  ///< in the database before the run began
  std::size_t minima = 0;                  ///< in the network when it was saved
  std::size_t transitionStates = 0;        ///< in the network when it was saved
  ConnectProgress progress;
};

std::string formatConnectCheckpoint(const ConnectCheckpoint& checkpoint);
/// Writes formatConnectCheckpoint atomically; throws std::runtime_error naming the file.
void writeConnectCheckpointFile(const std::string& path, const ConnectCheckpoint& checkpoint);
/// Throws std::runtime_error "path:line: ..." when the text is not a complete checkpoint of this
/// version (counts out of range, attempt counts outside the matrix, a truncated file).
ConnectCheckpoint parseConnectCheckpoint(const std::string& path, std::string text);
ConnectCheckpoint readConnectCheckpointFile(const std::string& path);

}  // namespace landscape
