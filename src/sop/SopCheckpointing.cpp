#include "src/sop/SopCheckpointing.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"
#include "src/sop/SopOptions.h"

namespace landscape {

SopCheckpointing::SopCheckpointing(const SopConfig& config)
    : m_config(config),
      m_fingerprint(sopFingerprint(config)),
      m_digest(fnv1aDigest(readWholeFile(config.pdbFile, "PDB file"))) {}

std::optional<SopCheckpoint> SopCheckpointing::load() const {
  if (m_config.resumeDir.empty()) return std::nullopt;
  const std::string file = path();
  if (std::filesystem::is_directory(m_config.resumeDir) && !std::filesystem::exists(file)) {
    std::fprintf(stderr,
                 "sop: note: %s has no sop checkpoint (the run stopped before its first output "
                 "interval): starting the run afresh there\n",
                 m_config.resumeDir.c_str());
    return std::nullopt;
  }
  if (!std::filesystem::exists(file))
    throw std::runtime_error(file + ": no sop checkpoint here (is it the --output folder of a sop "
                                    "run?)");
  SopCheckpoint c = readSopCheckpointFile(file);
  checkFingerprint(file, c.fingerprint, m_fingerprint);
  if (c.inputDigest != m_digest)
    throw std::runtime_error(file + ": the checkpoint was made from another " +
                             m_config.pdbFile + " (its contents changed); resume with the original");
  if (c.state.step > m_config.steps)
    throw std::runtime_error(file + ": the checkpoint is at step " + std::to_string(c.state.step) +
                             ", beyond --steps " + std::to_string(m_config.steps));
  return c;
}

SopCheckpoint SopCheckpointing::describe(SopDynamics& md) const {
  SopCheckpoint c;
  c.fingerprint = m_fingerprint;
  c.inputDigest = m_digest;
  c.beads = md.beads();
  c.replicas = md.replicas();
  const SopProtocol& p = md.protocol();
  const double t = md.time();
  if (p.pulling) {
    c.protocol = "pulling";
    for (int k = 0; k < 3; ++k)
      c.protocolValues.push_back(p.pullAnchor0[k] + p.pullSpeed * t * p.pullDirection[k]);
    c.protocolValues.insert(c.protocolValues.end(), p.pullDirection.begin(), p.pullDirection.end());
  } else if (p.indentation) {
    c.protocol = "indentation";
    c.protocolValues.push_back(p.tipSpeed * t);
    c.protocolValues.insert(c.protocolValues.end(), p.tipOrigin.begin(), p.tipOrigin.end());
    c.protocolValues.insert(c.protocolValues.end(), p.tipDirection.begin(), p.tipDirection.end());
  }
  return c;
}

void SopCheckpointing::restore(const SopCheckpoint& checkpoint, SopDynamics& md) const {
  try {
    if (checkpoint.beads != md.beads() || checkpoint.replicas != md.replicas())
      throw std::invalid_argument(std::to_string(checkpoint.replicas) + " replicas of " +
                                  std::to_string(checkpoint.beads) + " beads, this run has " +
                                  std::to_string(md.replicas()) + " of " +
                                  std::to_string(md.beads()));
    md.restoreState(checkpoint.state);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path() + ": " + e.what());
  }
  // The protocol follows from the options and the PDB, both checked; this catches a program
  // that resolves them differently from the one that wrote the checkpoint.
  const SopCheckpoint now = describe(md);
  if (now.protocol != checkpoint.protocol || now.protocolValues != checkpoint.protocolValues)
    throw std::runtime_error(path() + ": the checkpoint's " + checkpoint.protocol +
                             " geometry differs from this run's " + now.protocol +
                             " (another version of sop?)");
}

void SopCheckpointing::save(SopDynamics& md, SopOutputFiles& files) const {
  SopCheckpoint c = describe(md);
  c.state = md.saveState();
  c.outputs = files.marks();
  writeSopCheckpointFile(path(), c);
}

}  // namespace landscape
