#pragma once
// CHARMM/NAMD DCD trajectory writer (what VMD loads beside a PDB of the same atoms): little-endian
// Fortran records, a header (frame count, first step, save interval, time step), one title
// record, the atom count, then per frame three records of float x, y and z (Angstrom). The frame
// count is rewritten on every frame, so a file cut short by a crash stays readable.
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace landscape {

class DcdWriter {
 public:
  /// Creates (truncates) `path` for `atoms` atoms. firstStep and saveInterval are the step of
  /// frame 1 and the steps between frames; timeStep is written as DCD's DELTA (the caller's time
  /// unit, ps here). Throws std::runtime_error naming the file when it cannot be written.
  DcdWriter(const std::string& path, std::size_t atoms, long firstStep, long saveInterval,
            double timeStep, const std::string& title);
  /// Continues `path`, a DCD that DcdWriter wrote for `atoms` atoms, holding `frames` frames (the
  /// caller cut it back to them: sop --resume): the header counts are set to `frames` at once and
  /// later frames are appended. Throws std::runtime_error naming the file when it cannot be opened.
  DcdWriter(const std::string& path, std::size_t atoms, long saveInterval, std::size_t frames);
  /// Appends one frame of 3 x atoms coordinates x1 y1 z1 x2 ... (A).
  void write(const double* x);
  std::size_t frames() const { return m_frames; }

 private:
  void record(const void* data, std::uint32_t bytes);
  void writeCounts();
  std::string m_path;
  std::ofstream m_out;
  std::size_t m_atoms;
  std::size_t m_frames = 0;
  long m_saveInterval;
  std::vector<float> m_buffer;
};

/// Reads a DCD written by DcdWriter (tests, tools): the frames as 3 x atoms doubles each.
std::vector<std::vector<double>> readDcd(const std::string& path);

}  // namespace landscape
