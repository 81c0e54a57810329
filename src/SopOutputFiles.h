#pragma once
// The per-replica files of a `sop` run: force_curve_<r>.dat (time, force, extension or Z, tip
// position, Q) every output interval, and trajectory_<r>.pdb (multi-model) or trajectory_<r>.dcd
// with topology.pdb every frame interval. Every line reaches the disk after each sample, so a
// crash loses no sample.
#include <fstream>
#include <memory>
#include <vector>

#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/DcdFile.h"
#include "potentials/SopTopology.h"
#include "src/SopRunConfig.h"

namespace landscape {

constexpr double kPicoNewtonPerKcalMolA = 69.4786;  // 1 kcal/mol/A in pN

class SopOutputFiles {
 public:
  /// Creates the files in config.outputDir (which must exist) and writes their headers; start is
  /// the structure topology.pdb shows. Throws std::runtime_error when a file cannot be written.
  SopOutputFiles(const SopRunConfig& config, const SopTopology& topology,
                 const std::vector<double>& start, const SopDynamics& md);

  /// The curve lines and frames that are due at `step`, for every replica. Throws
  /// std::runtime_error, writing nothing for `step`, when a replica's coordinates are not finite.
  void sample(SopDynamics& md, long step);
  void flush();

 private:
  void openReplica(int r, const SopDynamics& md);
  void writeCurveLine(int r, SopDynamics& md, const std::vector<double>& x);
  void writeFrame(int r, long step, const std::vector<double>& x);

  const SopRunConfig& m_config;
  const SopTopology& m_topology;
  bool m_dcd;
  std::vector<std::ofstream> m_curves, m_frames;
  std::vector<std::unique_ptr<DcdWriter>> m_dcdFrames;
};

}  // namespace landscape
