#pragma once
// One large structure of a pair model (potentials/PairModel.h; N from 10^3 to 10^6: Kob-Andersen
// liquids and glasses, large clusters) on a CUDA device: the twin of potentials/PairPotential,
// device-resident so that GPU L-BFGS keeps coordinates on the device. Kernels:
// gpu/PairKernels.cuh.
//   no cutoff (PairCutoff::None, clusters): every pair, one thread per atom;
//   a cutoff: a Verlet list with a skin built on the device from a cell list over the box (or
//     over the bounding box of the open axes, recomputed at every build), one thread per atom
//     summing its whole list (each pair seen from both atoms, no atomics).
// The list is rebuilt when an atom has moved more than half the skin (minimum image) since the
// last build. The test runs on the device with every evaluation; only its flag comes back, with
// the energy, in one synchronisation: an evaluation whose flag is set is discarded, and the list
// rebuilt from the same coordinates and evaluated again, so every result is that of a valid list.
//
// Bits: the same from run to run for the same sequence of calls. With a list they depend on the
// list's order, fixed by the positions of the last build (gpu/PairKernels.cuh), so an evaluation
// after a rebuild may differ in the last bits from one at the same coordinates before it. Against
// the CPU reference they agree to rounding (tests/PairPotentialCudaTest.cpp: 1e-12 of the sum of
// |pair energies| on the energy, 1e-10 of max |g| on every gradient entry, at N up to 4,000).
//
// CUDA-free header (pimpl); the class exists only in CUDA builds (makePotential builds it). Work
// runs on the legacy default stream; not thread-safe.
#include <cstddef>
#include <memory>
#include <string>

#include "potentials/PairModel.h"
#include "potentials/Potential.h"

namespace landscape {

class PairPotentialCuda : public Potential {
 public:
  /// skin (length units, > 0): the list holds the pairs within each pair's cutoff plus the skin
  /// (models with a cutoff; unused otherwise). lanesPerAtom: threads that share an atom's list
  /// (1, 2, 4, 8, 16 or 32; 0 chooses from N: 8 up to 16,384 atoms, 4 up to 32,768, 2 up to
  /// 65,536, then 1); it fixes the summation order, so the bits depend on it. Throws
  /// std::invalid_argument for a bad model (PairModel::check), skin or lane count, or more than
  /// 2^27 - 1 atoms with a cutoff; std::runtime_error without a device or device memory.
  explicit PairPotentialCuda(PairModel model, double skin = 0.3, int lanesPerAtom = 0);
  ~PairPotentialCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }
  /// Host entry points: x copied to the device, the gradient back.
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// Each atom's pair energies summed over its partners (sums to twice the energy), as the CPU's.
  bool perAtomEnergies(const double* x, double* atomEnergies) override;
  bool isDeviceResident() const override { return true; }
  /// d_x, d_g: device arrays of dimension() doubles; only the energy (and the list's flag) come
  /// back. Throws std::invalid_argument for a null pointer.
  double energyGradientDevice(const double* d_x, double* d_g) override;

  const PairModel& model() const;
  double skin() const;
  int lanesPerAtom() const;
  /// Whether the model is evaluated over the Verlet list (a cutoff) or every pair.
  bool usesNeighbourList() const;
  /// List builds so far (0 for every pair).
  long rebuilds() const;
  /// Entries per atom the list holds now (it grows when a build finds a longer list).
  std::size_t neighbourCapacity() const;
  /// Builds the list from the device coordinates d_x now (synchronous): what the evaluations do
  /// when the displacement test asks; exposed for benchmarks of the build alone.
  void rebuildNeighbourList(const double* d_x);

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
