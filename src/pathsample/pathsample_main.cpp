// pathsample: PATHSAMPLE databases in network.h5 and their kinetics (docs/pathsample.md).
// Under `mpirun -n K`, `pathsample grow` spreads each cycle's connect runs over the ranks
// (docs/cluster.md); rank 0 prints and writes network.h5.
#include <iostream>
#include <csignal>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/common/LongRun.h"
#include "src/common/OutputLock.h"
#include "src/pathsample/PathsampleCommands.h"
#include "src/pathsample/PathsampleGrowth.h"
#include "src/pathsample/PathsampleOptions.h"
#include "src/common/RankedMain.h"

namespace {

int run(int argc, char** argv, landscape::Communicator& ranks) {
  const landscape::PathsampleConfig config =
      landscape::parsePathsampleCommandLine(std::vector<std::string>(argv + 1, argv + argc));
  if (config.action != landscape::PathsampleConfig::Action::Run) {
    std::cout << config.helpText;
    return 0;
  }
  if (ranks.size() > 1 && config.mode != landscape::PathsampleMode::Grow)
    throw std::runtime_error("mpirun with " + std::to_string(ranks.size()) + " ranks: only `" +
                             "pathsample grow` runs over ranks; run `pathsample " +
                             landscape::pathsampleModeName(*config.mode) + "` without mpirun");
  ranks.setTimeout(config.rankTimeout);
  if (ranks.rank() == 0)
    for (const std::string& warning : config.warnings)
      std::cerr << "pathsample: warning: " << warning << "\n";
  const auto print = [](const std::string& line) {
    std::cout << line << std::endl;  // flushed: progress of long runs
  };
  if (config.mode == landscape::PathsampleMode::Grow) {
    landscape::useRankGpu("pathsample", config.backend == landscape::Backend::Cuda, false, ranks);
    // SIGINT/SIGTERM request the stop at once: the connect runs under way poll it and end
    // "stopped", and the cycle they belong to is left out as a whole (its pairs go back to the
    // front of the list). Under mpirun a rank that got no signal finishes its runs and all ranks
    // stop at the top of the next cycle. A second signal exits at once.
    // Exit status 128 + the signal, as gmin, optim and sop; under mpirun every rank agrees on it
    // (SIGTERM's where any rank got one), so that mpirun's status does not depend on which rank
    // exits first.
    landscape::setUpLongRun("pathsample");
    const bool stopped = landscape::growNetwork(config, print, landscape::stopSignalled, ranks);
    if (!stopped) return 0;
    const unsigned mine = !landscape::stopSignalled() ? 0u
                          : landscape::stopExitStatus() == 128 + SIGTERM ? 2u : 1u;
    return (ranks.anyBits(mine) & 2u) != 0 ? 128 + SIGTERM : 128 + SIGINT;
  }
  // Import writes --database: one writer per database file.
  std::optional<landscape::DatabaseLock> lock;
  if (config.mode == landscape::PathsampleMode::Import) {
    landscape::requireWritable(config.database, "the database");
    lock.emplace(config.database, "pathsample import");
  }
  landscape::runPathsampleMode(config, print);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return landscape::runRankedProgram("pathsample", argc, argv, run);
}
