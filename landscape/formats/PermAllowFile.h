#pragma once
// OPTIM's perm.allow file: the groups of interchangeable atoms of a molecule, over which minimum
// distances are minimised (landscape/geometry/Alignment.h, PermutationGroup). The format, as OPTIM's
// keywords.f reads it:
//
//   NGROUPS                                  first line: the number of groups
//   SIZE NSWAP                               per group: its number of atoms (>= 2) and of swap sets
//   A1 A2 ... ASIZE  S11 ... S1SIZE  ...     SIZE x (1 + NSWAP) atom indices, 1-based: the group's
//                                            atoms, then for each swap set the atoms that move
//                                            with A1 ... ASIZE (Fortran list-directed, so they may
//                                            continue on following lines)
//
// e.g. a carboxylate's two oxygens: "2 0" then "12 13"; two methyl carbons with their hydrogens:
// "2 3" then "5 9  6 10  7 11  8 12". Values may be separated by blanks or commas; blank lines are
// skipped. Stricter than OPTIM, which stops reading silently: every count must agree with what
// follows, indices must lie in 1..atoms, a group's atoms and swap-set atoms must all differ, and
// no atom may be permuted by two groups (a swap-set atom may be an atom of another group).
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/geometry/Alignment.h"

namespace landscape {

/// Reads perm.allow for a system of `atoms` atoms; the groups come back with 0-based indices, in
/// file order. Throws std::runtime_error "FILE:LINE: ..." saying what was expected and what was
/// found (bad or out-of-range index, overlapping groups, a count that disagrees with the indices
/// that follow, a truncated file, extra content after the last group).
std::vector<PermutationGroup> readPermAllow(const std::string& path, std::size_t atoms);

/// Writes groups (0-based) in the format above, one group's indices per line.
std::string formatPermAllow(const std::vector<PermutationGroup>& groups);

}  // namespace landscape
