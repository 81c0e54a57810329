#pragma once
// Whether a database holds the same system as a run that would extend it: the same atom count,
// units and masses of its Hessian-derived fields, and, where both name one of landscape's own
// potentials, the same potential. A database is only ever extended with its own system; anything
// else is refused (docs/database.md, "One writer, no silent replacement"). No HDF5 here.
#include <string>

#include "landscape/network/Database.h"

namespace landscape {

/// The potential's identity in a DatabaseMetadata::potential string written by landscape
/// ("Lennard-Jones 38 atoms (cpu)" -> "Lennard-Jones 38 atoms"; the pair potentials' descriptions,
/// "Morse rho 6 13 atoms", "Lennard-Jones 80 atoms (64 A + 16 B), ... box 4.4 x 4.4 x 4.4", with
/// their species, cutoff and box; the backend in parentheses and a
/// rigid-body description after " with " are not part of it), or "" when the string does not name
/// one of landscape's potentials (an import's description, an empty string): then it is not
/// compared.
std::string potentialIdentity(const std::string& potential);

/// "" when a run with metadata `run` may extend a database whose header is `stored`; otherwise a
/// sentence naming the first field that differs and both values ("it holds 38-atom structures,
/// this run 13"). The Hessian masses are not compared: a reader that knows other masses drops and
/// recomputes those fields.
std::string databaseIncompatibility(const DatabaseMetadata& stored, const DatabaseMetadata& run);

}  // namespace landscape
