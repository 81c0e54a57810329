// pathsample: PATHSAMPLE databases in network.h5 and their kinetics (issue 19; docs/pathsample.md).
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "src/PathsampleCommands.h"
#include "src/PathsampleOptions.h"

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
    landscape::runPathsampleMode(config, [](const std::string& line) {
      std::cout << line << std::endl;  // flushed: progress of long runs
    });
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "pathsample: error: " << e.what() << "\n";
    return 1;
  }
}
