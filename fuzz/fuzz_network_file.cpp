// libFuzzer target: network.h5 files as they are on disk, damaged. The seeds are real databases
// written by the project's writer (fuzz/corpus/fuzz_network_file/, made by fuzz/make_seeds.py
// through fuzz/make_network_seeds); libFuzzer's mutations flip bits and bytes, truncate, cut and
// splice them, and every result is read through TransitionNetworkDatabase::read,
// MinimaDatabase::readMetadata, count and read, as optim, pathsample and gmin read their inputs.
// The checks before reading (attribute and dataset types, ranks, shapes, counts against sizes,
// index ranges) and the checksums (HDF5 1.10 metadata checksums, Fletcher32 per chunk) must turn
// every damage into a std::runtime_error naming the file; anything else is a finding. Unlike
// fuzz_database, which builds well-formed HDF5 files of any content, this target exercises what
// libhdf5 makes of damaged bytes.
// Documented: std::runtime_error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>

#include "fuzz/FuzzTarget.h"
#include "landscape/network/Database.h"

// libhdf5 1.10 loses the metadata-cache entries of a block whose checksum fails (direct leaks of
// memory it allocated itself, not reachable from any identifier this project holds; HDF5 then also
// cannot terminate cleanly at exit). They are not this project's leaks, so LeakSanitizer ignores
// allocations made inside libhdf5; a leak of the project's own allocations is still a finding.
extern "C" const char* __lsan_default_suppressions() { return "leak:libhdf5\n"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".h5");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error>([&] { MinimaDatabase::readMetadata(path); });
  fuzz::expectOnly<std::runtime_error>([&] { MinimaDatabase::count(path); });
  fuzz::expectOnly<std::runtime_error>([&] {
    const StoredTransitionNetwork network = TransitionNetworkDatabase::read(path);
    const int n = static_cast<int>(network.minima.size());
    for (const StoredTransitionState& ts : network.transitionStates)
      if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n)
        std::abort();
    for (const auto* set : {&network.setA, &network.setB})
      for (int m : *set)
        if (m < 0 || m >= n) std::abort();
  });
  return 0;
}
