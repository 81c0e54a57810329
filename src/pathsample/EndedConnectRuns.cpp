#include "src/pathsample/EndedConnectRuns.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "landscape/core/ByteStream.h"
#include "landscape/core/Checksum.h"
#include "src/common/DistributedConnectJobs.h"

namespace landscape {

namespace {

constexpr char kHeader[] = "landscape ended connect runs 2\n";
constexpr std::size_t kHeaderSize = sizeof kHeader - 1;
// A record: an 8-byte length, the content, a 4-byte CRC-32 of the content.
constexpr std::size_t kFraming = sizeof(std::uint64_t) + sizeof(std::uint32_t);

std::string record(std::string_view content) {
  std::string bytes(sizeof(std::uint64_t), '\0');
  const auto size = static_cast<std::uint64_t>(content.size());
  std::memcpy(bytes.data(), &size, sizeof size);
  bytes.append(content.begin(), content.end());
  const std::uint32_t crc = crc32(content.data(), content.size());
  bytes.append(reinterpret_cast<const char*>(&crc), sizeof crc);
  return bytes;
}

}  // namespace

std::string endedConnectRunsPath(const std::string& folder) {
  return (std::filesystem::path(folder) / "ended-runs").string();
}

std::string encodeEndedConnectRunsStart(const std::string& settings) {
  return std::string(kHeader, kHeaderSize) + record(settings);
}

std::string encodeEndedConnectRun(const std::array<int, 2>& pair,
                                  const std::array<double, 2>& pairEnergies,
                                  const ConnectJobResult& job) {
  // Per minimum a 4-byte index and an 8-byte energy, then the run.
  constexpr std::size_t kEach = sizeof(std::int32_t) + sizeof(double);
  std::string content(2 * kEach, '\0');
  for (std::size_t k = 0; k < 2; ++k) {
    const std::int32_t index = pair[k];
    std::memcpy(content.data() + k * kEach, &index, sizeof index);
    std::memcpy(content.data() + k * kEach + sizeof index, &pairEnergies[k], sizeof(double));
  }
  ByteWriter run;
  putConnectJob(run, job);
  content.append(run.bytes().begin(), run.bytes().end());
  return record(content);
}

std::string encodeEndedConnectRuns(const EndedConnectRuns& runs, const std::string& settings,
                                   const std::vector<double>& minimumEnergies) {
  std::string bytes = encodeEndedConnectRunsStart(settings);
  for (const auto& [pair, job] : runs)
    bytes += encodeEndedConnectRun(pair,
                                   {minimumEnergies.at(static_cast<std::size_t>(pair[0])),
                                    minimumEnergies.at(static_cast<std::size_t>(pair[1]))},
                                   job);
  return bytes;
}

std::size_t EndedConnectRunsRecord::end() const { return start + kFraming + content.size(); }

std::vector<EndedConnectRunsRecord> endedConnectRunsRecords(std::string_view bytes) {
  std::vector<EndedConnectRunsRecord> records;
  if (bytes.size() < kHeaderSize || bytes.compare(0, kHeaderSize, kHeader, kHeaderSize) != 0)
    return records;
  std::size_t at = kHeaderSize;
  while (bytes.size() - at >= kFraming) {
    std::uint64_t size = 0;
    std::memcpy(&size, bytes.data() + at, sizeof size);
    if (size > bytes.size() - at - kFraming) break;
    EndedConnectRunsRecord r;
    r.start = at;
    r.content = bytes.substr(at + sizeof size, static_cast<std::size_t>(size));
    std::uint32_t stored = 0;
    std::memcpy(&stored, r.content.data() + r.content.size(), sizeof stored);
    r.intact = crc32(r.content.data(), r.content.size()) == stored;
    records.push_back(r);
    at = r.end();
  }
  return records;
}

EndedConnectRunsFile decodeEndedConnectRuns(std::string_view bytes, const std::string& path,
                                            const std::string& settings,
                                            const std::vector<double>& minimumEnergies,
                                            std::size_t dimension) {
  const std::string remove = " (remove it to run those pairs again)";
  if (bytes.size() < kHeaderSize || bytes.compare(0, kHeaderSize, kHeader, kHeaderSize) != 0)
    throw std::runtime_error(path + ": not a file of ended connect runs (version 2)" + remove);
  EndedConnectRunsFile file;
  // The records in order. An append cut short by a kill leaves the last one shorter than its
  // length says, or (a crash before the disk had all of it) with a checksum that does not match:
  // such a last record is dropped. A bad checksum before the last record is damage.
  std::vector<std::vector<char>> contents;
  const std::vector<EndedConnectRunsRecord> records = endedConnectRunsRecords(bytes);
  file.lastRecordCutShort = (records.empty() ? kHeaderSize : records.back().end()) != bytes.size();
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (!records[k].intact) {
      if (records[k].end() == bytes.size()) {
        file.lastRecordCutShort = true;
        break;
      }
      throw std::runtime_error(path + ": damaged (the CRC-32 of its record " +
                               std::to_string(k + 1) + " does not match its content)" + remove);
    }
    contents.emplace_back(records[k].content.begin(), records[k].content.end());
  }
  if (contents.empty()) return file;  // the settings were being written
  if (std::string(contents[0].begin(), contents[0].end()) != settings)
    throw std::runtime_error(path + ": its runs were made with other growth settings" + remove);
  for (std::size_t k = 1; k < contents.size(); ++k) {
    const std::string run = "run " + std::to_string(k);
    ByteReader in(contents[k], path + " " + run);
    std::array<int, 2> pair{};
    for (int& m : pair) {
      m = in.get<std::int32_t>();
      const double energy = in.get<double>();
      if (m < 0 || static_cast<std::size_t>(m) >= minimumEnergies.size() ||
          minimumEnergies[static_cast<std::size_t>(m)] != energy)
        throw std::runtime_error(path + ": " + run + " joins minimum " + std::to_string(m) +
                                 " (0-based), which the network does not hold with its energy: "
                                 "the runs of another network" +
                                 remove);
    }
    ConnectJobResult job = getConnectJob(in);
    const std::string what = path + ": " + run + " (pair " + std::to_string(pair[0]) + "-" +
                             std::to_string(pair[1]) + ") ";
    if (!in.done()) throw std::runtime_error(what + "has bytes after its end" + remove);
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
    file.runs[pair] = std::move(job);
  }
  return file;
}

}  // namespace landscape
