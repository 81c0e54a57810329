#include "src/sop/SopOutputFiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace landscape {

SopOutputFiles::SopOutputFiles(const SopConfig& config, const SopTopology& topology,
                               const std::vector<double>& start, const SopDynamics& md)
    : m_config(config),
      m_topology(topology),
      m_dcd(config.frameInterval > 0 && config.trajectoryFormat == "dcd"),
      m_curves(config.dynamics.replicas),
      m_frames(config.dynamics.replicas),
      m_dcdFrames(config.dynamics.replicas),
      m_curveLines(config.dynamics.replicas, 0),
      m_frameCount(config.dynamics.replicas, 0) {
  if (m_dcd) {
    std::string text;
    appendSopPdbModel(text, topology, start.data(), 1);
    std::ofstream(config.outputDir + "/topology.pdb") << text << "END\n";
  }
  for (int r = 0; r < config.dynamics.replicas; ++r) openReplica(r, md);
}

SopOutputFiles::SopOutputFiles(const SopConfig& config, const SopTopology& topology,
                               const std::vector<SopOutputMark>& marks)
    : m_config(config),
      m_topology(topology),
      m_dcd(config.frameInterval > 0 && config.trajectoryFormat == "dcd"),
      m_curves(config.dynamics.replicas),
      m_frames(config.dynamics.replicas),
      m_dcdFrames(config.dynamics.replicas),
      m_curveLines(config.dynamics.replicas, 0),
      m_frameCount(config.dynamics.replicas, 0) {
  for (int r = 0; r < config.dynamics.replicas; ++r) reopenReplica(r, marks);
}

SopOutputFiles::Names SopOutputFiles::namesOf(int r) const {
  const std::string replica = std::to_string(r);
  Names n;
  n.curve = "force_curve_" + replica + ".dat";
  if (m_config.frameInterval > 0) n.frames = "trajectory_" + replica + (m_dcd ? ".dcd" : ".pdb");
  return n;
}

void SopOutputFiles::openReplica(int r, const SopDynamics& md) {
  const std::string dir = m_config.outputDir;
  const Names names = namesOf(r);
  m_curves[r].open(dir + "/" + names.curve);
  if (!m_curves[r]) throw std::runtime_error(dir + ": cannot write " + names.curve);
  const char* extensionName = md.protocol().indentation ? "Z_A" : "extension_A";
  m_curves[r] << "# sop " << m_topology.source << ": " << m_topology.beadCount() << " beads, "
              << m_topology.contacts.size() << " native contacts, replica " << r << "\n"
              << "# time_ps force_kcal_mol_A force_pN " << extensionName << " tip_A Q\n";
  if (m_dcd)
    m_dcdFrames[r] = std::make_unique<DcdWriter>(
        dir + "/" + names.frames, m_topology.beadCount(), 0, m_config.frameInterval,
        m_config.dynamics.langevin.timeStep, "sop " + m_topology.source);
  else if (!names.frames.empty())
    m_frames[r].open(dir + "/" + names.frames);
}

namespace {

// Cuts DIR/NAME back to its mark; returns the path. The file must hold at least the mark.
std::string cutBack(const std::string& dir, const std::string& name,
                    const std::vector<SopOutputMark>& marks, std::uint64_t& records) {
  const auto mark = std::find_if(marks.begin(), marks.end(),
                                 [&](const SopOutputMark& m) { return m.name == name; });
  const std::string path = dir + "/" + name;
  if (mark == marks.end())
    throw std::runtime_error(path + ": not in the checkpoint (were the output options changed?)");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error)
    throw std::runtime_error(path + ": cannot continue it (" + error.message() +
                             "); the checkpoint covers its first " + std::to_string(mark->bytes) +
                             " bytes");
  if (size < mark->bytes)
    throw std::runtime_error(path + ": " + std::to_string(size) + " bytes, fewer than the " +
                             std::to_string(mark->bytes) + " the checkpoint covers (the file was "
                             "changed after the run)");
  std::filesystem::resize_file(path, mark->bytes, error);
  if (error) throw std::runtime_error(path + ": cannot cut it back: " + error.message());
  records = mark->records;
  return path;
}

}  // namespace

void SopOutputFiles::reopenReplica(int r, const std::vector<SopOutputMark>& marks) {
  const std::string dir = m_config.outputDir;
  const Names names = namesOf(r);
  const std::string curve = cutBack(dir, names.curve, marks, m_curveLines[r]);
  m_curves[r].open(curve, std::ios::app);
  if (!m_curves[r]) throw std::runtime_error(curve + ": cannot append to it");
  if (names.frames.empty()) return;
  const std::string frames = cutBack(dir, names.frames, marks, m_frameCount[r]);
  if (m_dcd) {
    m_dcdFrames[r] = std::make_unique<DcdWriter>(frames, m_topology.beadCount(),
                                                 m_config.frameInterval, m_frameCount[r]);
  } else {
    m_frames[r].open(frames, std::ios::app);
    if (!m_frames[r]) throw std::runtime_error(frames + ": cannot append to it");
  }
}

void SopOutputFiles::requireFinite(int r, SopDynamics& md, const std::vector<double>& x,
                                   long step) const {
  if (std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); }) &&
      std::isfinite(md.tipPosition(r)))
    return;
  char text[240];
  std::snprintf(text, sizeof text,
                "replica %d: non-finite coordinates at step %ld (t = %.6g ps): the dynamics "
                "blew up (--dt %.6g ps too large for --friction %.6g kcal ps/(mol A^2)?); "
                "the files hold the samples before it",
                r, step, md.time(), m_config.dynamics.langevin.timeStep,
                m_config.dynamics.langevin.friction);
  throw std::runtime_error(text);
}

void SopOutputFiles::sample(SopDynamics& md, long step) {
  for (int r = 0; r < m_config.dynamics.replicas; ++r) {
    const std::vector<double> x = md.positions(r);
    requireFinite(r, md, x, step);
    if (step % m_config.outputInterval == 0) writeCurveLine(r, md, x);
    if (m_config.frameInterval > 0 && step % m_config.frameInterval == 0) writeFrame(r, step, x);
  }
}

void SopOutputFiles::sampleLastStep(SopDynamics& md) {
  if (md.stepsDone() % m_config.outputInterval == 0) return;  // sample() wrote it
  for (int r = 0; r < m_config.dynamics.replicas; ++r) {
    const std::vector<double> x = md.positions(r);
    requireFinite(r, md, x, md.stepsDone());
    writeCurveLine(r, md, x);
  }
}

void SopOutputFiles::writeCurveLine(int r, SopDynamics& md, const std::vector<double>& x) {
  const SopSample s = sampleSop(m_topology, md.protocol(), x.data(), md.tipPosition(r), md.time(),
                                m_config.qTolerance);
  char line[160];
  std::snprintf(line, sizeof line, "%.4f %.6f %.3f %.4f %.4f %.5f\n", s.time, s.force,
                s.force * kPicoNewtonPerKcalMolA, s.extension, s.tipPosition, s.q);
  m_curves[r] << line;
  ++m_curveLines[r];
}

void SopOutputFiles::writeFrame(int r, long step, const std::vector<double>& x) {
  ++m_frameCount[r];
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

std::vector<SopOutputMark> SopOutputFiles::marks() {
  flush();
  std::vector<SopOutputMark> out;
  const auto add = [&](const std::string& name, std::uint64_t records) {
    out.push_back({name, std::filesystem::file_size(m_config.outputDir + "/" + name), records});
  };
  for (int r = 0; r < m_config.dynamics.replicas; ++r) {
    const Names names = namesOf(r);
    add(names.curve, m_curveLines[r]);
    if (!names.frames.empty()) add(names.frames, m_frameCount[r]);
  }
  return out;
}

}  // namespace landscape
