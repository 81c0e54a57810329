// libFuzzer target: optim's connect checkpoint (landscape/formats/ConnectCheckpointFile), then the
// fingerprint comparison that `optim --resume` makes. Documented: std::runtime_error. Seeds:
// connect.checkpoint files of real optim runs (fuzz/corpus/fuzz_connect_checkpoint/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/FuzzTarget.h"
#include "landscape/formats/ConnectCheckpointFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::expectOnly<std::runtime_error>([&] {
    const ConnectCheckpoint checkpoint = parseConnectCheckpoint("connect.checkpoint", text);
    checkFingerprint("connect.checkpoint", checkpoint.fingerprint, {{"max-cycles", "10"}});
  });
  return 0;
}
