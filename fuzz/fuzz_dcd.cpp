// libFuzzer target: the DCD trajectory reader (landscape/formats/DcdFile). Documented:
// std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "landscape/formats/DcdFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".dcd");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] { readDcd(path); });
  return 0;
}
