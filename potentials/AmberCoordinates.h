#pragma once
// AMBER coordinate files: the ASCII inpcrd/rst7 restart (title line; atom count and optional
// time; coordinates in 6F12.7; optionally velocities in 6F12.7; optionally a box line a b c alpha
// beta gamma) and, for output, rst7 and PDB writers.
//
// Units: coordinates and box lengths in Angstrom, box angles in degrees, time in ps, velocities in
// AMBER's internal unit Angstrom / (1/20.455 ps) exactly as stored in the file.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "potentials/AmberTopology.h"

namespace landscape {

struct AmberCoordinates {
  std::string path;   ///< file it was read from (for messages)
  std::string title;  ///< first line, trailing blanks removed
  double time = 0.0;  ///< ps; 0 when the file gives none
  bool hasTime = false;
  std::vector<double> positions;   ///< x1 y1 z1 x2 ..., Angstrom
  std::vector<double> velocities;  ///< same layout, AMBER velocity unit; empty when absent
  bool hasBox = false;
  std::array<double, 6> box{};  ///< a, b, c (Angstrom), alpha, beta, gamma (degrees)

  std::size_t atomCount() const { return positions.size() / 3; }
};

/// Reads an inpcrd/rst7. Lines after the coordinates are told apart by their number: none; one
/// box line; ceil(3N/6) velocity lines; or velocities and then a box line (for N <= 2, where one
/// line could be either, a single line is the box). Blank lines at the end are ignored. Fields are
/// read in the fixed 12-character columns of 6F12.7; a line that does not split into such columns
/// is read as blank-separated numbers. Throws std::runtime_error "FILE:LINE: ..." naming what was
/// expected: a missing or malformed atom count, too few lines (truncated file), a field that is
/// not a number, a NaN or infinite coordinate (naming the atom), or unexpected extra lines.
AmberCoordinates readAmberCoordinates(const std::string& path);

/// readAmberCoordinates(path), then checks that the file has topology.atomCount atoms; otherwise
/// throws std::runtime_error naming both files and both counts.
AmberCoordinates readAmberCoordinates(const std::string& path, const AmberTopology& topology);

/// Writes an ASCII rst7 (sander's restrt layout): the title, the atom count (I5, or I6 beyond
/// 99999 atoms) and the time (E15.7), then coordinates in 6F12.7. The file is written beside path
/// and renamed onto it, so readers never see a partial file. Throws std::invalid_argument when
/// x.size() is not a multiple of 3 or a coordinate is not finite or does not fit F12.7
/// (-999.9999999 .. 9999.9999999), std::runtime_error when the file cannot be written.
void writeAmberRestart(const std::string& path, const std::vector<double>& x,
                       const std::string& title, double time = 0.0);

/// Writes a PDB file of the topology's atoms at x (Angstrom): optional REMARK lines (one per line
/// of remark), ATOM records with AMBER atom and residue names, residue numbers from 1, element
/// symbols from the atomic numbers, then TER and END. Written beside path and renamed onto it.
/// Throws std::invalid_argument when x does not have 3 x topology.atomCount finite entries or a
/// coordinate does not fit the PDB's F8.3 columns, std::runtime_error when the file cannot be
/// written.
void writePdb(const std::string& path, const AmberTopology& topology, const std::vector<double>& x,
              const std::string& remark = "");

}  // namespace landscape
