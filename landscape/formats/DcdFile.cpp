#include "landscape/formats/DcdFile.h"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

constexpr std::streamoff kFrameCountOffset = 8;  // marker (4) + "CORD" (4)
constexpr std::streamoff kStepCountOffset = 20;  // NSET, ISTART, NSAVC, then NSTEP
constexpr int kTitleLength = 80;

void putInt(std::vector<char>& b, std::int32_t v) {
  const char* p = reinterpret_cast<const char*>(&v);
  b.insert(b.end(), p, p + 4);
}

}  // namespace

DcdWriter::DcdWriter(const std::string& path, std::size_t atoms, long firstStep, long saveInterval,
                     double timeStep, const std::string& title)
    : m_path(path),
      m_out(path, std::ios::binary | std::ios::trunc),
      m_atoms(atoms),
      m_saveInterval(saveInterval),
      m_buffer(atoms) {
  if (!m_out) throw std::runtime_error(path + ": cannot write the DCD file");
  if (atoms == 0 || atoms > 0x7fffffffu / 4)
    throw std::invalid_argument(path + ": a DCD file needs 1 to 536870911 atoms");
  std::vector<char> header;
  header.insert(header.end(), {'C', 'O', 'R', 'D'});
  putInt(header, 0);                                        // NSET, frames (updated)
  putInt(header, static_cast<std::int32_t>(firstStep));     // ISTART
  putInt(header, static_cast<std::int32_t>(saveInterval));  // NSAVC
  putInt(header, 0);                                        // NSTEP (updated)
  for (int k = 0; k < 5; ++k) putInt(header, 0);
  const float delta = static_cast<float>(timeStep);
  const char* d = reinterpret_cast<const char*>(&delta);
  header.insert(header.end(), d, d + 4);          // DELTA
  for (int k = 0; k < 9; ++k) putInt(header, 0);  // no unit cell, no 4th dimension
  putInt(header, 24);                             // CHARMM version, as NAMD writes it
  record(header.data(), static_cast<std::uint32_t>(header.size()));
  std::vector<char> titles;
  putInt(titles, 1);
  std::string line = title.substr(0, kTitleLength);
  line.resize(kTitleLength, ' ');
  titles.insert(titles.end(), line.begin(), line.end());
  record(titles.data(), static_cast<std::uint32_t>(titles.size()));
  const std::int32_t n = static_cast<std::int32_t>(atoms);
  record(&n, 4);
  m_out.flush();
  if (!m_out) throw std::runtime_error(path + ": writing the DCD header failed");
}

void DcdWriter::record(const void* data, std::uint32_t bytes) {
  m_out.write(reinterpret_cast<const char*>(&bytes), 4);
  m_out.write(reinterpret_cast<const char*>(data), bytes);
  m_out.write(reinterpret_cast<const char*>(&bytes), 4);
}

void DcdWriter::write(const double* x) {
  for (int c = 0; c < 3; ++c) {
    for (std::size_t i = 0; i < m_atoms; ++i) m_buffer[i] = static_cast<float>(x[3 * i + c]);
    record(m_buffer.data(), static_cast<std::uint32_t>(4 * m_atoms));
  }
  ++m_frames;
  writeCounts();
}

DcdWriter::DcdWriter(const std::string& path, std::size_t atoms, long saveInterval,
                     std::size_t frames)
    : m_path(path),
      m_out(path, std::ios::binary | std::ios::in | std::ios::out),
      m_atoms(atoms),
      m_frames(frames),
      m_saveInterval(saveInterval),
      m_buffer(atoms) {
  if (!m_out) throw std::runtime_error(path + ": cannot reopen the DCD file");
  m_out.seekp(0, std::ios::end);
  writeCounts();
}

// NSET and NSTEP in the header, then back to the end; flushed, so the file is whole after it.
void DcdWriter::writeCounts() {
  const std::streampos end = m_out.tellp();
  const std::int32_t frames = static_cast<std::int32_t>(m_frames);
  const std::int32_t steps = static_cast<std::int32_t>(m_frames * m_saveInterval);
  m_out.seekp(kFrameCountOffset);
  m_out.write(reinterpret_cast<const char*>(&frames), 4);
  m_out.seekp(kStepCountOffset);
  m_out.write(reinterpret_cast<const char*>(&steps), 4);
  m_out.seekp(end);
  m_out.flush();
  if (!m_out) throw std::runtime_error(m_path + ": writing a DCD frame failed");
}

std::vector<std::vector<double>> readDcd(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the DCD file");
  in.seekg(0, std::ios::end);
  const std::streamoff fileSize = in.tellg();
  in.seekg(0, std::ios::beg);
  if (!in || fileSize < 0) throw std::runtime_error(path + ": cannot read the DCD file");
  auto readRecord = [&](std::vector<char>& body) {
    std::uint32_t head = 0, tail = 0;
    if (!in.read(reinterpret_cast<char*>(&head), 4)) return false;
    // A record longer than the rest of the file is damage, not a reason to allocate it.
    if (static_cast<std::streamoff>(head) > fileSize - in.tellg())
      throw std::runtime_error(path + ": damaged DCD record (its length " + std::to_string(head) +
                               " runs past the end of the file)");
    body.resize(head);
    in.read(body.data(), head);
    in.read(reinterpret_cast<char*>(&tail), 4);
    if (!in || head != tail) throw std::runtime_error(path + ": damaged DCD record");
    return true;
  };
  std::vector<char> body;
  if (!readRecord(body) || body.size() != 84 || std::memcmp(body.data(), "CORD", 4) != 0)
    throw std::runtime_error(path + ": not a DCD file (no CORD header)");
  std::int32_t frames = 0;
  std::memcpy(&frames, body.data() + 4, 4);
  readRecord(body);  // titles
  if (!readRecord(body) || body.size() != 4) throw std::runtime_error(path + ": no atom count");
  std::int32_t atoms = 0;
  std::memcpy(&atoms, body.data(), 4);
  if (atoms < 1) throw std::runtime_error(path + ": atom count " + std::to_string(atoms) + " < 1");
  std::vector<std::vector<double>> out;
  // A frame is three records of 4 x atoms bytes; the atom count sizes nothing before the file is
  // known to hold at least one such frame.
  const std::streamoff frameBytes = 3 * (4 * static_cast<std::streamoff>(atoms) + 8);
  if (frames > 0 && fileSize - in.tellg() < frameBytes)
    throw std::runtime_error(path + ": frame 1 is incomplete (" + std::to_string(atoms) +
                             " atoms need " + std::to_string(frameBytes) + " bytes per frame)");
  for (std::int32_t f = 0; f < frames; ++f) {
    std::vector<double> x(3 * static_cast<std::size_t>(atoms));
    for (int c = 0; c < 3; ++c) {
      if (!readRecord(body) || body.size() != 4 * static_cast<std::size_t>(atoms))
        throw std::runtime_error(path + ": frame " + std::to_string(f + 1) + " is incomplete");
      for (std::int32_t i = 0; i < atoms; ++i) {
        float v;
        std::memcpy(&v, body.data() + 4 * static_cast<std::size_t>(i), 4);
        if (!std::isfinite(v))
          throw std::runtime_error(path + ": frame " + std::to_string(f + 1) + " atom " +
                                   std::to_string(i + 1) + ": coordinate is not a finite number");
        x[3 * static_cast<std::size_t>(i) + static_cast<std::size_t>(c)] = v;
      }
    }
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace landscape
