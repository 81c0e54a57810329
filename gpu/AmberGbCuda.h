#pragma once
// AMBER force field + generalized Born on a CUDA device: the twin of potentials/AmberGb (same
// energy, same components, same units: kcal/mol, Angstrom, kcal/mol/A). It is a batch of one of
// gpu/BatchedAmberGbCuda (one code path for one structure and many): the topology, the
// parameters, the exclusion bitmasks and every scratch array are uploaded or allocated once, in the
// constructor, and stay on the device for the object's life; a host caller moves coordinates in
// and the gradient out, a device caller (energyGradientDevice: GPU L-BFGS, Langevin) moves nothing
// but the eight energy components back. Energies and gradients are BatchedAmberGbCuda's bits for
// the same coordinates.
//
// Precision (landscape/core/Precision.h): Double computes everything in FP64 and agrees with the CPU
// reference to rounding (test suite: components within 1e-10 of the sum of their |terms|,
// gradient within 1e-9 of its norm); Mixed computes the pair arithmetic in FP32 and accumulates in
// FP64 (1e-5 and 1e-4); Single is not implemented (the constructor throws). Both are
// deterministic: the same x gives bit-identical energies and gradient on every call
// (gpu/AmberGbKernels.cuh explains the ordered reductions).
//
// The header needs no CUDA headers (pimpl); the class exists only in CUDA builds, and
// makePotential() (backends/PotentialFactory.h) is the usual way to get one. Work runs on the
// legacy default stream; not thread-safe.
#include <cstddef>
#include <memory>
#include <vector>

#include "potentials/AmberGb.h"
#include "landscape/core/Precision.h"

namespace landscape {

class AmberGbCuda : public Potential {
 public:
  /// Throws std::invalid_argument as buildAmberGbTables() does, and std::runtime_error when device
  /// memory cannot be allocated (no device, out of memory).
  AmberGbCuda(const AmberTopology& topology, const AmberGbParams& params = {},
              Precision precision = Precision::Double);
  ~AmberGbCuda() override;

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }
  Precision precision() const { return m_precision; }

  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB, as AmberGb::energyComponents.
  std::vector<EnergyComponent> energyComponents(const double* x) override;
  /// Computed by the CPU reference (built on first use): per-atom shares are for move selection,
  /// not for the inner loop.
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  bool isDeviceResident() const override { return true; }
  double energyGradientDevice(const double* d_x, double* d_g) override;

  /// The components at x (host coordinates); total() is what energy(x) returns.
  AmberEnergyBreakdown breakdown(const double* x);
  /// The components of the most recent evaluation.
  const AmberEnergyBreakdown& lastBreakdown() const { return m_last; }
  /// Effective Born radii at x (Angstrom).
  std::vector<double> bornRadii(const double* x);

  /// Column tiles per block of the pair kernel (chosen from the system size; part of the fixed
  /// summation order, so reported for benchmarks and reproducibility).
  int pairChunk() const;

  const AmberGbParams& params() const { return m_params; }

 private:
  /// One full evaluation on device arrays; fills m_last and returns its total.
  double evaluate(const double* d_x, double* d_g);

  AmberTopology m_topology;
  AmberGbParams m_params;
  Precision m_precision;
  std::size_t m_atoms;
  AmberEnergyBreakdown m_last;
  std::unique_ptr<AmberGb> m_reference;  ///< CPU twin for perAtomEnergies only
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
