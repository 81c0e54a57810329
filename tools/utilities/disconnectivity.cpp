// disconnectivity: the disconnectivity graph of a transition-network database (optim's
// network.h5): prints the layout of landscape/network/DisconnectivityGraph and draws it with
// matplotlib through `python3 -m landscape.plots disconnectivity` (tools/PythonPlot.h), as PNG,
// PDF or SVG by the output's suffix, with an energy axis titled with the database's unit.
//
//   disconnectivity DATABASE [--output FILE] [--levels N] [--top E] [--delta D] [--all]
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

#include "landscape/network/Database.h"
#include "landscape/network/DisconnectivityGraph.h"
#include "src/common/OptionTable.h"
#include "tools/PythonPlot.h"

namespace {

struct Options {
  std::string database, output = "disconnectivity.png";
  landscape::DisconnectivityParams params;
};

landscape::OptionTable<Options> optionTable() {
  using landscape::fieldOf;
  using P = landscape::DisconnectivityParams;
  landscape::OptionTable<Options> t("disconnectivity");
  t.about =
      "Usage: disconnectivity DATABASE [--output FILE] [--levels N] [--top E] [--delta D] [--all]\n"
      "Draws the disconnectivity graph of an HDF5 transition-network database (optim) with\n"
      "matplotlib (python3 -m landscape.plots disconnectivity; more options there: sets of minima\n"
      "coloured, labels). Energies in the database's unit (reduced epsilon for Lennard-Jones).\n";
  t.helpCommand();
  t.positional("DATABASE", "the HDF5 transition-network database", fieldOf(&Options::database));
  t.add("output", "FILE", "the figure to write: .png, .pdf or .svg", fieldOf(&Options::output));
  t.add("levels", "N", "energy levels below the top one", fieldOf(&Options::params, &P::levels))
      .atLeast(1)
      .atMost(100000);
  t.add("top", "E", "energy of the top level", fieldOf(&Options::params, &P::topEnergy))
      .defaultText("just above the highest transition state");
  t.add("delta", "D", "energy between levels", fieldOf(&Options::params, &P::levelSpacing))
      .defaultText("(top - lowest minimum) / levels");
  t.flag("all", "also minima not connected to the global minimum",
         fieldOf(&Options::params, &P::connectedToLowestOnly))
      .inverted();
  return t;
}

int run(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  if (o.database.empty()) throw std::runtime_error("no DATABASE given (--help)");
  landscape::DatabaseMetadata metadata;
  const landscape::StoredTransitionNetwork network =
      landscape::TransitionNetworkDatabase::read(o.database, &metadata);
  const landscape::DisconnectivityGraph graph =
      landscape::buildDisconnectivityGraph(network, o.params);
  std::printf(
      "disconnectivity: %zu minima, %zu transition states in %s; %zu minima drawn, %zu "
      "levels from %.4f to %.4f (%s) -> %s\n",
      network.minima.size(), network.transitionStates.size(), o.database.c_str(),
      graph.minima.size(), graph.levels.size(), graph.levels.front(), graph.levels.back(),
      metadata.energyUnit.c_str(), o.output.c_str());
  std::fflush(stdout);
  // landscape.plots counts the top level in --levels (dinfo's LEVELS); ours counts those below.
  const double spacing = graph.levels.front() - graph.levels[1];
  std::vector<std::string> args = {"disconnectivity", o.database, "--levels",
                                   std::to_string(o.params.levels + 1), "--first",
                                   std::to_string(graph.levels.front()), "--delta",
                                   std::to_string(spacing), "-o", o.output};
  if (!o.params.connectedToLowestOnly) args.push_back("--all");
  return landscape::runPythonPlot("disconnectivity", args);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "disconnectivity: error: " << e.what() << "\n";
    return 1;
  }
}
