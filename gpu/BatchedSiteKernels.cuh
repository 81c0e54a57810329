#pragma once
// Driver of the batched site kernel (gpu/BatchedSitePotentialCuda): B structures of one site model
// per launch, one block per structure, the pair law of potentials/SiteTerms.h over the partner
// lists of gpu/SitePartnerTable.h. Included only from .cu files.
//
// A block copies its structure's site coordinates and the table's distinct pair coefficients into
// shared memory; thread t takes the table's chunks t, t + blockDim, ... (pieces of the sites'
// partner lists of like length, SitePartnerTable::chunks): a chunk sums the pair terms of its
// partners in list order (ascending) into shared memory, the energy of a pair from its lower site
// only; then thread t takes sites t, t + blockDim, ..., each adding its chunks' sums in chunk
// order. Every pair is evaluated twice (once from each site) instead of scattering with atomics.
// A warp whose chunks all lack Lennard-Jones (SiteChunk::coulombOnly: TIP4P's H and M sites) sums
// the Coulomb term alone, the same bits as the whole law, whose other terms are exact zeros there.
// The sites' energies are added by a fixed butterfly in each warp and then by thread 0 over the
// warps in order, so a structure's energy and gradient depend on its coordinates, the model and the
// block size alone (fixed at construction): the same bits whatever the batch size, the structure's
// position, the active mask and the other structures. Inactive structures return at once.
// gpu/SitePartnerTable.cpp siteTableEnergyGradient is the loop's CPU twin; the kernel forms r^-1
// with the device's reciprocal square root where the twin divides and takes a square root, so the
// two agree to rounding.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/SitePartnerTable.h"

namespace landscape {

struct BatchedSiteArgs {
  const double* d_x = nullptr;             ///< [batch x 3 sites]
  double* d_g = nullptr;                   ///< [batch x 3 sites], active rows written
  double* d_energy = nullptr;              ///< [batch], active entries written
  const std::uint8_t* d_active = nullptr;  ///< [batch] or nullptr (all active)
  const SitePartner* d_entries = nullptr;  ///< [widest x sites], SitePartnerTable's layout
  const SitePairCoefficients* d_coefficients = nullptr;  ///< [kinds]
  const SiteChunk* d_chunks = nullptr;                   ///< [chunks], SitePartnerTable::chunks
  const int* d_chunkOf = nullptr;  ///< [chunksPerSite x sites], SitePartnerTable::chunkOf
  int sites = 0;
  int kinds = 0;
  int chunks = 0;
  int chunksPerSite = 0;
  int threads = 128;      ///< block size: a multiple of 32, at most 1024
  std::size_t batch = 0;  ///< at most INT_MAX
};

/// Dynamic shared memory of a block: the coordinates (3 x sites doubles), the coefficients (3 x
/// kinds doubles), the warps' partial energies and the chunks' gradient sums (3 x chunks doubles).
std::size_t batchedSiteSharedBytes(int sites, int kinds, int chunks);

/// The block size for `chunks` chunks: the smallest multiple of 32 up to 256 that covers them (32
/// for (H2O)2's 20 chunks, 224 for (H2O)20's 200, 256 from 225 chunks).
int batchedSiteThreads(int chunks);

/// Raises the kernel's dynamic shared memory limit to `bytes` where it exceeds the default 48 KB;
/// throws std::invalid_argument naming the sites when the device cannot give it.
void prepareBatchedSiteKernel(std::size_t bytes, int sites);

/// Enqueues the kernel on `stream` without synchronising. Throws std::invalid_argument for a bad
/// argument, std::runtime_error when the launch fails.
void launchBatchedSites(const BatchedSiteArgs& args, cudaStream_t stream);

}  // namespace landscape
