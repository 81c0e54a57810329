#pragma once
// Basin-hopping moves and checks for AMBER proteins (GMIN's GROUPROTATION and its AMBER checks):
//  - side-chain groups found from the topology: every bond between two heavy atoms of one residue
//    that is not in a ring and not on the backbone, with at least one heavy atom beyond it; the
//    group is the atoms on the side-chain end of the bond (rotated about the bond axis);
//  - chirality: the handedness of every stereocentre (an sp3 atom with four neighbours, at most one
//    hydrogen and no two equivalent methyl groups) must not change;
//  - peptide bonds: the cis/trans state of every omega dihedral (X-C-N-Y across consecutive
//    residues) must not change.
// Units: Angstrom, radians.
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "potentials/AmberTopology.h"

namespace landscape {

struct RotatableGroup {
  int axisFrom;             ///< atom on the backbone side of the bond (stays)
  int axisTo;               ///< atom on the side-chain side (on the axis, stays)
  std::vector<int> atoms;   ///< atoms rotated about axisFrom -> axisTo
  int residue;
};

/// The rotatable side-chain groups of a topology (see the header comment).
std::vector<RotatableGroup> findSideChainGroups(const AmberTopology& topology);

/// Rotates each group with probability `probability` by an angle uniform in
/// [-maxAngle, maxAngle] radians about its bond. Returns the number of groups rotated.
int rotateGroups(const std::vector<RotatableGroup>& groups, std::vector<double>& x,
                 double probability, double maxAngle, Random& random);

/// Stereochemistry of a reference structure, for rejecting minima that changed it.
class StereoChecks {
 public:
  StereoChecks(const AmberTopology& topology, const std::vector<double>& reference);

  std::size_t stereocentreCount() const { return m_centres.size(); }
  std::size_t peptideBondCount() const { return m_peptides.size(); }
  /// Empty when x keeps every stereocentre's handedness and every omega's cis/trans state, else a
  /// sentence naming the first change ("chirality of CA 12 (ALA 3) inverted").
  std::string violation(const std::vector<double>& x) const;

 private:
  struct Centre {
    int atom, a, b, c;  // the centre and its first three neighbours (by index)
    bool sign;
  };
  struct Peptide {
    int x, c, n, y;  // X-C-N-Y dihedral across a peptide bond
    bool trans;
  };
  const AmberTopology& m_topology;
  std::vector<Centre> m_centres;
  std::vector<Peptide> m_peptides;
};

}  // namespace landscape
