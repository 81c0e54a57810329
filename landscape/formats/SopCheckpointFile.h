#pragma once
// sop's checkpoint (`sop.checkpoint` in its output folder; docs/sop.md "Stopping and resuming"
// describes the format): the fingerprint of the options, a digest of the PDB file, the resolved
// protocol (cantilever and tip geometry), the SopDynamicsState (step, every replica's coordinates
// and tip, random streams, CUDA list reference) and, per output file, how many bytes and records
// of it the checkpoint covers, so that `sop --resume` cuts each file back to that and appends.
// Versioned text; reals as C99 hexadecimal floats, so every bit survives. Written atomically.
// Units: A, ps.
#include <cstdint>
#include <string>
#include <vector>

#include "landscape/dynamics/SopDynamicsState.h"
#include "landscape/formats/CheckpointFile.h"

namespace landscape {

/// Version 2 ends with the checksum line (CheckpointReader.h); version 1 files still read.
inline constexpr int kSopCheckpointVersion = 2;

/// One output file of the run (a plain name inside the output folder) and how much of it belongs
/// to the steps up to the checkpoint: bytes, and records (curve lines or trajectory frames).
struct SopOutputMark {
  std::string name;
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
};

struct SopCheckpoint {
  CheckpointFingerprint fingerprint;
  std::string inputDigest;  ///< FNV-1a 64 of the PDB file, 16 hex digits
  std::size_t beads = 0;    ///< per replica
  int replicas = 0;
  /// The protocol at this step: "none", "pulling" (cantilever anchor at this time xyz, then the
  /// pulling direction xyz, A) or "indentation" (base position Z, tip origin xyz, direction xyz).
  std::string protocol = "none";
  std::vector<double> protocolValues;
  SopDynamicsState state;
  std::vector<SopOutputMark> outputs;
};

/// 16 hex digits of the FNV-1a 64 hash of `bytes` (the input digest).
std::string fnv1aDigest(const std::string& bytes);

std::string formatSopCheckpoint(const SopCheckpoint& checkpoint);
/// Writes formatSopCheckpoint atomically; throws std::runtime_error naming the file.
void writeSopCheckpointFile(const std::string& path, const SopCheckpoint& checkpoint);
/// Throws std::runtime_error "path:line: ..." when the text is not a complete, consistent
/// checkpoint of this version (sizes that do not fit replicas x beads, output names that are not
/// plain file names, a truncated file).
SopCheckpoint parseSopCheckpoint(const std::string& path, std::string text);
SopCheckpoint readSopCheckpointFile(const std::string& path);

}  // namespace landscape
