#pragma once
// GMIN's `lowest` file: the saved minima as concatenated XYZ frames (docs/database.md). Per
// minimum, character for character as GMIN writes it (FORMAT statements in brackets):
//
//   line 1   the atom count, right-aligned in 12 columns           (list-directed integer)
//   line 2   "Energy of minimum " I6 "=" G20.10 " first found at step " I8 " after " I20
//            " function calls"
//   N lines  the atom label left-aligned in 2 columns, one blank, then x y z   (A2,1X,3F20.10)
//
// Energies and coordinates are in the potential's units (reduced units for Lennard-Jones).
// Both functions write and read whole files; writing is atomic (path + ".tmp", then rename).
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/network/StoredMinimum.h"

namespace landscape {

/// Atom label written when none is given. GMIN writes "LA" for Lennard-Jones atoms; some builds
/// (e.g. the wales-group LJ38 example output) write "SI" instead. Readers of `lowest` ignore it.
inline constexpr const char* kLowestDefaultAtomLabel = "LA";

/// The text of a `lowest` file for `minima`, numbered 1, 2, ... in the given order (GMIN sorts by
/// energy before writing; this function does not reorder). Every atom gets `atomLabel`, which must
/// be non-empty and contain no whitespace. A minimum with functionCalls < 0 (unknown) gets GMIN's
/// older energy line, which ends after the step. Throws std::invalid_argument when a minimum's
/// coordinate count is not a positive multiple of 3, or a coordinate fills its F20.10 field
/// (|x| >= 1e8 or so), which would leave no blank between the numbers.
std::string formatLowest(const std::vector<StoredMinimum>& minima,
                         const std::string& atomLabel = kLowestDefaultAtomLabel);

/// formatLowest with a label per atom (a mixture's species names, "A" and "B"): atomLabels holds
/// one non-empty label without whitespace per atom of every minimum; GMIN writes its labels
/// left-aligned in 2 columns, longer ones push the numbers right. Throws std::invalid_argument as
/// formatLowest does, and when a minimum has not atomLabels.size() atoms.
std::string formatLowestLabelled(const std::vector<StoredMinimum>& minima,
                                 const std::vector<std::string>& atomLabels);

/// Writes formatLowest(minima, atomLabel) to `path` atomically. Throws std::runtime_error naming
/// the file when it cannot be written.
void writeLowestFile(const std::string& path, const std::vector<StoredMinimum>& minima,
                     const std::string& atomLabel = kLowestDefaultAtomLabel);
/// Writes formatLowestLabelled(minima, atomLabels) to `path` atomically, as writeLowestFile.
void writeLowestFileLabelled(const std::string& path, const std::vector<StoredMinimum>& minima,
                             const std::vector<std::string>& atomLabels);

/// Parses a `lowest` file. Accepts GMIN's older energy line without "after ... function calls"
/// (functionCalls is then -1), Fortran exponents (1.0D-3, 0.1+100) and blank lines between
/// frames. When `atomLabels` is given it receives the labels of the first minimum's atoms. Throws
/// std::runtime_error with "path:line: " and what was expected when the text does not parse.
std::vector<StoredMinimum> readLowestFile(const std::string& path,
                                          std::vector<std::string>* atomLabels = nullptr);

namespace detail {
/// Fortran's Gw.d edit descriptor (F2008 10.7.5.2.2) as gfortran writes it: fixed notation
/// F(w-4).(d-s) followed by 4 blanks for 0.1 <= |x| < 10^d (s digits before the point), Ew.d
/// otherwise; NaN and Infinity spelt as gfortran spells them. Used for the energy in `lowest`.
std::string fortranG(double value, int width, int digits);
}  // namespace detail

}  // namespace landscape
