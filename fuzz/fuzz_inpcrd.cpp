// libFuzzer target: the AMBER inpcrd/rst7 reader (potentials/AmberCoordinates). Documented:
// std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "potentials/AmberCoordinates.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".rst7");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] {
    const AmberCoordinates c = readAmberCoordinates(path);
    if (c.positions.size() % 3 != 0 || c.positions.empty()) std::abort();  // never half an atom
    if (!c.velocities.empty() && c.velocities.size() != c.positions.size()) std::abort();
  });
  return 0;
}
