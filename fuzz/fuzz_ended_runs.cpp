// libFuzzer target: pathsample grow's journal of ended connect runs
// (src/pathsample/EndedConnectRuns), decoded as `pathsample grow --resume` decodes it. Documented:
// std::runtime_error. So that mutations reach the runs' content, the network it is checked against
// is the one the input names: the growth settings of its first record and, for each run's pair, the
// energies it gives (LJ38: 114 coordinates). Seeds: a journal of LJ38 growth
// (tests/data/checkpoints/README.md).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/FuzzTarget.h"
#include "src/pathsample/EndedConnectRuns.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> contents;
  for (const EndedConnectRunsRecord& r : endedConnectRunsRecords(bytes))
    contents.push_back(r.content);
  const std::string settings = contents.empty() ? std::string() : std::string(contents[0]);
  constexpr std::size_t kMinima = 4096;
  std::vector<double> energies(kMinima, 0.0);
  for (std::size_t k = 1; k < contents.size(); ++k) {
    constexpr std::size_t kEach = sizeof(std::int32_t) + sizeof(double);
    if (contents[k].size() < 2 * kEach) continue;
    for (std::size_t e = 0; e < 2; ++e) {
      std::int32_t m = 0;
      double energy = 0.0;
      std::memcpy(&m, contents[k].data() + e * kEach, sizeof m);
      std::memcpy(&energy, contents[k].data() + e * kEach + sizeof m, sizeof energy);
      if (m >= 0 && static_cast<std::size_t>(m) < kMinima)
        energies[static_cast<std::size_t>(m)] = energy;
    }
  }
  fuzz::expectOnly<std::runtime_error>(
      [&] { decodeEndedConnectRuns(bytes, "ended-runs", settings, energies, 114); });
  return 0;
}
