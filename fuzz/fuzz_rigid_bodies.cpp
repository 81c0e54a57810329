// libFuzzer target: the rigid-body GROUP file (potentials/RigidBodySet). The first byte chooses
// the system's atom count (1..64); the rest is the file. Documented: std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "potentials/RigidBodySet.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  if (size == 0) return 0;
  const std::size_t atoms = 1 + data[0] % 64;
  static const fuzz::InputFile file(".rigid");
  const std::string& path = file.write(data + 1, size - 1);
  fuzz::expectOnly<std::runtime_error>([&] {
    const RigidBodySet set = readRigidBodies(path, atoms);
    set.freeAtoms();
  });
  return 0;
}
