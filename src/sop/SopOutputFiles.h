#pragma once
// The per-replica files of a `sop` run: force_curve_<r>.dat (time, force, extension or Z, tip
// position, Q) every output interval, and trajectory_<r>.pdb (multi-model) or trajectory_<r>.dcd
// with topology.pdb every frame interval. Every line reaches the disk after each sample, so a
// crash loses no sample. marks() tells the checkpoint how much of each file the run has written;
// a resumed run cuts every file back to its mark and appends (no duplicate, no gap).
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/DcdFile.h"
#include "landscape/formats/SopCheckpointFile.h"
#include "potentials/SopTopology.h"
#include "src/sop/SopConfig.h"

namespace landscape {

constexpr double kPicoNewtonPerKcalMolA = 69.4786;  // 1 kcal/mol/A in pN

class SopOutputFiles {
 public:
  /// Creates the files in config.outputDir (which must exist) and writes their headers; start is
  /// the structure topology.pdb shows. Throws std::runtime_error when a file cannot be written.
  SopOutputFiles(const SopConfig& config, const SopTopology& topology,
                 const std::vector<double>& start, const SopDynamics& md);
  /// Continues the files of an interrupted run (sop --resume): each is cut back to its mark and
  /// opened for appending. Throws std::runtime_error naming the file when it is not among the
  /// marks, is missing, or is shorter than its mark (the folder changed since the checkpoint).
  SopOutputFiles(const SopConfig& config, const SopTopology& topology,
                 const std::vector<SopOutputMark>& marks);

  /// The curve lines (every output interval) and frames (every frame interval) due at `step`,
  /// for every replica. Throws std::runtime_error, writing nothing for `step`, when a replica's
  /// coordinates are not finite.
  void sample(SopDynamics& md, long step);
  /// The curve line of the run's last step when it is off the output grid (written after the
  /// last checkpoint, so that a longer resumed run does not keep it).
  void sampleLastStep(SopDynamics& md);
  void flush();
  /// Every file with the bytes and records written so far (flushes first).
  std::vector<SopOutputMark> marks();

 private:
  struct Names {
    std::string curve, frames;  // frames empty without a trajectory
  };
  Names namesOf(int r) const;
  void openReplica(int r, const SopDynamics& md);
  void reopenReplica(int r, const std::vector<SopOutputMark>& marks);
  void requireFinite(int r, SopDynamics& md, const std::vector<double>& x, long step) const;
  void writeCurveLine(int r, SopDynamics& md, const std::vector<double>& x);
  void writeFrame(int r, long step, const std::vector<double>& x);

  const SopConfig& m_config;
  const SopTopology& m_topology;
  bool m_dcd;
  std::vector<std::ofstream> m_curves, m_frames;
  std::vector<std::unique_ptr<DcdWriter>> m_dcdFrames;
  std::vector<std::uint64_t> m_curveLines, m_frameCount;
};

}  // namespace landscape
