// libFuzzer target: sop's `--config FILE` (key = value, src/sop/SopOptions), through
// parseSopCommandLine as the program calls it (with a --pdb, which is required). Documented:
// std::runtime_error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/FuzzTarget.h"
#include "src/sop/SopOptions.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".ini");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] {
    parseSopCommandLine(std::vector<std::string>{"--pdb", "protein.pdb", "--config", path});
  });
  return 0;
}
