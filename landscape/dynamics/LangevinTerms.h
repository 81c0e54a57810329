#pragma once
// The Ermak-McCammon step of overdamped Langevin dynamics (Zhmurov, Rybnikov, Kholodov and
// Barsegov, J. Phys. Chem. B 2011, eq 1), shared by the CPU integrator (landscape/Langevin) and the
// CUDA kernel (gpu/LangevinKernels):
//   x' = x - (dt / xi) dU/dx + sqrt(2 kT dt / xi) g.
#include <cmath>

#include "landscape/core/HostDevice.h"

namespace landscape {

/// sqrt(2 kT dt / xi): the random displacement per step and coordinate (length).
LANDSCAPE_HD double langevinNoiseAmplitude(double kT, double timeStep, double friction) {
  return sqrt(2.0 * kT * timeStep / friction);
}

/// One coordinate: x - mobilityStep g + noiseAmplitude gauss, with mobilityStep = dt / xi and g the
/// gradient component (energy / length). nvcc contracts this into FMAs, the host compiler need
/// not: CPU and GPU agree to rounding, not bit for bit.
LANDSCAPE_HD double langevinUpdate(double x, double gradient, double mobilityStep,
                                   double noiseAmplitude, double gauss) {
  return x - mobilityStep * gradient + noiseAmplitude * gauss;
}

}  // namespace landscape
