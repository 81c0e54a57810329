// pathsample: PATHSAMPLE databases in network.h5 and their kinetics (issue 19; docs/pathsample.md).
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "src/PathsampleCommands.h"
#include "src/PathsampleGrowth.h"
#include "src/PathsampleOptions.h"

namespace {

// Set by SIGINT/SIGTERM: growth stops after the connect runs under way and saves them.
volatile std::sig_atomic_t stopRequested = 0;
extern "C" void requestStop(int) { stopRequested = 1; }

constexpr int kExitStopped = 130;  // 128 + SIGINT, as shells report an interrupted command

}  // namespace

int main(int argc, char** argv) {
  try {
    const landscape::PathsampleRunConfig config =
        landscape::parsePathsampleCommandLine(std::vector<std::string>(argv + 1, argv + argc));
    if (config.action != landscape::PathsampleRunConfig::Action::Run) {
      std::cout << config.helpText;
      return 0;
    }
    for (const std::string& warning : config.warnings) {
      std::cerr << "pathsample: warning: " << warning << "\n";
    }
    const auto print = [](const std::string& line) {
      std::cout << line << std::endl;  // flushed: progress of long runs
    };
    if (config.mode == "grow") {
      std::signal(SIGINT, requestStop);
      std::signal(SIGTERM, requestStop);
      const bool stopped =
          landscape::growNetwork(config, print, [] { return stopRequested != 0; });
      return stopped ? kExitStopped : 0;
    }
    landscape::runPathsampleMode(config, print);
    return 0;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "pathsample: error: " << e.what() << "\n";
    return 1;
  }
}
