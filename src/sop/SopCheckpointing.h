#pragma once
// sop's checkpoints (sop --resume): DIR/sop.checkpoint (landscape/formats/SopCheckpointFile) is
// written atomically at every output interval and when a signal stops the run, and read back,
// checked against this run's options, PDB file and protocol, by --resume.
#include <optional>
#include <string>

#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/SopCheckpointFile.h"
#include "src/sop/SopOutputFiles.h"
#include "src/sop/SopConfig.h"

namespace landscape {

class SopCheckpointing {
 public:
  /// Reads the PDB file for its digest. Throws std::runtime_error when it cannot be read.
  explicit SopCheckpointing(const SopConfig& config);

  /// The checkpoint of config.resumeDir, checked (fingerprint, PDB digest, step not beyond
  /// --steps); none without --resume, or when the folder exists but holds no checkpoint (stopped
  /// or killed before the first output interval: a note, and the run starts afresh there).
  /// Throws std::runtime_error naming the file and the first difference.
  std::optional<SopCheckpoint> load() const;
  /// Continues `md` from the checkpoint, after checking that its replicas, beads and protocol
  /// are the run's. Throws std::runtime_error naming the checkpoint otherwise.
  void restore(const SopCheckpoint& checkpoint, SopDynamics& md) const;
  /// Writes the checkpoint of `md` now, covering what `files` hold.
  void save(SopDynamics& md, SopOutputFiles& files) const;

  std::string path() const { return m_config.outputDir + "/sop.checkpoint"; }

 private:
  SopCheckpoint describe(SopDynamics& md) const;

  const SopConfig& m_config;
  CheckpointFingerprint m_fingerprint;
  std::string m_digest;
};

}  // namespace landscape
