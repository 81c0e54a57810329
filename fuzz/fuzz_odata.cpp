// libFuzzer target: OPTIM's `odata` keyword file (src/optim/OptimOdataFile), read from a file as optim does.
// Documented: std::runtime_error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/FuzzTarget.h"
#include "src/optim/OptimOdataFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file("");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] {
    const OptimConfig config = readOdataFile(path);
    for (const std::string& warning : config.warnings) fuzz::checkMessage(warning.c_str());
    if (config.odataPoints.size() % 3 != 0) std::abort();
  });
  return 0;
}
