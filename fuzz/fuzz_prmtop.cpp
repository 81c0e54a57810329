// libFuzzer target: the AMBER prmtop reader (potentials/AmberTopology), then what a run does with a
// topology it accepted: the GB potential's tables and one energy and gradient on a grid of atoms
// 3 A apart. Documented: std::runtime_error (reader), std::invalid_argument (AmberGb).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz/FuzzTarget.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".parm7");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error, std::invalid_argument>([&] {
    const AmberTopology topology = readAmberTopology(path);
    for (int i = 0; i < topology.typeCount && i < 64; ++i)
      for (int j = 0; j < topology.typeCount && j < 64; ++j) topology.ljCoefficients(i, j);
    topology.bondedNeighbours();
    if (topology.atomCount > 2000 || topology.gbRadii.empty() || topology.gbScreen.empty()) return;
    AmberGb gb(topology);
    std::vector<double> x(3 * static_cast<std::size_t>(topology.atomCount)), g(x.size());
    for (std::size_t a = 0; a < x.size() / 3; ++a) {
      x[3 * a] = 3.0 * static_cast<double>(a % 10);
      x[3 * a + 1] = 3.0 * static_cast<double>((a / 10) % 10);
      x[3 * a + 2] = 3.0 * static_cast<double>(a / 100);
    }
    gb.energyGradient(x.data(), g.data());
  });
  return 0;
}
