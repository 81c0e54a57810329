#include "src/common/Communicator.h"

#include <cstdlib>
#include <stdexcept>

#ifdef LANDSCAPE_HAVE_MPI
#include "src/common/MpiCommunicator.h"
#endif

namespace landscape {

namespace {

const char* environment(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

#ifndef LANDSCAPE_HAVE_MPI
// The size of the job as the launcher announces it (1 when it does not).
long launcherSize() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"})
    if (const char* value = environment(name)) return std::strtol(value, nullptr, 10);
  return 1;
}
#endif

}  // namespace

void SoloCommunicator::abort(int code) { std::exit(code); }

bool mpiBuilt() {
#ifdef LANDSCAPE_HAVE_MPI
  return true;
#else
  return false;
#endif
}

bool launchedByMpi() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (environment(name)) return true;
  return false;
}

std::unique_ptr<Communicator> startCommunicator(int& argc, char**& argv) {
#ifdef LANDSCAPE_HAVE_MPI
  if (launchedByMpi()) return startMpiCommunicator(argc, argv);
#else
  (void)argc;
  (void)argv;
  if (launchedByMpi() && launcherSize() > 1)
    throw std::runtime_error(
        "started by an MPI launcher with " + std::to_string(launcherSize()) +
        " processes, but this build has no MPI support (install libopenmpi-dev and rebuild; "
        "docs/cluster.md)");
#endif
  return std::make_unique<SoloCommunicator>();
}

}  // namespace landscape
