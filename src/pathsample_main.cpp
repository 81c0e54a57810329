// pathsample: PATHSAMPLE databases in network.h5 and their kinetics (issue 19; docs/pathsample.md).
// Under `mpirun -n K`, `pathsample grow` spreads each cycle's connect runs over the ranks
// (docs/cluster.md); rank 0 prints and writes network.h5.
#include <csignal>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/PathsampleCommands.h"
#include "src/PathsampleGrowth.h"
#include "src/PathsampleOptions.h"
#include "src/RankedMain.h"

namespace {

// Set by SIGINT/SIGTERM: growth stops after the connect runs under way and saves them (under
// mpirun: all ranks, after the cycle in which any rank got the signal).
volatile std::sig_atomic_t stopRequested = 0;
extern "C" void requestStop(int) { stopRequested = 1; }

constexpr int kExitStopped = 130;  // 128 + SIGINT, as shells report an interrupted command

int run(int argc, char** argv, landscape::Communicator& ranks) {
  const landscape::PathsampleRunConfig config =
      landscape::parsePathsampleCommandLine(std::vector<std::string>(argv + 1, argv + argc));
  if (config.action != landscape::PathsampleRunConfig::Action::Run) {
    std::cout << config.helpText;
    return 0;
  }
  if (ranks.size() > 1 && config.mode != "grow")
    throw std::runtime_error("mpirun with " + std::to_string(ranks.size()) + " ranks: only `" +
                             "pathsample grow` runs over ranks; run `pathsample " + config.mode +
                             "` without mpirun");
  ranks.setTimeout(config.rankTimeout);
  if (ranks.rank() == 0)
    for (const std::string& warning : config.warnings)
      std::cerr << "pathsample: warning: " << warning << "\n";
  const auto print = [](const std::string& line) {
    std::cout << line << std::endl;  // flushed: progress of long runs
  };
  if (config.mode == "grow") {
    std::signal(SIGINT, requestStop);
    std::signal(SIGTERM, requestStop);
    const bool stopped =
        landscape::growNetwork(config, print, [] { return stopRequested != 0; }, ranks);
    return stopped ? kExitStopped : 0;
  }
  landscape::runPathsampleMode(config, print);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return landscape::runRankedProgram("pathsample", argc, argv, run);
}
