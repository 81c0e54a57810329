#pragma once
// Settings of GMIN's symmetry-adapted basin-hopping moves (Oakley, Johnston and Wales, Phys. Chem.
// Chem. Phys. 15, 3965 (2013)): SYMMETRISE moves outer atoms into the vacant sites of the cluster's
// most symmetric core (CoreSymmetryCompletion.h); SYMMETRISECSM quenches the cluster averaged with
// its image under inversion (CsmSymmetrisation.h). GMIN's keyword argument that sets each field is
// given in brackets; the defaults are GMIN's.
#include <string>

#include "landscape/geometry/CoreSymmetryCompletion.h"

namespace landscape {

struct SymmetrisationParams {
  enum class Scheme {
    Off,
    CoreCompletion,  ///< SYMMETRISE
    Csm,             ///< SYMMETRISECSM
  };
  Scheme scheme = Scheme::Off;
  /// [1st] quenches between symmetrisation attempts (GMIN's NSYMINTERVAL); SYMMETRISE only tries
  /// a Markov minimum that changed since its last attempt.
  int interval = 10;
  CoreSymmetryParams core;  ///< SYMMETRISE: SYMTOL1-5, NSYMQMAX, DISTFAC
  double matrixDifference = 0.1;  ///< SYMMETRISE [9th] MATDIFF: read, not used (GMIN's own
                                  ///< comment: "appears to have little effect now")
  std::string csmGroup = "CI";    ///< SYMMETRISECSM [2nd]: the point group; only CI, whose
                                  ///< measure needs no orientation search (CsmSymmetrisation.h)
  double csmEpsilon = 1e-6;  ///< [3rd] CSMEPS: a CSM below this is exact symmetry (reported)
  int csmSteps = 1;          ///< [4th] CSMSTEPS: GMIN's random orientations of the group's
                             ///< frame; read, no effect for Ci (the inversion commutes with them)
  int csmQuenches = 1;       ///< [5th] CSMQUENCHES: quenches per attempt (the averaged structure,
                             ///< then downhill steps from the lowest one, angular moves off)
  int csmMaxIterations = 0;  ///< [6th] CSMMAXIT: read; Ci needs no orientation minimisation

  bool on() const { return scheme != Scheme::Off; }
  /// Throws std::invalid_argument naming the first bad field.
  void check() const;
};

}  // namespace landscape
