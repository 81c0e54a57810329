#pragma once
// The interacting site pairs of a site model (potentials/SiteModel.h) as the CUDA site kernels
// walk them (gpu/BatchedSiteKernels.cuh): for every site, its partners on other molecules whose
// pair has a non-zero combined C6, C12 or k q_i q_j, ascending, with the index of the pair's
// combined coefficients in a table of the distinct ones. Pairs that cannot interact (in TIP4P the
// oxygen carries no charge and only O-O has Lennard-Jones: 10 of a molecule pair's 16 site pairs
// remain) are never visited. Built once on the host per model; CUDA-free, so that the CPU twin of
// the kernel's loop (siteTableEnergyGradient) runs and is tested on every machine.
//
// Layout (coalesced across a warp of consecutive sites): entry k of site i at k * sites + i, for
// k < count[i]; widest = max count. The coefficients of a pair are those the CPU reference forms
// with the lower site first (potentials/SiteTerms.h sitePair: sqrt(c6_i c6_j), sqrt(c12_i c12_j),
// (k q_i) q_j), so each pair term has the CPU's inputs bit for bit.
#include <cstddef>
#include <vector>

#include "potentials/SiteModel.h"

namespace landscape {

struct SitePairCoefficients {
  double c6 = 0.0, c12 = 0.0, kqq = 0.0;  ///< combined, SiteTerms.h sitePairCombined's arguments
};

struct alignas(8) SitePartner {
  int site = 0;  ///< the partner site
  int kind = 0;  ///< index into SitePartnerTable::coefficients
};

/// Entries [begin, end) of site `site`'s partner list: the work of one kernel thread.
struct SiteChunk {
  int site = 0;
  int begin = 0;
  int end = 0;
  /// 1 when every entry's pair has c6 = c12 = 0 (TIP4P's H and M sites): a warp whose chunks all
  /// are skips the Lennard-Jones arithmetic, whose terms would be exact zeros.
  int coulombOnly = 0;
};

struct SitePartnerTable {
  int sites = 0;
  int widest = 0;                    ///< the largest partner count
  std::vector<int> count;            ///< partners of each site
  std::vector<SitePartner> entries;  ///< [widest x sites], entry k of site i at k * sites + i
  std::vector<SitePairCoefficients> coefficients;  ///< the distinct combined coefficients
  /// The partner lists cut into chunks of at most chunkLength entries, so that the kernel's threads
  /// (a chunk each) have work of like length: TIP4P's oxygen has n - 1 partners and each H and M
  /// 3 (n - 1), so with a thread per site two thirds of the oxygens' loop slots idled. Chunk-major:
  /// chunk 0 of every site in site order (chunk i is site i's first, empty for a site without
  /// partners), then chunk 1 of every site that has one, and so on, so that a warp's threads read
  /// neighbouring entries of the same row k.
  int chunkLength = 0;            ///< the shortest non-empty list, at least kMinimumSiteChunk
  int chunksPerSite = 0;          ///< the most chunks of one site
  std::vector<SiteChunk> chunks;  ///< in the order above
  std::vector<int> chunkOf;       ///< [chunksPerSite x sites]: chunk c of site i, or -1
  /// Pairs i < j listed (each appears in both sites' lists).
  std::size_t pairCount() const;
};

/// The shortest chunk length a table uses (shorter lists are not cut finer).
constexpr int kMinimumSiteChunk = 8;

/// The table of a checked model (SiteModel::check is called; throws its std::invalid_argument, and
/// std::invalid_argument when the sites or entries overflow an int).
SitePartnerTable buildSitePartnerTable(const SiteModel& model);

/// CPU twin of the kernel's loops (gpu/BatchedSiteKernels.cu), one structure of 3 x sites
/// Cartesians: each chunk sums its partners in list order, the energy counting each pair from its
/// lower site; the gradient of site i is its chunks' sums added in chunk order. Returns the energy
/// (summed chunk after chunk); g gets 3 x sites entries.
double siteTableEnergyGradient(const SitePartnerTable& table, const double* x, double* g);

}  // namespace landscape
