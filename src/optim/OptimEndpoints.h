#pragma once
// The two minima an optim run connects: read from --start/--finish (XYZ, GMIN coords or, for
// molecules, rst7), odata POINTS, --inpcrd, or the built-in LJ7 pair; then minimised
// (REOPTIMISEENDPOINTS) or checked to be minima already.
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/minimisation/BatchedMinimiser.h"
#include "potentials/AmberTopology.h"
#include "potentials/Potential.h"
#include "src/optim/OptimConfig.h"
#include "src/optim/OptimSystem.h"

namespace landscape {

struct Endpoint {
  std::string source;  ///< for messages
  std::vector<double> x;
  double energy = 0.0;
  double rmsGradient = 0.0;
  std::vector<std::string> labels;  ///< an XYZ file's atom labels (pair systems check species)
};

struct OptimEndpoints {
  Endpoint start, finish;
  bool minimise = false;  ///< REOPTIMISEENDPOINTS (always for the built-in ideal geometries)
  /// Molecules: the structure whose stereocentres and peptide bonds the endpoints should share.
  std::vector<double> reference;
  /// Atoms of each endpoint; x holds rigid coordinates after useRigidBodies, this stays.
  std::size_t atoms = 0;
};

/// Reads both endpoints (Cartesian atoms) and checks that they have the same, positive number of
/// atoms (and --lj's, when given). amber: the molecule, or null for Lennard-Jones.
OptimEndpoints loadOptimEndpoints(const OptimConfig& config, const AmberTopology* amber);

/// A pair system of several species: the endpoints' XYZ labels must name each atom's species
/// (checkSpeciesLabels, src/common/PairSystem.h). Throws std::runtime_error naming the file and
/// line of the first atom that disagrees.
void checkEndpointSpecies(const OptimConfig& config, const OptimSystem& system,
                          const OptimEndpoints& endpoints);

/// Minimises the endpoint (minimise) or checks that it is a minimum already, fills its energy and
/// RMS gradient, and unless quiet prints both and its point group.
void prepareEndpoint(const OptimSystem& system, Endpoint& e, const OptimSettings& settings,
                     bool minimise, bool quiet);

/// prepareEndpoint for start and finish; when both are minimised and `together` is given (a
/// batched minimiser with the endpoint minimiser's parameters) they are minimised as one batch,
/// bit for bit as one after the other with ParallelLbfgs.
void prepareEndpoints(const OptimSystem& system, OptimEndpoints& endpoints,
                      const OptimSettings& settings, BatchedMinimiser* together, bool quiet);

/// A warning on stderr for each endpoint whose chirality or peptide cis/trans states differ from
/// the reference's: a path between mirror images is not what a connect run on a protein is for,
/// but the user may mean it.
void warnAboutStereochemistry(const OptimConfig& config, const OptimSystem& system,
                              const OptimEndpoints& endpoints);

}  // namespace landscape
