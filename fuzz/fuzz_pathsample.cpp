// libFuzzer target: the PATHSAMPLE and OPTIM files read back (landscape/formats/PathsampleExport):
// min.data, ts.data, path.info and the raw points files. The first byte chooses the reader and,
// for path.info and points, the atom count (1..16); the rest is the file. Documented:
// std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "landscape/formats/PathsampleExport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  if (size == 0) return 0;
  const int reader = data[0] % 4;
  const std::size_t atoms = 1 + (data[0] / 4) % 16;
  static const fuzz::InputFile file(".data");
  const std::string& path = file.write(data + 1, size - 1);
  fuzz::expectOnly<std::runtime_error>([&] {
    switch (reader) {
      case 0:
        readMinData(path);
        break;
      case 1:
        for (const StoredTransitionState& ts : readTsData(path))
          if (ts.plusMinimum < 0 || ts.minusMinimum < 0) std::abort();
        break;
      case 2:
        for (const PathInfoPoint& p : readPathInfo(path, atoms))
          if (p.coordinates.size() != 3 * atoms) std::abort();
        break;
      default:
        readPoints(path, 3 * atoms);
        break;
    }
  });
  return 0;
}
