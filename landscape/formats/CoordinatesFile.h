#pragma once
// Cartesian coordinates on disk: XYZ and GMIN's bare `coords` file. Lengths are in the potential's
// length unit (reduced units sigma for Lennard-Jones; Angstrom for AMBER/SOP); the files carry
// no unit of their own.
//
// The number syntax shared by GMIN's text files (coords, data, odata), Fortran list-directed reals
// where the exponent letter may be D as well as E (5.0D-3), is parseFortranReal and
// parseFortranInteger of landscape/core/InputChecks.h, which this header includes for its users.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "landscape/core/InputChecks.h"

namespace landscape {

/// Reads the coordinates of one structure, as a flat x1 y1 z1 x2 ... array. Two formats are
/// accepted and told apart by the first line:
///   XYZ:   line 1 the atom count, line 2 a comment, then one `label x y z` line per atom;
///   GMIN:  `coords`, three numbers per line, one atom per line (no header).
/// Blank lines may follow the last atom. Fortran D exponents are accepted (1.5D-2).
/// Throws std::runtime_error "FILE:LINE: expected ..., found ..." on an unreadable or empty file,
/// a line with the wrong number of fields, a token that is not a number, a non-finite number, or
/// an XYZ atom count that disagrees with the atom lines. When `labels` is given it receives the
/// XYZ file's first column, one label per atom (species names of a binary mixture, checked by the
/// programs), and is left empty for a GMIN coords file, which has none.
std::vector<double> readCoordinates(const std::string& path,
                                    std::vector<std::string>* labels = nullptr);

/// Writes an XYZ file: the atom count, the comment (newlines replaced by spaces), then one
/// `label x y z` line per atom with 15 decimals. Throws std::invalid_argument when x.size() is
/// not a multiple of 3 or a coordinate is not finite, std::runtime_error when the file cannot be
/// written.
void writeXyz(const std::string& path, const std::vector<double>& x, const std::string& comment,
              const std::string& label = "LA");

}  // namespace landscape
