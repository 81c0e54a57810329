// libFuzzer target: sop's checkpoint (landscape/formats/SopCheckpointFile), then what
// `sop --resume` does with it: restore it into CPU dynamics of its size (a straight chain of its
// beads, when small) with each random generator and take two steps. Documented:
// std::runtime_error (the reader), std::invalid_argument (restoreState refusing a state).
// Seeds: sop.checkpoint files of real sop runs (fuzz/corpus/fuzz_sop_checkpoint/README.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/FuzzTarget.h"
#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/SopCheckpointFile.h"

namespace {

using namespace landscape;

// A chain of `beads` beads 3.8 A apart along x (no native contacts beyond the bonds' reach).
SopTopology chain(std::size_t beads) {
  std::vector<SopBead> b(beads);
  for (std::size_t i = 0; i < beads; ++i) {
    b[i].residueName = "GLY";
    b[i].residueNumber = static_cast<int>(i) + 1;
    b[i].x = 3.8 * static_cast<double>(i);
  }
  return makeSopTopology(b, {0}, SopParams{});
}

void resume(const SopCheckpoint& c) {
  if (c.beads < 2 || c.beads > 128 || c.replicas > 4) return;
  const SopTopology topology = chain(c.beads);
  for (RngKind kind : allRngKinds()) {
    SopDynamicsParams p;
    p.replicas = c.replicas;
    p.langevin.generator = kind;
    p.pulling.enabled = c.protocol == "pulling";
    p.indentation.enabled = c.protocol == "indentation";
    SopDynamicsCpu md(topology, topology.nativeCoordinates(), p);
    try {
      md.restoreState(c.state);
    } catch (const std::invalid_argument& e) {
      fuzz::checkMessage(e.what());
      continue;
    }
    md.run(2);  // from any finite coordinates: the non-finite check is sop's, after the steps
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::setUp();
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::expectOnly<std::runtime_error>([&] {
    const SopCheckpoint checkpoint = parseSopCheckpoint("sop.checkpoint", text);
    resume(checkpoint);
    checkFingerprint("sop.checkpoint", checkpoint.fingerprint, {{"kt", "0.6"}});
  });
  return 0;
}
