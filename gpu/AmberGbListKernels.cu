#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/AmberGbListKernels.cuh"
#include "gpu/CudaCheck.h"

namespace landscape {
namespace {

constexpr unsigned kWarpMask = 0xffffffffu;
constexpr int kEnergyThreads = 256;  ///< one block, a warp per energy component

using BlockReduce = cub::BlockReduce<double, kGbListBlock>;

__device__ __forceinline__ PairPosition loadSlotPosition(const PairPosition* p, int s) {
  const double2* q = reinterpret_cast<const double2*>(p + s);
  const double2 a = __ldg(q), b = __ldg(q + 1);
  return {a.x, a.y, b.x, b.y};
}

/// The slot and lane of this thread (L consecutive lanes per slot).
struct SlotLane {
  int slot, lane;
};
__device__ __forceinline__ SlotLane slotLane(int lanes) {
  const int thread = static_cast<int>(blockIdx.x) * kGbListBlock + static_cast<int>(threadIdx.x);
  return {thread / lanes, thread & (lanes - 1)};
}

/// The lanes of a slot are consecutive lanes of one warp and every thread of the warp calls
/// this: a fixed butterfly gives every lane the same sum (a + b = b + a).
__device__ __forceinline__ double laneSum(double v, int lanes) {
  for (int offset = lanes / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(kWarpMask, v, offset);
  return v;
}

/// The model's pair constants in the loop's arithmetic: FP64, or the float copy (GbFloatModel).
template <typename Real>
struct ListConstants {
  Real kappa, interiorInverse, exteriorInverse;
  __device__ explicit ListConstants(const GbListArgs& a) {
    if constexpr (std::is_same<Real, float>::value) {
      kappa = a.floatModel.kappa;
      interiorInverse = a.floatModel.interiorInverse;
      exteriorInverse = a.floatModel.exteriorInverse;
    } else {
      kappa = a.model.kappa;
      interiorInverse = a.model.interiorInverse;
      exteriorInverse = a.model.exteriorInverse;
    }
  }
};

__device__ __forceinline__ void listLj(const GbAtomParams& p, int type, double& ljA, double& ljB) {
  const double2 ab = __ldg(p.d_lj + type);
  ljA = ab.x;
  ljB = ab.y;
}
__device__ __forceinline__ void listLj(const GbAtomParams& p, int type, float& ljA, float& ljB) {
  const float2 ab = __ldg(p.d_ljFloat + type);
  ljA = ab.x;
  ljB = ab.y;
}

/// Whether pair (i, j) is excluded: the row of min(i, j) holds max(i, j) (binary search).
__device__ __forceinline__ bool excludedPair(const GbListArgs& a, int i, int j) {
  const int lo = i < j ? i : j, hi = i < j ? j : i;
  int first = a.d_exclusionOffsets[lo], last = a.d_exclusionOffsets[lo + 1];
  while (first < last) {
    const int mid = (first + last) / 2;
    const int v = a.d_exclusions[mid];
    if (v == hi) return true;
    if (v < hi)
      first = mid + 1;
    else
      last = mid;
  }
  return false;
}

// ---- after a build -------------------------------------------------------------------------

__global__ void __launch_bounds__(kGbListBlock) gbListPrepareKernel(GbListArgs a) {
  const int n = a.atoms;
  const int s = static_cast<int>(blockIdx.x) * kGbListBlock + static_cast<int>(threadIdx.x);
  if (s >= n) return;
  const int i = a.d_order[s];
  a.d_slotRho[s] = a.params.d_rho[i];
  a.d_slotScreened[s] = a.params.d_screened[i];
  a.d_slotCharge[s] = a.params.d_charge[i];
  a.d_slotRadius[s] = a.params.d_radius[i];
  a.d_slotType[s] = a.params.d_ljType[i];
  const int count = a.d_counts[s];
  for (int k = 0; k < count; ++k) {
    unsigned int* entry = a.d_listMutable + static_cast<std::size_t>(k) * n + s;
    const unsigned int t = *entry >> 4;
    const bool excluded = excludedPair(a, i, a.d_order[t]);
    *entry = (t << 4) | (excluded ? 1u : 0u);
  }
}

// ---- an evaluation -------------------------------------------------------------------------

__global__ void __launch_bounds__(kGbListBlock) gbListPositionsKernel(GbListArgs a) {
  const int n = a.atoms;
  const int s = static_cast<int>(blockIdx.x) * kGbListBlock + static_cast<int>(threadIdx.x);
  bool moved = false;
  if (s < n) {
    const int i = a.d_order[s];
    const PairPosition p = {a.d_x[3 * i], a.d_x[3 * i + 1], a.d_x[3 * i + 2], 0.0};
    a.d_positions[s] = p;
    const PairPosition r = loadSlotPosition(a.d_reference, s);
    const double dx = p.x - r.x, dy = p.y - r.y, dz = p.z - r.z;
    const double half = 0.5 * a.skin;
    // NaN counts as moved: the list is rebuilt and the NaN reaches the energy either way.
    moved = !(dx * dx + dy * dy + dz * dz <= half * half);
  }
  if (__syncthreads_or(moved) && threadIdx.x == 0) atomicOr(a.d_moved, 1);
}

/// Born radii: I_s over the entries within rgbmax + max S, then B_s, dB_s/dI_s, the self term.
template <typename Real>
__global__ void __launch_bounds__(kGbListBlock) gbListBornKernel(GbListArgs a) {
  __shared__ typename BlockReduce::TempStorage storage;
  const int n = a.atoms, lanes = a.lanes;
  const SlotLane me = slotLane(lanes);
  const int s = me.slot;
  const double reach2 = a.descreenCutoff * a.descreenCutoff;
  double sum = 0.0;
  if (s < n) {
    const PairPosition p = loadSlotPosition(a.d_positions, s);
    const Real rho = Real(a.d_slotRho[s]);
    const Real rgbmax = Real(a.model.rgbmax);
    const int count = a.d_counts[s];
    const unsigned int* entry = a.d_list + s;
#pragma unroll 1
    for (int k = me.lane; k < count; k += lanes) {
      const int t = static_cast<int>(__ldg(entry + static_cast<std::size_t>(k) * n) >> 4);
      const PairPosition q = loadSlotPosition(a.d_positions, t);
      const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 > reach2) continue;
      const Real ir = amberInverseSqrt<Real>(Real(r2));
      const Real r = Real(r2) * ir;
      sum += static_cast<double>(
          amberDescreeningValue<Real>(r, ir, rho, Real(__ldg(a.d_slotScreened + t)), rgbmax));
    }
  }
  sum = laneSum(sum, lanes);
  double self = 0.0;
  if (s < n && me.lane == 0) {
    const AmberBornRadius born = amberBornRadius(sum, a.d_slotRadius[s], a.model);
    a.d_born[s] = born.radius;
    a.d_inverseBorn[s] = 1.0 / born.radius;
    a.d_dBornDSum[s] = born.dRadiusDSum;
    const AmberGbSelfTerm term = amberGbSelf(a.d_slotCharge[s], born.radius, a.model);
    a.d_selfDEdB[s] = term.dEdB;
    self = term.energy;
  }
  const double blockSum = BlockReduce(storage).Sum(self);
  if (threadIdx.x == 0) a.d_bornBlockEnergy[blockIdx.x] = blockSum;
}

/// The pair terms within cut: explicit gradient, dE/dB of the slot's atom, energies (halved).
template <typename Real>
__global__ void __launch_bounds__(kGbListBlock) gbListPairsKernel(GbListArgs a) {
  __shared__ typename BlockReduce::TempStorage storage;
  const int n = a.atoms, lanes = a.lanes;
  const SlotLane me = slotLane(lanes);
  const int s = me.slot;
  const ListConstants<Real> c(a);
  const double cut2 = a.model.cutoff2;
  double vdw = 0.0, eel = 0.0, gb = 0.0, gx = 0.0, gy = 0.0, gz = 0.0, dEdB = 0.0;
  if (s < n) {
    const PairPosition p = loadSlotPosition(a.d_positions, s);
    const double qi = a.d_slotCharge[s];
    const Real bi = Real(a.d_born[s]);
    const Real inverseBi = Real(a.d_inverseBorn[s]);
    const int typeRow = a.d_slotType[s] * a.params.ljTypeCount;
    const int count = a.d_counts[s];
    const unsigned int* entry = a.d_list + s;
#pragma unroll 1
    for (int k = me.lane; k < count; k += lanes) {
      const unsigned int word = __ldg(entry + static_cast<std::size_t>(k) * n);
      const int t = static_cast<int>(word >> 4);
      const PairPosition q = loadSlotPosition(a.d_positions, t);
      const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      const double r2 = dx * dx + dy * dy + dz * dz;
      // sander's cut (msander egb.F90, subroutine egb, Step 2 keeps r^2 <= cut^2); NaN stays.
      if (r2 > cut2) continue;
      const Real rr2 = Real(r2);
      const Real qiqj = Real(qi * __ldg(a.d_slotCharge + t));
      const AmberGbPairTermT<Real> term = amberGbPair<Real>(
          rr2, qiqj, bi, Real(__ldg(a.d_born + t)), inverseBi * Real(__ldg(a.d_inverseBorn + t)),
          c.kappa, c.interiorInverse, c.exteriorInverse);
      gb += static_cast<double>(term.energy);
      dEdB += static_cast<double>(term.dEdBi);
      Real dEdrOverR = term.dEdrOverR;
      if (!(word & 1u)) {  // not an excluded pair: LJ and Coulomb
        const Real ir = amberInverseSqrt<Real>(rr2);
        Real ljA, ljB;
        listLj(a.params, typeRow + __ldg(a.d_slotType + t), ljA, ljB);
        const AmberPairTermT<Real> lj = amberLennardJonesFromInverse<Real>(ir * ir, ljA, ljB);
        const AmberPairTermT<Real> el = amberCoulombFromInverse<Real>(ir, qiqj * c.interiorInverse);
        vdw += static_cast<double>(lj.energy);
        eel += static_cast<double>(el.energy);
        dEdrOverR += lj.dEdrOverR + el.dEdrOverR;
      }
      gx += static_cast<double>(dEdrOverR * Real(dx));
      gy += static_cast<double>(dEdrOverR * Real(dy));
      gz += static_cast<double>(dEdrOverR * Real(dz));
    }
  }
  vdw = laneSum(vdw, lanes);
  eel = laneSum(eel, lanes);
  gb = laneSum(gb, lanes);
  gx = laneSum(gx, lanes);
  gy = laneSum(gy, lanes);
  gz = laneSum(gz, lanes);
  dEdB = laneSum(dEdB, lanes);
  if (s < n && me.lane == 0) {
    a.d_pairGradient[3 * s] = gx;
    a.d_pairGradient[3 * s + 1] = gy;
    a.d_pairGradient[3 * s + 2] = gz;
    a.d_dEdSum[s] = (a.d_selfDEdB[s] + dEdB) * a.d_dBornDSum[s];
  } else {
    vdw = eel = gb = 0.0;  // a slot's energies count once, from lane 0
  }
  // Each pair was seen from both of its atoms.
  const double sums[3] = {0.5 * vdw, 0.5 * eel, 0.5 * gb};
  for (int v = 0; v < 3; ++v) {
    const double blockSum = BlockReduce(storage).Sum(sums[v]);
    if (threadIdx.x == 0) a.d_pairBlockEnergy[3 * blockIdx.x + v] = blockSum;
    __syncthreads();  // the reduction's storage is reused
  }
}

/// The chain rule through the Born radii, then the slot's atom's whole gradient.
template <typename Real>
__global__ void __launch_bounds__(kGbListBlock) gbListChainKernel(GbListArgs a) {
  const int n = a.atoms, lanes = a.lanes;
  const SlotLane me = slotLane(lanes);
  const int s = me.slot;
  const double reach2 = a.descreenCutoff * a.descreenCutoff;
  double gx = 0.0, gy = 0.0, gz = 0.0;
  if (s < n) {
    const PairPosition p = loadSlotPosition(a.d_positions, s);
    const Real rhoS = Real(a.d_slotRho[s]);
    const Real screenedS = Real(a.d_slotScreened[s]);
    const Real dEdSumS = Real(a.d_dEdSum[s]);
    const Real rgbmax = Real(a.model.rgbmax);
    const int count = a.d_counts[s];
    const unsigned int* entry = a.d_list + s;
#pragma unroll 1
    for (int k = me.lane; k < count; k += lanes) {
      const int t = static_cast<int>(__ldg(entry + static_cast<std::size_t>(k) * n) >> 4);
      const PairPosition q = loadSlotPosition(a.d_positions, t);
      const double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 > reach2) continue;
      const Real ir = amberInverseSqrt<Real>(Real(r2));
      const Real r = Real(r2) * ir;
      const Real dIst =
          amberDescreeningDerivative<Real>(r, ir, rhoS, Real(__ldg(a.d_slotScreened + t)), rgbmax);
      const Real dIts =
          amberDescreeningDerivative<Real>(r, ir, Real(__ldg(a.d_slotRho + t)), screenedS, rgbmax);
      const Real f = (dEdSumS * dIst + Real(__ldg(a.d_dEdSum + t)) * dIts) * ir;
      gx += static_cast<double>(f * Real(dx));
      gy += static_cast<double>(f * Real(dy));
      gz += static_cast<double>(f * Real(dz));
    }
  }
  gx = laneSum(gx, lanes);
  gy = laneSum(gy, lanes);
  gz = laneSum(gz, lanes);
  if (s >= n || me.lane != 0) return;
  const int i = a.d_order[s];
  double g[3] = {a.d_pairGradient[3 * s] + gx, a.d_pairGradient[3 * s + 1] + gy,
                 a.d_pairGradient[3 * s + 2] + gz};
  const double* slots = a.bonded.d_slotGradient;
  for (int k = a.d_atomSlotOffsets[i]; k < a.d_atomSlotOffsets[i + 1]; ++k) {
    const long long slot = a.d_atomSlots[k];
    for (int c = 0; c < 3; ++c) g[c] += slots[3 * slot + c];
  }
  for (int c = 0; c < 3; ++c) a.d_g[3 * i + c] = g[c];
}

/// Fixed-order sum over the 32 lanes of a warp; the result is in lane 0.
__device__ __forceinline__ double warpTotal(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kWarpMask, v, offset);
  return v;
}

/// The eight components (warp c sums component c: lanes strided over its block sums, then a
/// fixed-order warp sum) and their total, left to right as AmberEnergyBreakdown::total().
__global__ void __launch_bounds__(kEnergyThreads) gbListEnergyKernel(GbListArgs a, int blocks) {
  static_assert(kEnergyThreads / 32 == 8, "one warp per energy component");
  __shared__ double component[8];
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const GbBondedBlocks& b = a.bondedBlocks;
  const double* bonded = a.bonded.d_blockEnergy;  // 2 per bonded block
  const int angles = b.bonds, dihedrals = angles + b.angles, pairs14 = dihedrals + b.dihedrals;
  double partial = 0.0;
  if (warp < 3 || warp == 5 || warp == 6) {  // BOND, ANGLE, DIHED, 1-4_VDW, 1-4_EEL
    const int bounds[4] = {0, angles, dihedrals, pairs14};
    const int first = warp < 3 ? bounds[warp] : pairs14;
    const int last = warp < 3 ? (warp < 2 ? bounds[warp + 1] : pairs14) : pairs14 + b.pairs14;
    const int offset = warp == 6 ? 1 : 0;
    for (int k = first + lane; k < last; k += 32) partial += bonded[2 * k + offset];
  } else {  // VDWAALS (3), EELEC (4), EGB (7): self terms, then pairs
    const int offset = warp == 7 ? 2 : warp - 3;
    if (warp == 7)
      for (int k = lane; k < blocks; k += 32) partial += a.d_bornBlockEnergy[k];
    for (int k = lane; k < blocks; k += 32) partial += a.d_pairBlockEnergy[3 * k + offset];
  }
  partial = warpTotal(partial);
  if (lane == 0) {
    component[warp] = partial;
    a.d_energy[warp] = partial;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    a.d_energy[8] = component[0] + component[1] + component[2] + component[3] + component[4] +
                    component[5] + component[6] + component[7];
}

unsigned int blocksOf(long long threads) {
  return static_cast<unsigned int>((threads + kGbListBlock - 1) / kGbListBlock);
}

void requireLanes(int lanes) {
  if (lanes < 1 || lanes > 32 || (lanes & (lanes - 1)) != 0)
    throw std::invalid_argument(
        "AMBER-GB list kernels: lanes per atom must be a power of two up "
        "to 32, got " +
        std::to_string(lanes));
}

}  // namespace

int gbListBlockCount(int atoms, int lanes) {
  return static_cast<int>(blocksOf(static_cast<long long>(atoms) * lanes));
}

void launchGbListPrepare(const GbListArgs& a, cudaStream_t stream) {
  gbListPrepareKernel<<<blocksOf(a.atoms), kGbListBlock, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

void launchGbListPositions(const GbListArgs& a, cudaStream_t stream) {
  gbListPositionsKernel<<<blocksOf(a.atoms), kGbListBlock, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launchGbListEvaluate(const GbListArgs& args, cudaStream_t stream) {
  requireLanes(args.lanes);
  GbListArgs a = args;
  a.floatModel.kappa = static_cast<float>(args.model.kappa);
  a.floatModel.interiorInverse = static_cast<float>(args.model.interiorInverse);
  a.floatModel.exteriorInverse = static_cast<float>(args.model.exteriorInverse);
  a.floatModel.cutoff2 = static_cast<float>(args.model.cutoff2);
  const int blocks = gbListBlockCount(a.atoms, a.lanes);
  const unsigned int grid = static_cast<unsigned int>(blocks);
  gbListBornKernel<Real><<<grid, kGbListBlock, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  gbListPairsKernel<Real><<<grid, kGbListBlock, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  launchGbBonded(a.bonded, a.bondedBlocks, stream);
  gbListChainKernel<Real><<<grid, kGbListBlock, 0, stream>>>(a);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
  gbListEnergyKernel<<<1, kEnergyThreads, 0, stream>>>(a, blocks);
  LANDSCAPE_CUDA_CHECK_LAUNCH();
}

template void launchGbListEvaluate<double>(const GbListArgs&, cudaStream_t);
template void launchGbListEvaluate<float>(const GbListArgs&, cudaStream_t);

}  // namespace landscape
