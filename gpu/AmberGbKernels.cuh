#pragma once
// Drivers for the AMBER-GB CUDA kernels (gpu/AmberGbCuda.h owns the buffers and calls these in
// order). Included only from .cu files.
//
// Work of one energy + gradient evaluation, in launch order (atoms in tiles of kGbTile = 32
// consecutive atoms; sequence-neighbouring atoms are spatial neighbours in a protein, so a tile is
// compact):
//   1 launchGbTileBoxes       bounding box of each tile
//   2 launchGbTileNeighbours  for each tile, the tiles whose boxes lie within rgbmax + max s_j
//                             (ascending order; the Born-radius integral is zero beyond)
//   3 launchGbBornRadii       one block per tile (warps share its neighbour tiles) gathers I_i = sum_j I_ij over its neighbour tiles,
//                             then B_i, dB_i/dI_i and the GB self term of each atom
//   4 launchGbBonded          bonds, angles, torsions and 1-4 pairs, one thread per term; gradient
//                             contributions go to fixed slots, energies to per-block partial sums
//   5 launchGbPairs           every pair i < j once: GB pair term (all pairs), LJ and Coulomb
//                             (pairs not excluded, bitmask per tile pair); a block of kGbPairWarps
//                             warps takes kGbPairWarps row tiles x a chunk of column tiles
//   6 launchGbPairReduce      one thread per atom sums its pair slots in a fixed order
//   7 launchGbChainRule       dE/dB through the Born radii: the pair grid of step 5 again, each
//                             pair within the descreening cutoff once (far tile pairs skipped by
//                             their boxes), then one thread per atom sums pair, chain-rule and
//                             bonded slots in a fixed order: the final gradient
//   8 launchGbEnergyReduce    one block sums every partial energy in a fixed order: 8 components
// Determinism: no atomics anywhere; every sum has an order fixed by the tiling, so two runs give
// identical bits (the order depends on the compile-time constants below and on the chunk length).
// Precision: Real = double (every operation in FP64) or float (pair arithmetic of steps 3, 5 and 7
// in FP32; every accumulation, the Born radii and the bonded terms in FP64).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "potentials/AmberGbTerms.h"

namespace landscape {

constexpr int kGbTile = 32;       ///< atoms per tile (one warp)
constexpr int kGbPairWarps = 8;   ///< row tiles per block of the pair kernel
constexpr int kGbWarpsPerBlock = 4;  ///< tiles per block of the neighbour-list kernel
/// Warps per tile of the gather kernels (Born radii, chain rule): each takes every
/// kGbGatherWarps-th neighbour tile, so that a small system still fills the device.
constexpr int kGbGatherWarps = 16;
constexpr int kGbBondedBlock = 256;  ///< threads per block of the bonded kernel
constexpr int kGbSlotValues = 4;     ///< per atom and slot of the pair kernel: dE/dx, dE/dy, dE/dz, dE/dB

/// Axis-aligned bounding box of one tile, Angstrom.
struct GbTileBox {
  double lo[3];
  double hi[3];
};

/// Per-atom parameters that never change during a run (uploaded once).
struct GbAtomParams {
  const double* d_charge = nullptr;    ///< N, AMBER units (e x 18.2223)
  const int* d_ljType = nullptr;       ///< N
  const double* d_radius = nullptr;    ///< N, intrinsic GB radius R, A
  const double* d_rho = nullptr;       ///< N, R - offset, A
  const double* d_screened = nullptr;  ///< N, S (R - offset), A
  const double* d_ljA = nullptr;       ///< types^2, kcal/mol A^12
  const double* d_ljB = nullptr;       ///< types^2, kcal/mol A^6
  int ljTypeCount = 0;
};

/// The pair kernel's task grid: a task is (row block, column chunk); it exists when its chunk
/// holds a tile >= the block's first tile.
struct GbPairLayout {
  int tiles = 0;       ///< T = ceil(N / 32)
  int chunk = 1;       ///< C, column tiles per task
  int rowBlocks = 0;   ///< ceil(T / kGbPairWarps)
  int chunks = 0;      ///< ceil(T / C)
  int taskCount = 0;
};

/// Builds the layout for N atoms and the chosen chunk length.
GbPairLayout gbPairLayout(std::size_t atoms, int chunk);

/// Exclusions as 32 x 32 bitmasks per tile pair (I <= J): for tile I, entries
/// d_excludedTileOffsets[I] .. [I + 1] list column tiles d_excludedTile[k] (ascending) and the
/// masks d_excludedMask[32 k + lane]: bit m set when atom 32 I + lane and atom 32 J + m are an
/// excluded pair (i < j).
struct GbExclusions {
  const int* d_excludedTileOffsets = nullptr;
  const int* d_excludedTile = nullptr;
  const std::uint32_t* d_excludedMask = nullptr;
};

struct GbBondedArgs {
  const double* d_x = nullptr;
  const AmberBondTerm* d_bonds = nullptr;
  const AmberAngleTerm* d_angles = nullptr;
  const AmberDihedralTerm* d_dihedrals = nullptr;
  const AmberPair14Term* d_pairs14 = nullptr;
  int bonds = 0, angles = 0, dihedrals = 0, pairs14 = 0;
  /// Gradient slots, 3 doubles each: bonds 2 per term, then angles 3, dihedrals 4, 1-4 pairs 2.
  double* d_slotGradient = nullptr;
  /// 2 per block: [block][0] is the block's energy of its term kind (1-4 VDW for the 1-4 blocks),
  /// [block][1] the 1-4 EEL (0 elsewhere).
  double* d_blockEnergy = nullptr;
};

/// Blocks of the bonded kernel per term kind (each kind starts on a fresh block).
struct GbBondedBlocks {
  int bonds = 0, angles = 0, dihedrals = 0, pairs14 = 0;
  int total() const { return bonds + angles + dihedrals + pairs14; }
};
GbBondedBlocks gbBondedBlocks(int bonds, int angles, int dihedrals, int pairs14);

/// Everything one evaluation reads and writes.
struct GbEvalArgs {
  std::size_t atoms = 0;
  AmberGbModel model{};
  double descreenCutoff = 0.0;  ///< rgbmax + max s_j, A
  GbAtomParams params;
  GbExclusions exclusions;
  GbPairLayout layout;
  const int2* d_tasks = nullptr;  ///< layout.taskCount (row block, chunk)

  const double* d_x = nullptr;  ///< 3N, A
  double* d_g = nullptr;        ///< 3N, kcal/mol/A (overwritten)

  GbTileBox* d_tileBox = nullptr;     ///< T
  int* d_neighbourCount = nullptr;    ///< T
  int* d_neighbours = nullptr;        ///< T x T
  double* d_born = nullptr;           ///< N, A
  double* d_dBornDSum = nullptr;      ///< N, A^2
  double* d_selfEnergy = nullptr;     ///< N, kcal/mol
  double* d_selfDEdB = nullptr;       ///< N, kcal/mol/A
  double* d_rowSlots = nullptr;       ///< T x chunks x 4 x 32
  double* d_columnSlots = nullptr;    ///< T x rowBlocks x 4 x 32
  double* d_pairBlockEnergy = nullptr;  ///< taskCount x 3 (VDWAALS, EELEC, EGB pairs)
  double* d_pairGradient = nullptr;   ///< 3N
  double* d_dEdSum = nullptr;         ///< N: dE/dB_i dB_i/dI_i, kcal/mol A
  double* d_chainRowSlots = nullptr;     ///< as d_rowSlots, for the chain-rule pass
  double* d_chainColumnSlots = nullptr;  ///< as d_columnSlots, for the chain-rule pass

  const int* d_atomSlotOffsets = nullptr;  ///< N + 1, into d_atomSlots
  const int* d_atomSlots = nullptr;        ///< bonded gradient slots of each atom, ascending
  const double* d_slotGradient = nullptr;  ///< filled by launchGbBonded

  GbBondedBlocks bondedBlocks;
  const double* d_bondedBlockEnergy = nullptr;  ///< bondedBlocks.total() x 2
  /// 8: BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB (kcal/mol), overwritten.
  double* d_energy = nullptr;
};

void launchGbTileBoxes(const GbEvalArgs& args, cudaStream_t stream);
void launchGbTileNeighbours(const GbEvalArgs& args, cudaStream_t stream);
template <typename Real>
void launchGbBornRadii(const GbEvalArgs& args, cudaStream_t stream);
void launchGbBonded(const GbBondedArgs& args, cudaStream_t stream);
template <typename Real>
void launchGbPairs(const GbEvalArgs& args, cudaStream_t stream);
void launchGbPairReduce(const GbEvalArgs& args, cudaStream_t stream);
template <typename Real>
void launchGbChainRule(const GbEvalArgs& args, cudaStream_t stream);
void launchGbEnergyReduce(const GbEvalArgs& args, cudaStream_t stream);

}  // namespace landscape
