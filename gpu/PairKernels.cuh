#pragma once
// Drivers of the single-structure pair-potential kernels (gpu/PairPotentialCuda): one large
// structure of a PairModel, N from 10^3 to 10^6. Included only from .cu files.
//
// Models without a cutoff (clusters): launchPairAllPairs, one thread per atom i summing every j
// in index order, tiled through shared memory (each pair seen from both atoms).
//
// Models with a cutoff: a Verlet list (Verlet, Phys. Rev. 159, 98 (1967)) built on the device
// from a cell list, in the layout of Shkurti et al., J. Comput. Chem. 34, 803 (2013): neighbour k
// of slot s at list[k N + s] (column-major: consecutive threads read consecutive words), a count
// per slot. The build (launchPairListBuild):
//   bounds   the bounding box of the open axes (integer atomics on order-preserving keys: min and
//            max are exact, so any order gives the same box);
//   grid     cells at least the longest cutoff plus the skin wide (a periodic axis with fewer than
//            three cells becomes one cell, so no cell is visited twice), widened until at most
//            maxCells cells;
//   sort     atoms stably sorted by cell (cub::DeviceRadixSort, least significant digit first,
//            so atoms of one cell keep their index order): slot s holds atom order[s];
//   ranges   each cell's first and past-the-end slot;
//   gather   the slots' positions (the reference of the displacement test) and species;
//   list     per slot the 27 cells around its own in a fixed order (z, then y, then x offsets),
//            each cell's slots in order, keeping t when |r_s - r_t| (minimum image) is below the
//            pair's own cutoff plus the skin; entries are t << 4 | species(t).
// The neighbour order is thus fixed by the positions of the build alone.
// An evaluation (launchPairListEvaluate): the positions gathered into slot order (neighbours of
// one cell are then near each other in memory), with the test whether any atom moved more than
// half the skin from its build position (minimum image; an "or" over the atoms, set in a device
// flag); then `lanesPerAtom` (L) consecutive lanes of a warp per slot sum its list, lane l the
// entries l, l + L, ... in order (a long list is one long chain of dependent loads: L lanes cut
// it L-fold and put L times more warps in flight), their sums added by a fixed butterfly of
// shuffles, and lane 0 writes its atom's gradient and energy. Energies: per-block sums by
// cub::BlockReduce, the blocks' sums added in block order by the last block to finish (integer
// counter), as gpu/LennardJonesKernels; that block also writes the energy and the flag where the
// host reads them, and resets the flag and the counter.
#include <cuda_runtime.h>

#include <cstddef>

#include "gpu/PairDevice.cuh"

namespace landscape {

/// Threads per block of every single-structure kernel.
constexpr int kPairBlock = 128;

/// What the host reads after an evaluation (mapped page-locked memory).
struct PairEvaluationOut {
  double energy;
  int moved;  ///< 1 when an atom moved more than half the skin since the list was built
  int pad;
};

/// The cell grid of a build (computed on the device).
struct PairCellGrid {
  int cells[3];
  int total;
  double origin[3];
  double inverseWidth[3];
};

/// A position in slot order: 32 bytes, two 16-byte loads.
struct alignas(32) PairPosition {
  double x, y, z, pad;
};

/// What every kernel of a structure reads: the model's constants on the device.
struct PairModelView {
  const PairCoefficients* d_pairs = nullptr;  ///< speciesCount^2
  const int* d_species = nullptr;             ///< [N]
  const double* d_table = nullptr;            ///< tables' coefficients (Tabulated)
  PairDeviceBox box;
  PairLaw law = PairLaw::LennardJones;
  int speciesCount = 1;
  int atoms = 0;
};

/// The energy reduction's scratch: one sum per block, the finished-block counter (0 between
/// launches), and where the result goes.
struct PairEnergyScratch {
  double* d_blockEnergy = nullptr;
  unsigned int* d_blocksDone = nullptr;
  PairEvaluationOut* d_out = nullptr;  ///< device address of the host-visible result
};

/// The Verlet list and the cell list it is built from.
struct PairListView {
  double skin = 0.3;
  int lanesPerAtom = 1;  ///< threads sharing an atom's list in an evaluation (power of two <= 32)
  int maxCells = 0;
  int capacity = 0;                     ///< entries per slot the list holds
  const double* d_listRadius2 = nullptr;  ///< (cutoff + skin)^2 per species pair
  double cellWidth = 0.0;                 ///< the longest cutoff plus the skin
  int sortBits = 0;                       ///< bits of a cell index
  unsigned long long* d_bounds = nullptr;  ///< [6] order-preserving keys: min xyz, max xyz
  PairCellGrid* d_grid = nullptr;
  unsigned int* d_keys = nullptr;        ///< [N] cell per atom
  unsigned int* d_keysSorted = nullptr;  ///< [N] cell per slot
  int* d_indices = nullptr;      ///< [N] 0..N-1
  int* d_order = nullptr;        ///< [N] atom of each slot
  int* d_cellStart = nullptr;    ///< [maxCells]
  int* d_cellEnd = nullptr;      ///< [maxCells]
  PairPosition* d_reference = nullptr;  ///< [N] positions of the build, slot order
  PairPosition* d_positions = nullptr;  ///< [N] positions of the evaluation, slot order
  int* d_slotSpecies = nullptr;         ///< [N]
  unsigned int* d_list = nullptr;       ///< [capacity x N]
  int* d_counts = nullptr;              ///< [N]
  int* d_maxCount = nullptr;            ///< [1] the longest list the build found
  int* d_moved = nullptr;               ///< [1] the displacement flag (0 between evaluations)
  void* d_sortScratch = nullptr;
  std::size_t sortScratchBytes = 0;
};

/// Blocks (and d_blockEnergy entries) of an evaluation of N atoms over every pair, and over the
/// list with `lanesPerAtom` threads per atom.
int pairBlockCount(int atoms);
int pairListBlockCount(int atoms, int lanesPerAtom);
/// Scratch bytes of the cell sort of N atoms with `bits` key bits.
std::size_t pairSortScratchBytes(int atoms, int bits);

/// Energy and gradient summing all pairs; per-atom energies to d_atomEnergy (atom order).
void launchPairAllPairs(const PairModelView& model, const double* d_x, double* d_g,
                        double* d_atomEnergy, const PairEnergyScratch& scratch,
                        cudaStream_t stream);

/// The cell sort and the Verlet list from the positions d_x, up to d_maxCount (the caller reads
/// it, and calls launchPairListNeighbours again with a larger list when it exceeds capacity).
void launchPairListBuild(const PairModelView& model, const PairListView& list, const double* d_x,
                         cudaStream_t stream);
/// The list alone, from the positions and cells of the last build (after a regrowth).
void launchPairListNeighbours(const PairModelView& model, const PairListView& list,
                              cudaStream_t stream);

/// Energy and gradient over the list; per-slot energies to d_slotEnergy (slot order).
void launchPairListEvaluate(const PairModelView& model, const PairListView& list,
                            const double* d_x, double* d_g, double* d_slotEnergy,
                            const PairEnergyScratch& scratch, cudaStream_t stream);

}  // namespace landscape
