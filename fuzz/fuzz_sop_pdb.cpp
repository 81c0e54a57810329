// libFuzzer target: the SOP PDB reader (potentials/SopTopology), then what `sop` does with a
// topology it accepted: the SOP potential's energy and gradient at the native structure, and a few
// steps of CPU dynamics. Documented: std::runtime_error (reader), std::invalid_argument
// (parameters, potential).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz/FuzzTarget.h"
#include "landscape/dynamics/SopDynamics.h"
#include "potentials/Sop.h"
#include "potentials/SopTopology.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace landscape;
  fuzz::setUp();
  static const fuzz::InputFile file(".pdb");
  const std::string& path = file.write(data, size);
  fuzz::expectOnly<std::runtime_error, std::invalid_argument>([&] {
    const SopTopology topology = readSopTopology(path);
    if (topology.beadCount() > 3000) return;
    const std::vector<double> x = topology.nativeCoordinates();
    Sop sop(topology);
    std::vector<double> g(x.size());
    sop.energyGradient(x.data(), g.data());
    nativeContactFraction(topology, x.data(), 2.0);
    std::string pdb;
    appendSopPdbModel(pdb, topology, x.data(), 1);
    SopDynamicsParams params;
    params.pulling.enabled = topology.beadCount() >= 2;
    SopDynamicsCpu dynamics(topology, x, params);
    dynamics.run(2);
  });
  return 0;
}
