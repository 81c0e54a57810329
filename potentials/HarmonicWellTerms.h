#pragma once
// Isotropic harmonic well U = k |x|^2 / 2 per coordinate, shared by the CPU reference
// (potentials/HarmonicWell) and the CUDA kernel (gpu/HarmonicWellCuda): the Brownian oscillators
// of Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, section IV.A.
#include "landscape/core/HostDevice.h"

namespace landscape {

struct HarmonicWellTerm {
  double energy;    ///< k x^2 / 2
  double gradient;  ///< dU/dx = k x
};

LANDSCAPE_HD HarmonicWellTerm harmonicWellTerm(double x, double springConstant) {
  return {0.5 * springConstant * x * x, springConstant * x};
}

}  // namespace landscape
