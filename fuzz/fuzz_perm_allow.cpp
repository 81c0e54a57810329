// libFuzzer target: OPTIM's perm.allow (landscape/formats/PermAllowFile). The first byte chooses
// the system's atom count (1..64); the rest is the file. Documented: std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "landscape/formats/PermAllowFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  if (size == 0) return 0;
  const std::size_t atoms = 1 + data[0] % 64;
  static const fuzz::InputFile file(".allow");
  const std::string& path = file.write(data + 1, size - 1);
  fuzz::expectOnly<std::runtime_error>([&] {
    const std::vector<PermutationGroup> groups = readPermAllow(path, atoms);
    for (const PermutationGroup& group : groups) {
      for (int a : group.atoms)
        if (a < 0 || static_cast<std::size_t>(a) >= atoms) std::abort();
      for (const auto& set : group.swapSets)
        if (set.size() != group.atoms.size()) std::abort();
    }
    formatPermAllow(groups);
  });
  return 0;
}
