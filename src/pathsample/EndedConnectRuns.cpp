#include "src/pathsample/EndedConnectRuns.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "landscape/core/ByteStream.h"
#include "landscape/core/Checksum.h"
#include "src/common/DistributedConnectJobs.h"

namespace landscape {

namespace {

constexpr char kHeader[] = "landscape ended connect runs 1\n";
constexpr std::size_t kHeaderSize = sizeof kHeader - 1;

}  // namespace

std::string endedConnectRunsPath(const std::string& folder) {
  return (std::filesystem::path(folder) / "ended-runs").string();
}

std::string encodeEndedConnectRuns(const EndedConnectRuns& runs, const std::string& settings,
                                   const std::vector<double>& minimumEnergies) {
  ByteWriter out;
  out.putArray(kHeader, kHeaderSize);
  out.putVector(std::vector<char>(settings.begin(), settings.end()));
  out.put(static_cast<std::uint64_t>(runs.size()));
  for (const auto& [pair, job] : runs) {
    for (int m : pair) {
      out.put(static_cast<std::int32_t>(m));
      out.put(minimumEnergies.at(static_cast<std::size_t>(m)));
    }
    putConnectJob(out, job);
  }
  std::string bytes(out.bytes().begin(), out.bytes().end());
  const std::uint32_t crc = crc32(bytes);
  bytes.append(reinterpret_cast<const char*>(&crc), sizeof crc);
  return bytes;
}

EndedConnectRuns decodeEndedConnectRuns(const std::string& bytes, const std::string& path,
                                        const std::string& settings,
                                        const std::vector<double>& minimumEnergies,
                                        std::size_t dimension) {
  const std::string remove = " (remove it to run those pairs again)";
  std::uint32_t stored = 0;
  if (bytes.size() < kHeaderSize + sizeof stored ||
      bytes.compare(0, kHeaderSize, kHeader, kHeaderSize) != 0)
    throw std::runtime_error(path + ": not a file of ended connect runs" + remove);
  const std::size_t body = bytes.size() - sizeof stored;
  std::memcpy(&stored, bytes.data() + body, sizeof stored);
  if (crc32(bytes.data(), body) != stored)
    throw std::runtime_error(path + ": damaged (its CRC-32 does not match its content)" + remove);
  const std::vector<char> content(bytes.begin() + static_cast<std::ptrdiff_t>(kHeaderSize),
                                  bytes.begin() + static_cast<std::ptrdiff_t>(body));
  ByteReader in(content, path);
  const std::vector<char> saved = in.getVector<char>();
  if (std::string(saved.begin(), saved.end()) != settings)
    throw std::runtime_error(path + ": its runs were made with other growth settings" + remove);
  EndedConnectRuns runs;
  const std::size_t count = in.getCount(2 * (sizeof(std::int32_t) + sizeof(double)));
  for (std::size_t k = 0; k < count; ++k) {
    std::array<int, 2> pair{};
    for (int& m : pair) {
      m = in.get<std::int32_t>();
      const double energy = in.get<double>();
      if (m < 0 || static_cast<std::size_t>(m) >= minimumEnergies.size() ||
          minimumEnergies[static_cast<std::size_t>(m)] != energy)
        throw std::runtime_error(path + ": run " + std::to_string(k + 1) + " joins minimum " +
                                 std::to_string(m) + " (0-based), which the network does not " +
                                 "hold with its energy: the runs of another network" + remove);
    }
    ConnectJobResult job = getConnectJob(in);
    const std::string what = path + ": run " + std::to_string(k + 1) + " (pair " +
                             std::to_string(pair[0]) + "-" + std::to_string(pair[1]) + ") ";
    for (const NetworkMinimum& m : job.minima)
      if (m.coordinates.size() != dimension)
        throw std::runtime_error(what + "holds a minimum of " +
                                 std::to_string(m.coordinates.size()) + " coordinates, not " +
                                 std::to_string(dimension) + remove);
    for (const NetworkTransitionState& t : job.transitionStates) {
      const auto outside = [&](int m) {
        return m < 0 || static_cast<std::size_t>(m) >= job.minima.size();
      };
      if (t.coordinates.size() != dimension || outside(t.plusMinimum) || outside(t.minusMinimum))
        throw std::runtime_error(what + "holds a transition state that is not one of its own" +
                                 remove);
    }
    if (!job.ran) throw std::runtime_error(what + "never ended" + remove);
    runs[pair] = std::move(job);
  }
  if (!in.done()) throw std::runtime_error(path + ": bytes after its last run" + remove);
  return runs;
}

}  // namespace landscape
