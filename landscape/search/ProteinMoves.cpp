#include "landscape/search/ProteinMoves.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace landscape {

namespace {

bool isBackboneName(const std::string& name) {
  static const std::set<std::string> backbone = {"N", "C", "O", "OXT", "H", "H1", "H2", "H3"};
  return backbone.count(name) > 0;
}

// Atoms reachable from `start` without crossing the bond start-`blocked`; `limit` atoms at most.
std::vector<int> sideOf(const std::vector<std::vector<int>>& neighbours, int start, int blocked,
                        std::size_t limit, bool& reachedBlocked) {
  std::vector<int> seen = {start}, stack = {start};
  std::vector<char> visited(neighbours.size(), 0);
  visited[start] = 1;
  reachedBlocked = false;
  while (!stack.empty() && seen.size() <= limit) {
    const int a = stack.back();
    stack.pop_back();
    for (int b : neighbours[a]) {
      if (a == start && b == blocked) continue;
      if (b == blocked) {
        reachedBlocked = true;  // a ring through the bond
        continue;
      }
      if (!visited[b]) {
        visited[b] = 1;
        seen.push_back(b);
        stack.push_back(b);
      }
    }
  }
  return seen;
}

struct Vec {
  double x, y, z;
};
Vec at(const std::vector<double>& x, int i) { return {x[3 * i], x[3 * i + 1], x[3 * i + 2]}; }
Vec sub(Vec a, Vec b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec cross(Vec a, Vec b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

bool tripleSign(const std::vector<double>& x, int c, int a, int b, int d) {
  const Vec o = at(x, c);
  return dot(sub(at(x, a), o), cross(sub(at(x, b), o), sub(at(x, d), o))) > 0.0;
}

// cos of the dihedral a-b-c-d; < 0 means trans.
double cosDihedral(const std::vector<double>& x, int a, int b, int c, int d) {
  const Vec b1 = sub(at(x, b), at(x, a)), b2 = sub(at(x, c), at(x, b)), b3 = sub(at(x, d), at(x, c));
  const Vec n1 = cross(b1, b2), n2 = cross(b2, b3);
  return dot(n1, n2) / std::sqrt(dot(n1, n1) * dot(n2, n2));
}

std::string atomLabel(const AmberTopology& t, int atom) {
  const int r = t.residueOfAtom[atom];
  return t.atomNames[atom] + " " + std::to_string(atom + 1) + " (" + t.residueLabels[r] + " " +
         std::to_string(r + 1) + ")";
}

}  // namespace

std::vector<RotatableGroup> findSideChainGroups(const AmberTopology& t) {
  const std::vector<std::vector<int>> nb = t.bondedNeighbours();
  std::vector<RotatableGroup> groups;
  for (const AmberBond& bond : t.bonds) {
    if (t.isHydrogen(bond.i) || t.isHydrogen(bond.j)) continue;
    const int r = t.residueOfAtom[bond.i];
    if (t.residueOfAtom[bond.j] != r) continue;
    if (isBackboneName(t.atomNames[bond.i]) || isBackboneName(t.atomNames[bond.j])) continue;
    const std::size_t residueSize = t.residueFirstAtom[r + 1] - t.residueFirstAtom[r];
    // The moving side is the one that stays inside the residue and does not hold CA.
    for (const auto& [from, to] : {std::pair<int, int>{bond.i, bond.j}, {bond.j, bond.i}}) {
      bool ring = false;
      std::vector<int> side = sideOf(nb, to, from, residueSize, ring);
      if (ring) break;  // the bond is in a ring: not rotatable
      const bool inside = side.size() <= residueSize &&
                          std::all_of(side.begin(), side.end(),
                                      [&](int a) { return t.residueOfAtom[a] == r; });
      const bool holdsCa = std::any_of(side.begin(), side.end(),
                                       [&](int a) { return t.atomNames[a] == "CA"; });
      if (!inside || holdsCa) continue;
      side.erase(side.begin());  // `to` lies on the axis
      const bool heavy = std::any_of(side.begin(), side.end(),
                                     [&](int a) { return !t.isHydrogen(a); });
      if (heavy) {
        std::sort(side.begin(), side.end());
        groups.push_back({from, to, side, r});
      }
      break;
    }
  }
  return groups;
}

int rotateGroups(const std::vector<RotatableGroup>& groups, std::vector<double>& x,
                 double probability, double maxAngle, Random& random) {
  int rotated = 0;
  for (const RotatableGroup& g : groups) {
    if (random.uniform() >= probability) continue;
    const double angle = maxAngle * random.symmetric();
    const Vec o = at(x, g.axisTo);
    Vec k = sub(o, at(x, g.axisFrom));
    const double len = std::sqrt(dot(k, k));
    k = {k.x / len, k.y / len, k.z / len};
    const double c = std::cos(angle), s = std::sin(angle);
    for (int a : g.atoms) {  // Rodrigues' rotation about the unit axis k through o
      const Vec v = sub(at(x, a), o);
      const Vec kxv = cross(k, v);
      const double kv = dot(k, v);
      x[3 * a] = o.x + v.x * c + kxv.x * s + k.x * kv * (1 - c);
      x[3 * a + 1] = o.y + v.y * c + kxv.y * s + k.y * kv * (1 - c);
      x[3 * a + 2] = o.z + v.z * c + kxv.z * s + k.z * kv * (1 - c);
    }
    ++rotated;
  }
  return rotated;
}

StereoChecks::StereoChecks(const AmberTopology& t, const std::vector<double>& reference)
    : m_topology(t) {
  const std::vector<std::vector<int>> nb = t.bondedNeighbours();
  auto hydrogens = [&](int a) {
    return static_cast<int>(std::count_if(nb[a].begin(), nb[a].end(),
                                          [&](int b) { return t.isHydrogen(b); }));
  };
  for (int a = 0; a < t.atomCount; ++a) {
    if (nb[a].size() != 4 || t.isHydrogen(a) || hydrogens(a) > 1) continue;
    // Two equivalent methyls (Val CB, Leu CG) make no stereocentre: swapping them is no inversion.
    const int methyls = static_cast<int>(std::count_if(nb[a].begin(), nb[a].end(), [&](int b) {
      return t.atomicNumbers[b] == 6 && nb[b].size() == 4 && hydrogens(b) == 3;
    }));
    if (methyls >= 2) continue;
    m_centres.push_back({a, nb[a][0], nb[a][1], nb[a][2], false});
    Centre& c = m_centres.back();
    c.sign = tripleSign(reference, c.atom, c.a, c.b, c.c);
  }
  for (const AmberBond& bond : t.bonds) {
    int c = bond.i, n = bond.j;
    if (t.atomNames[c] != "C") std::swap(c, n);
    if (t.atomNames[c] != "C" || t.atomNames[n] != "N") continue;
    if (t.residueOfAtom[n] != t.residueOfAtom[c] + 1) continue;
    int xAtom = -1, yAtom = -1;
    for (int b : nb[c])
      if (b != n && t.atomicNumbers[b] == 6) xAtom = b;
    for (int b : nb[n])
      if (b != c && t.atomicNumbers[b] == 6 && (yAtom < 0 || t.atomNames[b] == "CA")) yAtom = b;
    if (xAtom < 0 || yAtom < 0) continue;
    m_peptides.push_back({xAtom, c, n, yAtom, cosDihedral(reference, xAtom, c, n, yAtom) < 0.0});
  }
}

std::string StereoChecks::violation(const std::vector<double>& x) const {
  for (const Centre& c : m_centres)
    if (tripleSign(x, c.atom, c.a, c.b, c.c) != c.sign)
      return "chirality of " + atomLabel(m_topology, c.atom) + " inverted";
  for (const Peptide& p : m_peptides)
    if ((cosDihedral(x, p.x, p.c, p.n, p.y) < 0.0) != p.trans)
      return std::string("peptide bond ") + atomLabel(m_topology, p.c) + " - " +
             atomLabel(m_topology, p.n) + " turned " + (p.trans ? "cis" : "trans");
  return {};
}

}  // namespace landscape
