#include "gpu/SitePartnerTable.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "potentials/SiteTerms.h"

namespace landscape {

std::size_t SitePartnerTable::pairCount() const {
  std::size_t total = 0;
  for (int c : count) total += static_cast<std::size_t>(c);
  return total / 2;
}

namespace {

// Exact (bitwise) ordering of coefficient triples: distinct roundings stay distinct kinds.
struct Bits {
  unsigned long long c6, c12, kqq;
  bool operator<(const Bits& o) const {
    return std::tie(c6, c12, kqq) < std::tie(o.c6, o.c12, o.kqq);
  }
};

unsigned long long bitsOf(double v) {
  unsigned long long u = 0;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

}  // namespace

SitePartnerTable buildSitePartnerTable(const SiteModel& model) {
  model.check();
  const std::size_t n = model.siteCount();
  if (n > static_cast<std::size_t>(INT_MAX / 4))
    throw std::invalid_argument("site partner table: too many sites (" + std::to_string(n) + ")");
  SitePartnerTable t;
  t.sites = static_cast<int>(n);
  t.count.assign(n, 0);
  std::vector<std::vector<SitePartner>> lists(n);
  std::map<Bits, int> kinds;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (model.molecule[i] == model.molecule[j]) continue;
      const std::size_t lo = i < j ? i : j, hi = i < j ? j : i;
      // As SiteTerms.h sitePair forms them for the pair (lo, hi).
      SitePairCoefficients c;
      c.c6 = std::sqrt(model.c6[lo] * model.c6[hi]);
      c.c12 = std::sqrt(model.c12[lo] * model.c12[hi]);
      c.kqq = model.coulomb * model.charge[lo] * model.charge[hi];
      if (c.c6 == 0.0 && c.c12 == 0.0 && c.kqq == 0.0) continue;
      const Bits key{bitsOf(c.c6), bitsOf(c.c12), bitsOf(c.kqq)};
      auto found = kinds.find(key);
      if (found == kinds.end()) {
        found = kinds.emplace(key, static_cast<int>(t.coefficients.size())).first;
        t.coefficients.push_back(c);
      }
      lists[i].push_back({static_cast<int>(j), found->second});
    }
  std::size_t widest = 0;
  for (const auto& l : lists) widest = l.size() > widest ? l.size() : widest;
  if (widest * n > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("site partner table: " + std::to_string(widest * n) +
                                " entries overflow an int");
  t.widest = static_cast<int>(widest);
  t.entries.assign(widest * n, SitePartner{});
  for (std::size_t i = 0; i < n; ++i) {
    t.count[i] = static_cast<int>(lists[i].size());
    for (std::size_t k = 0; k < lists[i].size(); ++k) t.entries[k * n + i] = lists[i][k];
  }
  int shortest = t.widest;
  for (int c : t.count)
    if (c > 0 && c < shortest) shortest = c;
  t.chunkLength = std::max(shortest, kMinimumSiteChunk);
  t.chunksPerSite = std::max(1, (t.widest + t.chunkLength - 1) / t.chunkLength);
  t.chunkOf.assign(static_cast<std::size_t>(t.chunksPerSite) * n, -1);
  for (int c = 0; c < t.chunksPerSite; ++c)
    for (std::size_t i = 0; i < n; ++i) {
      const int begin = c * t.chunkLength;
      if (c > 0 && begin >= t.count[i]) continue;
      t.chunkOf[static_cast<std::size_t>(c) * n + i] = static_cast<int>(t.chunks.size());
      SiteChunk chunk{static_cast<int>(i), begin, std::min(t.count[i], begin + t.chunkLength), 1};
      for (int k = chunk.begin; k < chunk.end; ++k) {
        const SitePairCoefficients& cf = t.coefficients[static_cast<std::size_t>(
            t.entries[static_cast<std::size_t>(k) * n + i].kind)];
        if (cf.c6 != 0.0 || cf.c12 != 0.0) chunk.coulombOnly = 0;
      }
      t.chunks.push_back(chunk);
    }
  return t;
}

double siteTableEnergyGradient(const SitePartnerTable& t, const double* x, double* g) {
  const std::size_t n = static_cast<std::size_t>(t.sites);
  double energy = 0.0;
  std::vector<double> partial(3 * t.chunks.size());
  for (std::size_t c = 0; c < t.chunks.size(); ++c) {
    const SiteChunk& chunk = t.chunks[c];
    const std::size_t i = static_cast<std::size_t>(chunk.site);
    double gx = 0.0, gy = 0.0, gz = 0.0;
    for (int k = chunk.begin; k < chunk.end; ++k) {
      const SitePartner p = t.entries[static_cast<std::size_t>(k) * n + i];
      const std::size_t j = static_cast<std::size_t>(p.site);
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                   dz = x[3 * i + 2] - x[3 * j + 2];
      const SitePairCoefficients& cf = t.coefficients[static_cast<std::size_t>(p.kind)];
      const SitePairTerm term =
          sitePairCombined(dx * dx + dy * dy + dz * dz, cf.c6, cf.c12, cf.kqq);
      if (j > i) energy += term.energy;
      gx += term.dEdrOverR * dx;
      gy += term.dEdrOverR * dy;
      gz += term.dEdrOverR * dz;
    }
    partial[3 * c] = gx;
    partial[3 * c + 1] = gy;
    partial[3 * c + 2] = gz;
  }
  for (std::size_t i = 0; i < n; ++i) {
    double sum[3] = {partial[3 * i], partial[3 * i + 1], partial[3 * i + 2]};
    for (int c = 1; c < t.chunksPerSite; ++c) {
      const int chunk = t.chunkOf[static_cast<std::size_t>(c) * n + i];
      if (chunk < 0) break;
      for (int d = 0; d < 3; ++d) sum[d] += partial[3 * static_cast<std::size_t>(chunk) + d];
    }
    for (int d = 0; d < 3; ++d) g[3 * i + d] = sum[d];
  }
  return energy;
}

}  // namespace landscape
