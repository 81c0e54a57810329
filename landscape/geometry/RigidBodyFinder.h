#pragma once
// Local rigid bodies for an AMBER protein, chosen as Mantell, Pitt and Wales (J. Chem. Theory
// Comput. 2016, section 3.2, Tables 4-5) chose them: peptide bonds, aromatic rings and other sp2
// centres, and optionally one large body of everything far from a chosen site (the
// factorised-superposition layout of Table 5).
//
//   peptide bond  C O (residue i) N H (i+1; CD for proline) and the flanking C-alpha atoms (CA, or
//                 CH3 of ACE/NME caps); a C-alpha already claimed by the previous peptide stays
//                 there, so bodies never overlap;
//   aromatic      PHE, TYR (ring + ring H + OH), TRP (benzene half, pyrrole half), HIS/HID/HIE/HIP;
//   sp2           ARG guanidinium (NE HE CZ NH1 NH2 + H), ASP/GLU carboxylates (with CB/CG),
//                 ASN/GLN amides, C-terminal carboxylate (C O OXT).
// Distances (Angstrom) are minimum distances to the centre set (residues and/or atoms), of an atom
// or, for a local group, of its centre of geometry: groups nearer than atomisticRadius stay
// atomistic, groups beyond largeBodyRadius join the large body whole, the rest are local bodies;
// atoms in no group join the large body when they are beyond largeBodyRadius.
#include <string>
#include <vector>

#include "potentials/AmberTopology.h"
#include "potentials/RigidBodySet.h"

namespace landscape {

struct RigidBodyFinderParams {
  bool peptideBonds = true;
  bool aromaticRings = true;
  bool sp2Centres = true;
  std::vector<int> centreResidues;  ///< 1-based residues defining the site (Table 5 layout)
  std::vector<int> centreAtoms;     ///< 1-based atoms defining the site
  /// Local groups whose centre is closer than this to the site stay atomistic (Angstrom; 0: none).
  double atomisticRadius = 0.0;
  /// Atoms farther than this from the site form one large body, with every local group whose
  /// centre is beyond it (Angstrom; 0: no large body).
  double largeBodyRadius = 0.0;

  /// Throws std::invalid_argument naming the bad field (radii need a centre set, radii >= 0,
  /// atomisticRadius <= largeBodyRadius when both are set).
  void check() const;
};

struct RigidBodyFinderResult {
  RigidBodySet set;
  int peptideBonds = 0, aromaticRings = 0, sp2Centres = 0;
  std::size_t largeBodyAtoms = 0;         ///< 0 when there is no large body
  std::vector<std::string> descriptions;  ///< one line per body, e.g. "peptide TYR3-ILE4"
};

/// Bodies for `topology` at coordinates x (3N, Angstrom). Throws std::invalid_argument for bad
/// parameters or residue/atom indices out of range.
RigidBodyFinderResult findRigidBodies(const AmberTopology& topology, const std::vector<double>& x,
                                      const RigidBodyFinderParams& params);

}  // namespace landscape
