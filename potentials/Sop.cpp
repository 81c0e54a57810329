#include "potentials/Sop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "potentials/SopTerms.h"

namespace landscape {

Sop::Sop(SopTopology topology) : m_topology(std::move(topology)) {
  m_topology.params.check();
  const std::size_t n = m_topology.beadCount();
  if (n < 1) throw std::invalid_argument("Sop: the topology has no beads");
  m_excluded.resize(n);
  for (const SopBond& b : m_topology.bonds) {
    m_excluded[b.i].push_back(b.j);
    m_excluded[b.j].push_back(b.i);
  }
  for (const SopContact& c : m_topology.contacts) {
    m_excluded[c.i].push_back(c.j);
    m_excluded[c.j].push_back(c.i);
  }
  for (auto& e : m_excluded) std::sort(e.begin(), e.end());
}

std::string Sop::name() const {
  return "SOP " + std::to_string(m_topology.beadCount()) + " beads, " +
         std::to_string(m_topology.chainCount()) + " chains, " +
         std::to_string(m_topology.contacts.size()) + " native contacts (cpu)";
}

bool Sop::excluded(int i, int j) const {
  const auto& e = m_excluded[i];
  return std::binary_search(e.begin(), e.end(), j);
}

std::vector<std::pair<int, int>> Sop::repulsivePairs(const double* x, double cutoff,
                                                     bool allPairs) const {
  const int n = static_cast<int>(m_topology.beadCount());
  const double c2 = cutoff * cutoff;
  std::vector<std::pair<int, int>> pairs;
  auto consider = [&](int i, int j) {
    const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1],
                 dz = x[3 * i + 2] - x[3 * j + 2];
    if (dx * dx + dy * dy + dz * dz < c2 && !excluded(i, j)) pairs.emplace_back(i, j);
  };
  if (allPairs || n < 256) {  // below ~256 beads the double loop is cheaper than cells
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) consider(i, j);
    return pairs;
  }
  // Cell list over the bounding box with cells at least `cutoff` wide; at most ~8 cells per bead.
  double lo[3], hi[3];
  for (int c = 0; c < 3; ++c) {
    lo[c] = std::numeric_limits<double>::max();
    hi[c] = std::numeric_limits<double>::lowest();
  }
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) {
      if (!std::isfinite(x[3 * i + c]))
        throw std::invalid_argument("Sop: coordinate " + std::to_string(3 * i + c) +
                                    " is not finite");
      lo[c] = std::min(lo[c], x[3 * i + c]);
      hi[c] = std::max(hi[c], x[3 * i + c]);
    }
  for (int c = 0; c < 3; ++c)
    if (hi[c] - lo[c] > 1e7 * cutoff)
      throw std::runtime_error("Sop: the structure spans " + std::to_string(hi[c] - lo[c]) +
                               " A; the coordinates have blown up (time step too long?)");
  double cell = cutoff;
  std::array<long, 3> dims{};
  for (;;) {
    double total = 1;  // in floating point: 1e7 cells per axis would overflow a long
    for (int c = 0; c < 3; ++c) {
      dims[c] = std::max(1L, static_cast<long>((hi[c] - lo[c]) / cell) + 1);
      total *= static_cast<double>(dims[c]);
    }
    if (total <= 8.0 * n + 64) break;
    cell *= 1.5;
  }
  const long cells = dims[0] * dims[1] * dims[2];
  std::vector<int> head(cells, -1), next(n, -1), cellOf(n);
  std::array<long, 3> coord{};
  auto cellCoords = [&](int i, std::array<long, 3>& cc) {
    for (int c = 0; c < 3; ++c)
      cc[c] = std::min(dims[c] - 1, static_cast<long>((x[3 * i + c] - lo[c]) / cell));
  };
  for (int i = n - 1; i >= 0; --i) {  // reverse insertion keeps each cell in increasing order
    cellCoords(i, coord);
    const long id = (coord[2] * dims[1] + coord[1]) * dims[0] + coord[0];
    cellOf[i] = static_cast<int>(id);
    next[i] = head[id];
    head[id] = i;
  }
  for (int i = 0; i < n; ++i) {
    cellCoords(i, coord);
    for (long dz = -1; dz <= 1; ++dz)
      for (long dy = -1; dy <= 1; ++dy)
        for (long dx = -1; dx <= 1; ++dx) {
          const long cx = coord[0] + dx, cy = coord[1] + dy, cz = coord[2] + dz;
          if (cx < 0 || cy < 0 || cz < 0 || cx >= dims[0] || cy >= dims[1] || cz >= dims[2])
            continue;
          for (int j = head[(cz * dims[1] + cy) * dims[0] + cx]; j >= 0; j = next[j])
            if (j > i) consider(i, j);
        }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

double Sop::evaluate(const double* x, double* g, double components[3], double* atomEnergies) {
  const SopParams& p = m_topology.params;
  if (g) std::fill(g, g + dimension(), 0.0);
  if (atomEnergies) std::fill(atomEnergies, atomEnergies + m_topology.beadCount(), 0.0);
  auto apply = [&](int i, int j, const SopTerm<double>& t, const double d[3]) {
    if (atomEnergies) {
      atomEnergies[i] += t.energy;
      atomEnergies[j] += t.energy;
    }
    if (!g) return;
    for (int c = 0; c < 3; ++c) {
      g[3 * i + c] += t.dEdrOverR * d[c];
      g[3 * j + c] -= t.dEdrOverR * d[c];
    }
  };
  auto delta = [&](int i, int j, double d[3]) {
    for (int c = 0; c < 3; ++c) d[c] = x[3 * i + c] - x[3 * j + c];
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  };
  double d[3];
  components[0] = components[1] = components[2] = 0.0;
  const double r0sq = p.feneR0 * p.feneR0;
  for (const SopBond& b : m_topology.bonds) {
    const SopTerm<double> t = sopFene(delta(b.i, b.j, d), b.r0, p.feneK, r0sq);
    components[0] += t.energy;
    apply(b.i, b.j, t, d);
  }
  for (const SopContact& c : m_topology.contacts) {
    const SopTerm<double> t = sopNative(delta(c.i, c.j, d), c.r0 * c.r0, p.nativeEpsilon);
    components[1] += t.energy;
    apply(c.i, c.j, t, d);
  }
  const SopRepulsion<double> rep =
      makeSopRepulsion<double>(p.repulsiveEpsilon, p.sigma, p.repulsiveCutoff);
  for (const auto& [i, j] : repulsivePairs(x, p.repulsiveCutoff, m_allPairs)) {
    const SopTerm<double> t = sopRepulsive(delta(i, j, d), rep);
    components[2] += t.energy;
    apply(i, j, t, d);
  }
  return components[0] + components[1] + components[2];
}

double Sop::energy(const double* x) {
  double c[3];
  return evaluate(x, nullptr, c);
}

double Sop::energyGradient(const double* x, double* g) {
  double c[3];
  return evaluate(x, g, c);
}

bool Sop::perAtomEnergies(const double* x, double* atomEnergies) {
  double c[3];
  evaluate(x, nullptr, c, atomEnergies);
  return true;
}

std::vector<EnergyComponent> Sop::energyComponents(const double* x) {
  double c[3];
  evaluate(x, nullptr, c);
  return {{"FENE", c[0]}, {"NATIVE", c[1]}, {"REPULSIVE", c[2]}};
}

}  // namespace landscape
