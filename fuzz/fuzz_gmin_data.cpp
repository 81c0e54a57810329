// libFuzzer target: GMIN's `data` keyword file (src/gmin/GminDataFile), read from memory, then the
// parameter check that readGminDataFile runs. Documented: std::runtime_error (reader),
// std::invalid_argument (BasinHoppingParams::check).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz/FuzzTarget.h"
#include "src/gmin/GminDataFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  fuzz::expectOnly<std::runtime_error, std::invalid_argument>([&] {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    GminConfig config = gminKeywordDefaults();
    applyGminKeywords(in, "data", config);
    for (const std::string& warning : config.warnings) fuzz::checkMessage(warning.c_str());
    config.basinHopping.check();
  });
  return 0;
}
