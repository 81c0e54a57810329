#pragma once
// Drivers for the AMBER-GB CUDA kernels (gpu/BatchedAmberGbCuda owns the buffers and calls
// launchGbEnergyGradient; gpu/AmberGbCuda is its B = 1 user). Included from .cu files and from
// the layout test (g++ compiles it). One launch sequence evaluates B structures of one topology,
// each as it would be alone, in four steps and six kernels (tile boxes, Born radii, pairs, chain
// rule) with no atomics in any sum; docs/amber-gb.md, "Kernel layout", describes the grids, the
// work split, the order of every sum and the precision of each step.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "potentials/AmberGbTerms.h"

namespace landscape {

constexpr int kGbTile = 32;  ///< atoms per tile (one warp)
/// Row tiles (warps) per block of the pair and chain-rule kernels at most; a layout takes 8, 4, 2
/// or 1 (GbPairLayout::rows).
constexpr int kGbPairWarps = 8;
/// Warps per block of the Born-radius kernel; the blocks of one row tile share its work units.
constexpr int kGbGatherWarps = 16;
/// The order of every per-atom slot sum: kGbSlotPartials partials, partial w adding slot items
/// w, w + kGbSlotPartials, ... in index order, then the partials in order.
constexpr int kGbSlotPartials = 16;
/// Warps per block of the per-atom slot sums (lanes are a tile's atoms); 1, 4 or 16 warps form
/// each sum of one tile and value, whichever fills the device (16 warps: blocks of 16).
constexpr int kGbSlotSumWarps = 8;
/// The warps the slot sums of a launch aim to keep busy: about half of those an H100/H200 holds
/// (132 multiprocessors x 64).
constexpr long long kGbSlotSumFillWarps = 4096;
constexpr int kGbBondedBlock = 256;  ///< threads per block of the bonded kernel
/// Per atom and slot of the pair kernel: dE/dx, dE/dy, dE/dz, dE/dB.
constexpr int kGbSlotValues = 4;

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
  /// types^2 LJ coefficients (A kcal/mol A^12, B kcal/mol A^6), one load per pair.
  const double2* d_lj = nullptr;
  /// The same rounded to float: the mixed-precision pair loop reads these (an FP64 to FP32
  /// conversion per pair would take the conversion unit, shared with exp and rsqrt).
  const float2* d_ljFloat = nullptr;
  int ljTypeCount = 0;
};

/// The GB model's constants of the pair loop rounded to float, read from the kernel parameters by
/// the mixed-precision pair kernel (converting the FP64 constants there costs a conversion per
/// pair: the compiler redoes it rather than hold a register). Set by launchGbEnergyGradient.
struct GbFloatModel {
  float kappa = 0.0f;            ///< 1/A
  float interiorInverse = 0.0f;  ///< 1 / eps_in
  float exteriorInverse = 0.0f;  ///< 1 / eps_out
  float cutoff2 = 0.0f;          ///< sander's cut squared, A^2 (+infinity: every pair)
};

/// The pair kernel's task grid: a task is (row block of `rows` row tiles, column chunk); it exists
/// when its chunk holds a tile >= the block's first tile. A block's warps whose row tile lies
/// beyond a column tile have no pair with it and wait: small systems take fewer rows per block so
/// that fewer warps wait (trp-cage's 10 tiles: 55 tile pairs on 96 warps of 8-row blocks, on 60
/// of 2-row blocks).
/// Each task runs as `parts` blocks, block p taking rotation steps [p 32/parts, (p + 1) 32/parts)
/// of every tile pair: small systems get parts > 1 so that the grid fills the device and the serial
/// chain of a warp is short.
struct GbPairLayout {
  int tiles = 0;            ///< T = ceil(N / 32)
  int chunk = 1;            ///< C, column tiles per task
  int rows = kGbPairWarps;  ///< R, row tiles (warps) per block: 1, 2, 4 or 8
  int rowBlocks = 0;        ///< ceil(T / R)
  int chunks = 0;           ///< ceil(T / C)
  int taskCount = 0;
  int parts = 1;  ///< S, a power of two dividing 32
};

/// Builds the layout for N atoms, the chosen chunk length, step parts and rows per block.
GbPairLayout gbPairLayout(std::size_t atoms, int chunk, int parts, int rows = kGbPairWarps);

/// Last column tile of chunk c.
__host__ __device__ inline int gbChunkLastTile(const GbPairLayout& l, int c) {
  const int last = c * l.chunk + l.chunk - 1;
  return last < l.tiles - 1 ? last : l.tiles - 1;
}

/// A task (row block b, chunk c) exists when the chunk reaches the block's first row tile.
__host__ __device__ inline bool gbPairTaskExists(const GbPairLayout& l, int b, int c) {
  return gbChunkLastTile(l, c) >= b * l.rows;
}

/// The pair-grid slot items of one tile, as the per-atom sums read them: item j < rowCount is the
/// row slot of (chunk firstChunk + j / S, part j % S), item rowCount + j the column slot of
/// (row block j / S, part j % S); exactly the items of the tasks that exist (the tasks a row tile
/// meets are chunks firstChunk.. of its row block, those a column tile meets are row blocks
/// 0..lastRowBlock of its chunk). In the slot arrays an item is kGbSlotValues x 32 doubles and a
/// tile's items are consecutive, so item j starts at rowBase + j x 128 (column: columnBase + ...).
struct GbTileSlotItems {
  long long rowBase = 0;  ///< doubles into the row-slot array
  int rowCount = 0;
  long long columnBase = 0;  ///< doubles into the column-slot array
  int columnCount = 0;
};

__host__ __device__ inline GbTileSlotItems gbTileSlotItems(const GbPairLayout& l, int tile) {
  const long long item = static_cast<long long>(kGbSlotValues) * kGbTile;
  const int firstChunk = (tile / l.rows) * l.rows / l.chunk;
  const int lastRowBlock = gbChunkLastTile(l, tile / l.chunk) / l.rows;
  GbTileSlotItems s;
  s.rowBase = (static_cast<long long>(tile) * l.chunks + firstChunk) * l.parts * item;
  s.rowCount = (l.chunks - firstChunk) * l.parts;
  s.columnBase = static_cast<long long>(tile) * l.rowBlocks * l.parts * item;
  s.columnCount = (lastRowBlock + 1) * l.parts;
  return s;
}

/// The Born-radius gather: the work of a row tile is T x columnParts units (column tile J, part q
/// of its 32 rotation steps: at step s lane l meets column atom l + s mod 32), shared by
/// blocksPerTile x kGbGatherWarps warps (unit u goes to warp u mod that count).
struct GbGatherLayout {
  int columnParts = 1;    ///< Q, a power of two dividing 32
  int blocksPerTile = 1;  ///< P
};

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
  __host__ __device__ int total() const { return bonds + angles + dihedrals + pairs14; }
};
GbBondedBlocks gbBondedBlocks(int bonds, int angles, int dihedrals, int pairs14);

struct AmberGbTables;
/// For each atom, its bonded gradient slots in ascending order (the slot numbering of
/// GbBondedArgs: bonds 2 per term, then angles 3, dihedrals 4, 1-4 pairs 2): a CSR that the
/// gradient assembly gathers in a fixed order. offsets gets atoms + 1 entries.
void gbBondedAtomSlots(const AmberGbTables& tables, std::size_t atoms, std::vector<int>& offsets,
                       std::vector<int>& slots);

/// The bonded and 1-4 terms of one structure alone, as the first blocks of the pair grid compute
/// them (the same device code, the same bits): blocks.total() blocks of kGbBondedBlock threads,
/// gradients to args.d_slotGradient, per-block energies to args.d_blockEnergy. For callers
/// without the tile grid (gpu/AmberGbListKernels).
void launchGbBonded(const GbBondedArgs& args, const GbBondedBlocks& blocks, cudaStream_t stream);

/// Structures per launch: grid.y is limited to 65535.
constexpr int kGbMaxGridY = 65535;

/// Where each per-structure scratch array lies in a structure's arena, in doubles from its start
/// (every array starts on a 256-byte boundary), and the arena's length. Built by gbScratchLayout
/// from the system alone.
struct GbScratchLayout {
  long long tileBox = 0;                                        ///< T boxes of 6 doubles
  long long bornPartial = 0;                                    ///< T x P x 32
  long long born = 0, dBornDSum = 0, selfDEdB = 0, dEdSum = 0;  ///< N each
  long long tileSelfEnergy = 0;                                 ///< T
  long long rowSlots = 0, chainRowSlots = 0;                    ///< T x chunks x S x 4 x 32 each
  long long columnSlots = 0, chainColumnSlots = 0;              ///< T x rowBlocks x S x 4 x 32 each
  long long pairBlockEnergy = 0;                                ///< taskCount x S x 3
  long long pairGradient = 0;                                   ///< 3N
  long long slotGradient = 0;                                   ///< 3 x bonded slots (at least 1)
  long long bondedBlockEnergy = 0;                              ///< 2 x bonded blocks (at least 1)
  long long components = 0;                                     ///< 8
  /// T x T x 32 x 32 kept slopes dI_ij/dr (doubles; float in mixed precision), 0: none
  long long descreenSlopes = 0;
  long long stride = 0;   ///< doubles per structure
  long long tickets = 0;  ///< ticket counters per structure: T (Born radii)
};

/// With `descreenSlopes` the arena also holds the slope table (d_descreenSlopes).
GbScratchLayout gbScratchLayout(std::size_t atoms, const GbPairLayout& layout,
                                const GbGatherLayout& gather, std::size_t bondedSlots,
                                const GbBondedBlocks& bondedBlocks, bool descreenSlopes);

/// Systems of at most this many tiles (3,072 atoms) keep the Born pass's slopes dI_ij/dr for the
/// chain rule (T^2 x 8 KB per structure in double: 0.8 MB for trp-cage's 10 tiles, 50 MB for
/// myoglobin's 78, 75 MB at 96 tiles); larger ones evaluate the descreening branches again in the
/// chain-rule pass.
constexpr int kGbSlopeTableMaxTiles = 96;

/// The batch of one launch sequence.
struct GbBatchArgs {
  long long first = 0;  ///< structure of blockIdx.y == 0
  /// Per structure, 0 = skip (indexed by structure, from 0); nullptr: every structure is active.
  const std::uint8_t* d_active = nullptr;
  long long scratchStride = 0;  ///< GbScratchLayout::stride
  long long ticketStride = 0;   ///< GbScratchLayout::tickets
};

/// Everything one launch sequence reads and writes. The per-structure pointers are those of
/// structure 0; structure s adds s x 3N to d_x and d_g, s to d_total, s x scratchStride to the
/// scratch arrays and s x ticketStride to the tickets (gbAtStructure in the .cu).
struct GbEvalArgs {
  std::size_t atoms = 0;
  AmberGbModel model{};
  GbFloatModel floatModel{};    ///< model's pair constants in float (launchGbEnergyGradient)
  double descreenCutoff = 0.0;  ///< rgbmax + max s_j, A
  GbAtomParams params;
  GbExclusions exclusions;
  GbPairLayout layout;
  GbGatherLayout gather;
  const int2* d_tasks = nullptr;  ///< layout.taskCount (row block, chunk)
  GbBatchArgs batch;

  const double* d_x = nullptr;  ///< 3N per structure, A
  double* d_g = nullptr;        ///< 3N per structure, kcal/mol/A (overwritten)
  double* d_total = nullptr;    ///< 1 per structure: the energy, kcal/mol (overwritten)

  // Scratch of one structure (GbScratchLayout).
  GbTileBox* d_tileBox = nullptr;        ///< T
  double* d_bornPartial = nullptr;       ///< T x P x 32: block partials of I_i
  unsigned* d_tileTickets = nullptr;     ///< T, zero between kernels (the last block resets)
  double* d_born = nullptr;              ///< N, A
  double* d_dBornDSum = nullptr;         ///< N, A^2
  double* d_tileSelfEnergy = nullptr;    ///< T: GB self energy of each tile, kcal/mol
  double* d_selfDEdB = nullptr;          ///< N, kcal/mol/A
  double* d_rowSlots = nullptr;          ///< T x chunks x S x 4 x 32
  double* d_columnSlots = nullptr;       ///< T x rowBlocks x S x 4 x 32
  double* d_pairBlockEnergy = nullptr;   ///< taskCount x S x 3 (VDWAALS, EELEC, EGB pairs)
  double* d_pairGradient = nullptr;      ///< 3N
  double* d_dEdSum = nullptr;            ///< N: dE/dB_i dB_i/dI_i, kcal/mol A
  double* d_chainRowSlots = nullptr;     ///< as d_rowSlots, for the chain-rule pass
  double* d_chainColumnSlots = nullptr;  ///< as d_columnSlots, for the chain-rule pass
  /// T x T x 32 x 32 slopes dI_ij/dr (Real) that the Born pass keeps for the chain-rule pass
  /// (tile pair (I, J): row atom l and column atom m at [(m - l) mod 32][l]); nullptr: the
  /// chain-rule pass evaluates them itself.
  double* d_descreenSlopes = nullptr;

  const int* d_atomSlotOffsets = nullptr;  ///< N + 1, into d_atomSlots (shared)
  const int* d_atomSlots = nullptr;        ///< bonded gradient slots of each atom, ascending
  const double* d_slotGradient = nullptr;  ///< per structure, filled by the bonded blocks

  GbBondedArgs bonded;  ///< the bonded terms, computed by the first blocks of the pair grid
  GbBondedBlocks bondedBlocks;
  const double* d_bondedBlockEnergy = nullptr;  ///< bondedBlocks.total() x 2
  /// 8: BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, 1-4_EEL, EGB (kcal/mol), overwritten.
  double* d_energy = nullptr;
};

/// Points the per-structure scratch pointers of `args` (and of args.bonded) at structure 0 of an
/// arena of batch x layout.stride doubles and batch x layout.tickets counters, and sets the
/// strides. The counters must be zero before the first launch (the kernels leave them zero).
void bindGbScratch(GbEvalArgs& args, const GbScratchLayout& layout, double* scratch,
                   unsigned* tickets);

/// Energy + gradient of structures [0, batch) (args.d_x, d_g, d_total, the scratch bound, the
/// active mask in args.batch.d_active), enqueued on `stream`: six kernels per kGbMaxGridY
/// structures, no host synchronisation. `programmatic` (compute capability 9.0 and later):
/// kernels 2-6 are launched with programmatic stream serialisation, so that each may start while
/// the one before it finishes (every kernel waits for its predecessor before it touches global
/// memory: the same arithmetic, the same bits).
template <typename Real>
void launchGbEnergyGradient(const GbEvalArgs& args, std::size_t batch, cudaStream_t stream,
                            bool programmatic);

}  // namespace landscape
