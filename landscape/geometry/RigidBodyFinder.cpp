#include "landscape/geometry/RigidBodyFinder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "landscape/core/Require.h"

namespace landscape {

void RigidBodyFinderParams::check() const {
  require(std::isfinite(atomisticRadius) && atomisticRadius >= 0.0,
          "rigid-body finder: atomisticRadius must be >= 0 (Angstrom)");
  require(std::isfinite(largeBodyRadius) && largeBodyRadius >= 0.0,
          "rigid-body finder: largeBodyRadius must be >= 0 (Angstrom)");
  const bool site = !centreResidues.empty() || !centreAtoms.empty();
  require(site || (atomisticRadius == 0.0 && largeBodyRadius == 0.0),
          "rigid-body finder: atomisticRadius and largeBodyRadius need centre residues or atoms");
  require(largeBodyRadius == 0.0 || atomisticRadius <= largeBodyRadius,
          "rigid-body finder: atomisticRadius must not exceed largeBodyRadius");
}

namespace {

// Residue name without AMBER's terminal prefix (NALA, CPHE) and protonation variants folded.
std::string baseResidue(std::string label) {
  if (label.size() == 4 && (label[0] == 'N' || label[0] == 'C')) label = label.substr(1);
  if (label == "HID" || label == "HIE" || label == "HIP" || label == "HSD" || label == "HSE" ||
      label == "HSP")
    return "HIS";
  if (label == "ASH") return "ASP";
  if (label == "GLH") return "GLU";
  if (label == "CYX" || label == "CYM") return "CYS";
  if (label == "LYN") return "LYS";
  return label;
}

class Residues {
 public:
  explicit Residues(const AmberTopology& t) : m_t(t) {}
  std::size_t count() const { return m_t.residueLabels.size(); }
  std::string base(std::size_t r) const { return baseResidue(m_t.residueLabels[r]); }
  std::string label(std::size_t r) const { return m_t.residueLabels[r] + std::to_string(r + 1); }
  /// Atom index of `name` in residue r, or -1.
  long atom(std::size_t r, const std::string& name) const {
    const int end =
        r + 1 < count() ? m_t.residueFirstAtom[r + 1] : static_cast<int>(m_t.atomNames.size());
    for (int a = m_t.residueFirstAtom[r]; a < end; ++a)
      if (m_t.atomNames[static_cast<std::size_t>(a)] == name) return a;
    return -1;
  }
  /// The atoms of `names` present in residue r.
  std::vector<std::size_t> atoms(std::size_t r, const std::vector<std::string>& names) const {
    std::vector<std::size_t> out;
    for (const std::string& n : names)
      if (const long a = atom(r, n); a >= 0) out.push_back(static_cast<std::size_t>(a));
    return out;
  }

 private:
  const AmberTopology& m_t;
};

struct Candidate {
  std::vector<std::size_t> atoms;
  std::string description;
  int kind;  // 0 peptide, 1 aromatic, 2 sp2
};

void sideChainGroups(const Residues& res, std::size_t r, const RigidBodyFinderParams& p,
                     std::vector<Candidate>& out) {
  const std::string name = res.base(r);
  auto add = [&](std::vector<std::string> names, int kind, const std::string& what) {
    std::vector<std::size_t> atoms = res.atoms(r, names);
    if (atoms.size() >= 3) out.push_back({atoms, what + " " + res.label(r), kind});
  };
  if (p.aromaticRings) {
    if (name == "PHE")
      add({"CG", "CD1", "HD1", "CD2", "HD2", "CE1", "HE1", "CE2", "HE2", "CZ", "HZ"}, 1, "ring");
    if (name == "TYR")
      add({"CG", "CD1", "HD1", "CD2", "HD2", "CE1", "HE1", "CE2", "HE2", "CZ", "OH"}, 1, "ring");
    if (name == "TRP") {
      // Two bodies keep every body at <= 11 atoms, as in Mantell, Pitt and Wales, J. Chem. Theory
      // Comput. 2016, Table 4.
      add({"CD2", "CE2", "CE3", "HE3", "CZ3", "HZ3", "CH2", "HH2", "CZ2", "HZ2"}, 1, "benzene");
      add({"CG", "CD1", "HD1", "NE1", "HE1"}, 1, "pyrrole");
    }
    if (name == "HIS")
      add({"CG", "ND1", "HD1", "CD2", "HD2", "CE1", "HE1", "NE2", "HE2"}, 1, "imidazole");
  }
  if (p.sp2Centres) {
    if (name == "ARG")
      add({"NE", "HE", "CZ", "NH1", "HH11", "HH12", "NH2", "HH21", "HH22"}, 2, "guanidinium");
    if (name == "ASP") add({"CB", "CG", "OD1", "OD2", "HD2"}, 2, "carboxylate");
    if (name == "GLU") add({"CG", "CD", "OE1", "OE2", "HE2"}, 2, "carboxylate");
    if (name == "ASN") add({"CB", "CG", "OD1", "ND2", "HD21", "HD22"}, 2, "amide");
    if (name == "GLN") add({"CG", "CD", "OE1", "NE2", "HE21", "HE22"}, 2, "amide");
  }
}

long alphaCarbon(const Residues& res, std::size_t r) {
  const long ca = res.atom(r, "CA");
  return ca >= 0 ? ca : res.atom(r, "CH3");  // ACE and NME caps
}

// A candidate joins only when none of its atoms is claimed yet; it then claims them all.
bool claimIfFree(const std::vector<std::size_t>& atoms, std::vector<bool>& claimed) {
  for (std::size_t a : atoms)
    if (claimed[a]) return false;
  for (std::size_t a : atoms) claimed[a] = true;
  return true;
}

// C, O, N and H (CD for proline) of each peptide bond, with the alpha carbons that no side-chain
// group claimed.
void peptideGroups(const AmberTopology& topology, const Residues& res, std::vector<bool>& claimed,
                   std::vector<Candidate>& out) {
  const std::vector<std::vector<int>> neighbours = topology.bondedNeighbours();
  for (std::size_t r = 0; r + 1 < res.count(); ++r) {
    const long c = res.atom(r, "C"), o = res.atom(r, "O"), nn = res.atom(r + 1, "N");
    if (c < 0 || o < 0 || nn < 0) continue;
    const auto& nb = neighbours[static_cast<std::size_t>(c)];
    if (std::find(nb.begin(), nb.end(), static_cast<int>(nn)) == nb.end()) continue;
    std::vector<std::size_t> atoms = {static_cast<std::size_t>(c), static_cast<std::size_t>(o),
                                      static_cast<std::size_t>(nn)};
    const long h = res.atom(r + 1, res.base(r + 1) == "PRO" ? "CD" : "H");
    if (h >= 0) atoms.push_back(static_cast<std::size_t>(h));
    for (long ca : {alphaCarbon(res, r), alphaCarbon(res, r + 1)})
      if (ca >= 0 && !claimed[static_cast<std::size_t>(ca)])
        atoms.push_back(static_cast<std::size_t>(ca));
    if (!claimIfFree(atoms, claimed)) continue;
    out.push_back({atoms, "peptide " + res.label(r) + "-" + res.label(r + 1), 0});
  }
}

void terminalCarboxylates(const Residues& res, std::vector<bool>& claimed,
                          std::vector<Candidate>& out) {
  for (std::size_t r = 0; r < res.count(); ++r) {
    if (res.atom(r, "OXT") < 0) continue;
    std::vector<std::size_t> atoms = res.atoms(r, {"C", "O", "OXT"});
    if (atoms.size() != 3 || !claimIfFree(atoms, claimed)) continue;
    out.push_back({atoms, "C-terminus " + res.label(r), 2});
  }
}

// Every candidate group of the topology, in the order side chains, peptide bonds, C-termini.
std::vector<Candidate> candidateGroups(const AmberTopology& topology, const Residues& res,
                                       const RigidBodyFinderParams& params) {
  std::vector<Candidate> candidates;
  std::vector<bool> claimed(topology.atomNames.size(), false);
  for (std::size_t r = 0; r < res.count(); ++r) sideChainGroups(res, r, params, candidates);
  for (const Candidate& c : candidates)
    for (std::size_t a : c.atoms) claimed[a] = true;
  if (params.peptideBonds) peptideGroups(topology, res, claimed, candidates);
  if (params.sp2Centres) terminalCarboxylates(res, claimed, candidates);
  return candidates;
}

// The atoms of the centre residues and centre atoms (1-based in params).
std::vector<std::size_t> siteAtoms(const AmberTopology& topology, const Residues& res,
                                   const RigidBodyFinderParams& params) {
  const std::size_t n = topology.atomNames.size();
  std::vector<std::size_t> site;
  for (int r : params.centreResidues) {
    if (r < 1 || static_cast<std::size_t>(r) > res.count())
      throw std::invalid_argument("rigid-body finder: centre residue " + std::to_string(r) +
                                  " is out of range 1.." + std::to_string(res.count()));
    const int end = static_cast<std::size_t>(r) < res.count()
                        ? topology.residueFirstAtom[static_cast<std::size_t>(r)]
                        : static_cast<int>(n);
    for (int a = topology.residueFirstAtom[static_cast<std::size_t>(r - 1)]; a < end; ++a)
      site.push_back(static_cast<std::size_t>(a));
  }
  for (int a : params.centreAtoms) {
    if (a < 1 || static_cast<std::size_t>(a) > n)
      throw std::invalid_argument("rigid-body finder: centre atom " + std::to_string(a) +
                                  " is out of range 1.." + std::to_string(n));
    site.push_back(static_cast<std::size_t>(a - 1));
  }
  return site;
}

// Distances from the site (its nearest atom); infinite without a site.
class SiteDistance {
 public:
  SiteDistance(std::vector<std::size_t> site, const std::vector<double>& x)
      : m_site(std::move(site)), m_x(x) {}

  double of(const double* r) const {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t s : m_site) {
      double d2 = 0.0;
      for (int k = 0; k < 3; ++k) d2 += (r[k] - m_x[3 * s + k]) * (r[k] - m_x[3 * s + k]);
      best = std::min(best, d2);
    }
    return std::sqrt(best);
  }
  double ofAtom(std::size_t i) const {
    return m_site.empty() ? std::numeric_limits<double>::infinity() : of(&m_x[3 * i]);
  }
  // A local group is placed by its centre of geometry, so a thin shell between the two radii
  // still holds whole groups (Mantell et al. 2016, Table 5: a 1 A layer of local bodies).
  double ofGroup(const Candidate& c) const {
    if (m_site.empty()) return std::numeric_limits<double>::infinity();
    double centre[3] = {0.0, 0.0, 0.0};
    for (std::size_t a : c.atoms)
      for (int k = 0; k < 3; ++k) centre[k] += m_x[3 * a + k] / static_cast<double>(c.atoms.size());
    return of(centre);
  }

 private:
  std::vector<std::size_t> m_site;
  const std::vector<double>& m_x;
};

// Per atom: part of the large body (beyond largeBodyRadius; a group goes by its centre).
std::vector<bool> largeBodyAtoms(std::size_t n, const std::vector<Candidate>& candidates,
                                 const SiteDistance& distance,
                                 const RigidBodyFinderParams& params) {
  std::vector<bool> inLarge(n, false);
  if (params.largeBodyRadius <= 0.0) return inLarge;
  for (std::size_t i = 0; i < n; ++i) inLarge[i] = distance.ofAtom(i) > params.largeBodyRadius;
  for (const Candidate& c : candidates) {
    const bool beyond = distance.ofGroup(c) > params.largeBodyRadius;
    for (std::size_t a : c.atoms) inLarge[a] = beyond;
  }
  return inLarge;
}

void addLargeBody(const std::vector<bool>& inLarge, double radius, RigidBodyFinderResult& result) {
  std::vector<std::size_t> atoms;
  for (std::size_t i = 0; i < inLarge.size(); ++i)
    if (inLarge[i]) atoms.push_back(i);
  if (atoms.size() < 3) return;
  result.set.addBody(atoms);
  result.largeBodyAtoms = atoms.size();
  result.descriptions.push_back("large body beyond " + std::to_string(radius) + " A (" +
                                std::to_string(atoms.size()) + " atoms)");
}

}  // namespace

RigidBodyFinderResult findRigidBodies(const AmberTopology& topology, const std::vector<double>& x,
                                      const RigidBodyFinderParams& params) {
  params.check();
  const std::size_t n = topology.atomNames.size();
  if (x.size() != 3 * n)
    throw std::invalid_argument("rigid-body finder: coordinates hold " +
                                std::to_string(x.size() / 3) + " atoms, the topology " +
                                std::to_string(n));
  const Residues res(topology);
  std::vector<Candidate> candidates = candidateGroups(topology, res, params);
  const SiteDistance distance(siteAtoms(topology, res, params), x);
  const std::vector<bool> inLarge = largeBodyAtoms(n, candidates, distance, params);

  RigidBodyFinderResult result;
  result.set = RigidBodySet(n);
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.atoms.front() < b.atoms.front();
  });
  for (const Candidate& c : candidates) {
    if (inLarge[c.atoms.front()]) continue;
    if (params.atomisticRadius > 0.0 && distance.ofGroup(c) < params.atomisticRadius) continue;
    result.set.addBody(c.atoms);
    result.descriptions.push_back(c.description);
    (c.kind == 0 ? result.peptideBonds : c.kind == 1 ? result.aromaticRings : result.sp2Centres)++;
  }
  if (params.largeBodyRadius > 0.0) addLargeBody(inLarge, params.largeBodyRadius, result);
  return result;
}

}  // namespace landscape
