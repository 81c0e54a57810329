// The compiled half of the Python package `landscape` (docs/python.md). Units are the
// library's: reduced units (epsilon, sigma) for Lennard-Jones, kcal/mol and Angstrom for AMBER-GB
// and SOP; gradients in energy/length. Library exceptions arrive as Python exceptions with the
// library's message (std::invalid_argument -> ValueError, std::runtime_error -> RuntimeError).
#include "python/Bindings.h"

NB_MODULE(_landscape, m) {
  using namespace landscape::python;
  m.doc() =
      "landscape's compiled core: potentials, GMIN L-BFGS, the batched engine, basin-hopping, "
      "optim's connect, DNEB, hybrid eigenvector-following, network growth and the network "
      "database. Import the package `landscape`, not this.";
#ifdef LANDSCAPE_VERSION
  m.attr("__version__") = LANDSCAPE_VERSION;
#endif
  bindPotentials(m);
  bindDeviceArrays(m);
  bindMinimisation(m);
  bindBatched(m);
  bindPairPotentials(m);
  bindGuptaPotentials(m);
  bindRigidMolecules(m);
  bindBasinHopping(m);
  bindNetwork(m);
  bindKinetics(m);
  bindConnect(m);
  bindPaths(m);
  bindBenchmark(m);
}
