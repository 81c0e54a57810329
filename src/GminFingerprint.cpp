#include "src/GminFingerprint.h"

#include <cstdio>
#include <string>

namespace landscape {

namespace {

std::string exactText(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

std::string fileOr(const std::string& file, const char* none) { return file.empty() ? none : file; }

void addAmber(const GminRunConfig& config, CheckpointFingerprint& fingerprint) {
  fingerprint.push_back({"igb", std::to_string(config.amber.igb)});
  fingerprint.push_back({"saltcon", exactText(config.amber.saltcon)});
  fingerprint.push_back({"rgbmax", exactText(config.amber.rgbmax)});
  fingerprint.push_back({"precision", precisionName(config.precision)});
}

void addSop(const SopParams& sop, CheckpointFingerprint& fingerprint) {
  fingerprint.push_back({"sop-fene-k", exactText(sop.feneK)});
  fingerprint.push_back({"sop-fene-r0", exactText(sop.feneR0)});
  fingerprint.push_back({"sop-eps-native", exactText(sop.nativeEpsilon)});
  fingerprint.push_back({"sop-eps-repulsive", exactText(sop.repulsiveEpsilon)});
  fingerprint.push_back({"sop-sigma", exactText(sop.sigma)});
  fingerprint.push_back({"sop-native-cutoff", exactText(sop.nativeCutoff)});
  fingerprint.push_back({"sop-repulsive-cutoff", exactText(sop.repulsiveCutoff)});
  fingerprint.push_back({"sop-chain-break", exactText(sop.chainBreakDistance)});
}

}  // namespace

CheckpointFingerprint gminFingerprint(const GminRunConfig& config, const GminSystem& system,
                                      const BasinHoppingParams& params, double containerRadius) {
  const Potential& searched = system.searched();
  const bool amber = system.amber != nullptr;
  CheckpointFingerprint fingerprint = {
      {"atoms", std::to_string(system.atomistic->atomCount())},
      {"potential", searched.name()},
      {"dimension", std::to_string(searched.dimension())},
      {"backend", backendName(config.backend)},
      {"lbfgs-backend", lbfgsBackendName(config.lbfgsBackend)},
      {"coords", fileOr(config.coordsFile, "random")},
      {"prmtop", fileOr(config.prmtopFile, "none")},
      {"inpcrd", fileOr(config.inpcrdFile, "none")},
      {"sop-pdb", fileOr(config.sopPdbFile, "none")},
      {"rigid", fileOr(config.rigidFile, "none")},
      {"container-radius-used", exactText(containerRadius)},
      {"langevin-steps", std::to_string(config.langevin.steps)},
      {"langevin-kT", exactText(config.langevin.kT)},
      {"langevin-time-step", exactText(config.langevin.timeStep)},
      {"langevin-friction", exactText(config.langevin.friction)},
      {"group-rotation", exactText(amber ? config.groupRotationProbability : 0.0)},
      {"group-rotation-angle", exactText(amber ? config.groupRotationMaxAngle : 0.0)},
      {"stereo-checks", amber && config.stereoChecks ? "on" : "off"},
      {"rigid-translation", exactText(config.rigidMoves.translation)},
      {"rigid-rotation", exactText(config.rigidMoves.rotation)},
      {"rigid-probability", exactText(config.rigidMoves.probability)},
  };
  if (amber) addAmber(config, fingerprint);
  if (system.sop) addSop(config.sop, fingerprint);
  for (auto& entry : basinHoppingFingerprint(params)) fingerprint.push_back(std::move(entry));
  return fingerprint;
}

}  // namespace landscape
