// libFuzzer target: GMIN's `lowest` file (landscape/formats/LowestFile). Documented:
// std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "landscape/formats/LowestFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".lowest");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] {
    std::vector<std::string> labels;
    const std::vector<StoredMinimum> minima = readLowestFile(path, &labels);
    for (const StoredMinimum& m : minima)
      if (m.coordinates.empty() || m.coordinates.size() % 3 != 0) std::abort();
  });
  return 0;
}
