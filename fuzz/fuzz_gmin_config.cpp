// libFuzzer target: gmin's `--config FILE` (key = value, src/gmin/GminOptions), through
// parseGminCommandLine as the program calls it. Documented: std::runtime_error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/FuzzTarget.h"
#include "src/gmin/GminOptions.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".ini");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] {
    const GminConfig config = parseGminCommandLine(std::vector<std::string>{"--config", path});
    for (const std::string& warning : config.warnings) fuzz::checkMessage(warning.c_str());
  });
  return 0;
}
