#pragma once
// AMBER force field + generalized Born with sander's non-bonded cut (AmberGbParams::cut finite)
// on a CUDA device, over a Verlet list: the twin of potentials/AmberGb for one large structure
// (N from about 10^4 to 10^6), where the tile kernels of gpu/AmberGbCuda would still visit every
// 32 x 32 tile pair. Same energy, components and units (kcal/mol, Angstrom, kcal/mol/A).
//
// The list (Verlet, Phys. Rev. 159, 98 (1967)) is gpu/PairKernels.cuh's, built on the device from
// a cell list with a one-species model view: radius max(rgbmax + largest screened radius, cut) +
// skin, so that it holds both the Born-radius pairs (sander's egb_calc_radii reaches rgbmax + S_j)
// and the pair terms within cut. It is rebuilt when an atom has moved more than half the skin
// since the last build (tested on the device before every evaluation; one flag comes back). The
// kernels (gpu/AmberGbListKernels.cuh): Born radii, pair terms, the bonded and 1-4 blocks of
// gpu/AmberGbKernels, chain rule, energies; no atomics, so the same list and coordinates give the
// same bits. The bits depend on the list's order (fixed by the positions of the last build) and
// on the lanes per atom, so an evaluation after a rebuild may differ in the last bits from one at
// the same coordinates before it.
//
// Precision: Double (FP64 throughout; the CPU reference to rounding) or Mixed (the pair and
// descreening arithmetic in FP32 from FP64 separations, every sum in FP64); Single throws.
// Against the CPU: tests/AmberGbListCudaTest.cpp states the tolerances.
//
// CUDA-free header (pimpl); the class exists only in CUDA builds, and makePotential() builds it
// for AMBER-GB on cuda when the cut is finite. Work runs on the legacy default stream; not
// thread-safe.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "landscape/core/Precision.h"
#include "potentials/AmberGb.h"

namespace landscape {

class AmberGbListCuda : public Potential {
 public:
  /// skin: Angstrom, > 0 (the list holds the pairs within the radius plus the skin; a larger skin
  /// means fewer builds and longer lists). lanesPerAtom: threads sharing an atom's list (1, 2, 4,
  /// 8, 16 or 32; 0 chooses from N, see automaticLanes in the .cu); it fixes the summation order.
  /// Throws std::invalid_argument as buildAmberGbTables() does, for an infinite cut (use
  /// AmberGbCuda), a bad skin or lane count, or more than 2^27 - 1 atoms; std::runtime_error
  /// without a device or device memory.
  AmberGbListCuda(const AmberTopology& topology, const AmberGbParams& params,
                  Precision precision = Precision::Double, double skin = 2.0, int lanesPerAtom = 0);
  ~AmberGbListCuda() override;

  std::size_t dimension() const override { return 3 * m_atoms; }
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }
  Precision precision() const { return m_precision; }

  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB, as AmberGb::energyComponents.
  std::vector<EnergyComponent> energyComponents(const double* x) override;
  /// Computed by the CPU reference (built on first use), as AmberGbCuda does.
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  bool isDeviceResident() const override { return true; }
  /// d_x, d_g: device arrays of dimension() doubles. Throws std::invalid_argument for null.
  double energyGradientDevice(const double* d_x, double* d_g) override;

  /// The components at x (host coordinates); total() is what energy(x) returns.
  AmberEnergyBreakdown breakdown(const double* x);
  /// The components of the most recent evaluation.
  const AmberEnergyBreakdown& lastBreakdown() const { return m_last; }
  /// Effective Born radii at x (Angstrom, atom order).
  std::vector<double> bornRadii(const double* x);

  const AmberGbParams& params() const { return m_params; }
  double skin() const { return m_skin; }
  int lanesPerAtom() const;
  /// The list's radius: max(rgbmax + largest screened radius, cut) + skin, Angstrom.
  double listRadius() const;
  /// List builds so far.
  long rebuilds() const;
  /// Entries per atom the list holds now (it grows when a build finds a longer list).
  std::size_t neighbourCapacity() const;
  /// The longest list of the last build.
  int longestList() const;
  /// Builds the list from the device coordinates d_x now (synchronous): what an evaluation does
  /// when the displacement test asks; exposed for benchmarks of the build alone.
  void rebuildNeighbourList(const double* d_x);

 private:
  double evaluate(const double* d_x, double* d_g);

  AmberTopology m_topology;
  AmberGbParams m_params;
  Precision m_precision;
  double m_skin;
  std::size_t m_atoms;
  AmberEnergyBreakdown m_last;
  std::unique_ptr<AmberGb> m_reference;  ///< CPU twin for perAtomEnergies only
  struct DeviceState;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
