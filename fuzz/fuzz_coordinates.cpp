// libFuzzer target: the XYZ / GMIN coords reader (landscape/formats/CoordinatesFile). Documented:
// std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "landscape/formats/CoordinatesFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".xyz");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] {
    const std::vector<double> x = readCoordinates(path);
    if (x.size() % 3 != 0) std::abort();
  });
  return 0;
}
