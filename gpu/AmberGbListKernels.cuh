#pragma once
// Drivers of the AMBER-GB kernels over a Verlet list (gpu/AmberGbListCuda owns the buffers): one
// large structure with sander's non-bonded cut (potentials/AmberGb.h, AmberGbParams::cut), where
// every pair term and every Born-radius term lies within a fixed radius. Included only from .cu
// files.
//
// The list is gpu/PairKernels.cuh's (launchPairListBuild with a one-species model view): built
// on the device from a cell list, in slot order (atoms sorted by cell; slot s holds atom
// order[s]), neighbour k of slot s at list[k N + s], each pair in the lists of both its atoms,
// radius R = max(rgbmax + largest screened radius, cut) + skin. After a build,
// launchGbListPrepare gathers the atoms' constants into slot order and marks each excluded
// entry (prmtop exclusions, sander's; bit 0 of the entry, which holds the species, always 0 here).
//
// An evaluation (launchGbListEvaluate), with L consecutive lanes of a warp per slot (lane l sums
// entries l, l + L, ... in order; a fixed butterfly of shuffles adds the lanes), no atomics:
//   positions  the coordinates gathered into slot order, and the displacement test (any atom
//              farther than half the skin from its build position: a device flag the host reads
//              before the rest, launchGbListPositions);
//   Born       per slot s: I_s = sum over its entries within rgbmax + s_t of amberDescreeningValue,
//              then B_s, dB_s/dI_s and the GB self term (potentials/AmberGbTerms.h);
//   pairs      per slot s: the GB pair, LJ and Coulomb terms of its entries within cut (LJ and
//              Coulomb not for excluded entries): its explicit gradient, its dE/dB_s, and the
//              energies (each pair is seen from both atoms: halved); dE/dI_s = (dE/dB_s pairs +
//              self) dB_s/dI_s;
//   bonded     gpu/AmberGbKernels' bonded blocks (launchGbBonded), unchanged;
//   chain      per slot s: sum over its entries within rgbmax + max s of (dE/dI_s dI_st/dr +
//              dE/dI_t dI_ts/dr) (x_s - x_t)/r, plus the pair gradient and the atom's bonded
//              slots in ascending order: the gradient, written in atom order;
//   energies   one block adds the per-block sums in block order: the eight components and total.
// Precision: Real = double (FP64 throughout) or float (mixed: separations, the pair and
// descreening arithmetic in FP32 from FP64 separations, every sum in FP64).
#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/AmberGbKernels.cuh"
#include "gpu/PairKernels.cuh"

namespace landscape {

constexpr int kGbListBlock = 128;  ///< threads per block of the slot kernels
/// Per-block sums of the Born and pair kernels: GB self, VDWAALS, EELEC, GB pairs.
constexpr int kGbListBlockValues = 4;

/// Everything the list kernels read and write (one structure).
struct GbListArgs {
  int atoms = 0;
  int lanes = 1;  ///< L, a power of two up to 32
  AmberGbModel model{};
  GbFloatModel floatModel{};    ///< model's pair constants in float (set by the launcher)
  double descreenCutoff = 0.0;  ///< rgbmax + largest screened radius, A
  double skin = 0.0;            ///< A

  // The list (gpu/PairKernels.cuh's PairListView arrays).
  const int* d_order = nullptr;               ///< [N] atom of each slot
  const unsigned int* d_list = nullptr;       ///< [capacity x N] t << 4 | excluded
  unsigned int* d_listMutable = nullptr;      ///< the same, written by launchGbListPrepare
  const int* d_counts = nullptr;              ///< [N]
  const PairPosition* d_reference = nullptr;  ///< [N] build positions, slot order
  PairPosition* d_positions = nullptr;        ///< [N] evaluation positions, slot order
  int* d_moved = nullptr;                     ///< [1] displacement flag

  // Per-atom constants (atom order) and the exclusions (pair i < j excluded when j is in row i
  // of the CSR, rows sorted).
  GbAtomParams params;
  const int* d_exclusionOffsets = nullptr;
  const int* d_exclusions = nullptr;

  // Slot-order constants (launchGbListPrepare), A and AMBER charge units.
  double* d_slotRho = nullptr;       ///< [N] R - offset
  double* d_slotScreened = nullptr;  ///< [N] S (R - offset)
  double* d_slotCharge = nullptr;    ///< [N]
  double* d_slotRadius = nullptr;    ///< [N] R
  int* d_slotType = nullptr;         ///< [N] LJ type

  // Slot-order scratch.
  double* d_born = nullptr;             ///< [N] B, A
  double* d_inverseBorn = nullptr;      ///< [N] 1/B, 1/A
  double* d_dBornDSum = nullptr;        ///< [N] dB/dI, A^2
  double* d_selfDEdB = nullptr;         ///< [N] dE_self/dB
  double* d_dEdSum = nullptr;           ///< [N] dE/dI
  double* d_pairGradient = nullptr;     ///< [3N] explicit pair gradient
  double* d_bornBlockEnergy = nullptr;  ///< [blocks] GB self energy per Born block
  double* d_pairBlockEnergy = nullptr;  ///< [blocks x 3] VDWAALS, EELEC, GB pairs (halved)

  // Bonded terms (gpu/AmberGbKernels.cuh).
  GbBondedArgs bonded;
  GbBondedBlocks bondedBlocks;
  const int* d_atomSlotOffsets = nullptr;
  const int* d_atomSlots = nullptr;

  const double* d_x = nullptr;  ///< 3N, A (atom order)
  double* d_g = nullptr;        ///< 3N, kcal/mol/A (atom order, overwritten)
  /// 9: BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB, then their total (kcal/mol).
  double* d_energy = nullptr;
};

/// Blocks of the slot kernels for N atoms and L lanes (entries of d_bornBlockEnergy and, times
/// 3, of d_pairBlockEnergy).
int gbListBlockCount(int atoms, int lanes);

/// After every list build: the slot constants and the exclusion bits of the entries.
void launchGbListPrepare(const GbListArgs& args, cudaStream_t stream);
/// The evaluation's positions in slot order and the displacement test (sets *d_moved to 1 when
/// an atom moved more than half the skin; the caller clears it).
void launchGbListPositions(const GbListArgs& args, cudaStream_t stream);
/// Born radii, pairs, bonded terms, chain rule and energies from the positions of the last
/// launchGbListPositions.
template <typename Real>
void launchGbListEvaluate(const GbListArgs& args, cudaStream_t stream);

}  // namespace landscape
