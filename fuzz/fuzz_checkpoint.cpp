// libFuzzer target: the gmin checkpoint (landscape/formats/CheckpointFile), then the fingerprint
// comparison that `gmin --resume` makes. Documented: std::runtime_error.
#include <cstddef>
#include <cstdint>

#include "fuzz/FuzzTarget.h"
#include "landscape/formats/CheckpointFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".checkpoint");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] {
    const Checkpoint checkpoint = readCheckpointFile(path);
    checkFingerprint(path, checkpoint.fingerprint, basinHoppingFingerprint(BasinHoppingParams{}));
  });
  return 0;
}
