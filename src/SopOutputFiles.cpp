#include "src/SopOutputFiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace landscape {

SopOutputFiles::SopOutputFiles(const SopRunConfig& config, const SopTopology& topology,
                               const std::vector<double>& start, const SopDynamics& md)
    : m_config(config),
      m_topology(topology),
      m_dcd(config.frameInterval > 0 && config.trajectoryFormat == "dcd"),
      m_curves(config.dynamics.replicas),
      m_frames(config.dynamics.replicas),
      m_dcdFrames(config.dynamics.replicas) {
  if (m_dcd) {
    std::string text;
    appendSopPdbModel(text, topology, start.data(), 1);
    std::ofstream(config.outputDir + "/topology.pdb") << text << "END\n";
  }
  for (int r = 0; r < config.dynamics.replicas; ++r) openReplica(r, md);
}

void SopOutputFiles::openReplica(int r, const SopDynamics& md) {
  const std::string dir = m_config.outputDir;
  const std::string replica = std::to_string(r);
  m_curves[r].open(dir + "/force_curve_" + replica + ".dat");
  if (!m_curves[r])
    throw std::runtime_error(dir + ": cannot write force_curve_" + replica + ".dat");
  const char* extensionName = md.protocol().indentation ? "Z_A" : "extension_A";
  m_curves[r] << "# sop " << m_topology.source << ": " << m_topology.beadCount() << " beads, "
              << m_topology.contacts.size() << " native contacts, replica " << r << "\n"
              << "# time_ps force_kcal_mol_A force_pN " << extensionName << " tip_A Q\n";
  if (m_dcd)
    m_dcdFrames[r] = std::make_unique<DcdWriter>(
        dir + "/trajectory_" + replica + ".dcd", m_topology.beadCount(), 0, m_config.frameInterval,
        m_config.dynamics.langevin.timeStep, "sop " + m_topology.source);
  else if (m_config.frameInterval > 0)
    m_frames[r].open(dir + "/trajectory_" + replica + ".pdb");
}

void SopOutputFiles::sample(SopDynamics& md, long step) {
  for (int r = 0; r < m_config.dynamics.replicas; ++r) {
    const std::vector<double> x = md.positions(r);
    if (!std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); }) ||
        !std::isfinite(md.tipPosition(r))) {
      char text[240];
      std::snprintf(text, sizeof text,
                    "replica %d: non-finite coordinates at step %ld (t = %.6g ps): the dynamics "
                    "blew up (--dt %.6g ps too large for --friction %.6g kcal ps/(mol A^2)?); "
                    "the files hold the samples before it",
                    r, step, md.time(), m_config.dynamics.langevin.timeStep,
                    m_config.dynamics.langevin.friction);
      throw std::runtime_error(text);
    }
    if (step % m_config.outputInterval == 0 || step == m_config.steps) writeCurveLine(r, md, x);
    if (m_config.frameInterval > 0 && step % m_config.frameInterval == 0) writeFrame(r, step, x);
  }
}

void SopOutputFiles::writeCurveLine(int r, SopDynamics& md, const std::vector<double>& x) {
  const SopSample s = sampleSop(m_topology, md.protocol(), x.data(), md.tipPosition(r), md.time(),
                                m_config.qTolerance);
  char line[160];
  std::snprintf(line, sizeof line, "%.4f %.6f %.3f %.4f %.4f %.5f\n", s.time, s.force,
                s.force * kPicoNewtonPerKcalMolA, s.extension, s.tipPosition, s.q);
  m_curves[r] << line;
}

void SopOutputFiles::writeFrame(int r, long step, const std::vector<double>& x) {
  if (m_dcd) {
    m_dcdFrames[r]->write(x.data());
    return;
  }
  std::string text;
  appendSopPdbModel(text, m_topology, x.data(),
                    static_cast<int>(step / m_config.frameInterval) + 1);
  m_frames[r] << text;
}

void SopOutputFiles::flush() {
  for (std::size_t r = 0; r < m_curves.size(); ++r) {
    m_curves[r].flush();
    if (m_frames[r].is_open()) m_frames[r].flush();
  }
}

}  // namespace landscape
