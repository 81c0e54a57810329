#pragma once
// The benchmark system of Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, section
// IV.B: N Brownian oscillators in three dimensions (a harmonic well, no Potential object), advanced
// by overdamped Langevin steps (Zhmurov et al. 2011, eq 1) on the device in single precision,
// positions in float4. One fused kernel per step draws the particle's four words inside itself
// (gpu/RandomKernels.cuh), makes three Gaussians by Box-Muller (uniforms from the high 24 bits,
// landscape/dynamics/RandomTerms.h) and updates the position:
//   x' = decay x + amplitude g,  decay = 1 - k dt / xi,  amplitude = sqrt(2 kT dt / xi).
// stepWithGaussians() is the unfused alternative that reads Gaussians another generator (cuRAND)
// wrote to memory. Used by tools/bench_langevin; the double-precision integrator for any
// Potential is gpu/LangevinCuda.
//
// Memory floor of a step, per oscillator (bytes that must cross DRAM at least once): the position
// read and written (2 x 16) plus the generator state read and written (LCG 2 x 4, Hybrid Taus
// 2 x 16, Ran2 2 x 140 -- loaded and stored whole, coalesced, see gpu/RandomKernels.cuh --
// Philox 0) or, for Lagged Fibonacci, two words read and one written per draw (4 x 12).
// Header free of CUDA types (pimpl); exists only in CUDA builds; legacy default stream.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/LaggedFibonacciAccess.h"
#include "landscape/dynamics/RngKind.h"

namespace landscape {

class BrownianOscillatorsCuda {
 public:
  /// oscillators >= 1; all start at the origin. Throws std::invalid_argument (bad arguments) and
  /// std::runtime_error (no device, memory).
  BrownianOscillatorsCuda(std::size_t oscillators, RngKind kind, std::uint64_t seed, float decay,
                          float amplitude);
  ~BrownianOscillatorsCuda();

  std::size_t oscillators() const;
  RngKind kind() const;
  /// Generator state in device memory (bytes).
  std::size_t stateBytes() const;
  /// How the fused Lagged Fibonacci step touches the ring and the positions (default
  /// kDefaultLaggedFibonacciAccess; every access gives the same positions bit for bit).
  void setLaggedFibonacciAccess(LaggedFibonacciAccess access);
  LaggedFibonacciAccess laggedFibonacciAccess() const;
  /// The memory floor of one fused step (bytes; see above).
  double floorBytesPerStep() const;
  /// The memory floor of one stepWithGaussians() call: positions plus 3 floats read.
  double floorBytesPerGaussianStep() const;

  /// x, y, z of every oscillator (3 N floats).
  void setPositions(const std::vector<float>& xyz);
  std::vector<float> positions() const;

  /// Enqueues `steps` fused steps (returns without synchronising).
  void run(long steps);
  /// Enqueues one unfused step: oscillator i uses d_gaussians[3i .. 3i+2] (device memory).
  void stepWithGaussians(const float* d_gaussians);
  /// Waits for everything enqueued.
  void synchronize();

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
