// disconnectivity: draws the disconnectivity graph of a transition-network database (optim's
// network.h5) as a PNG: an energy axis on the left with a tick per level, one line per superbasin
// and per minimum (landscape/DisconnectivityGraph, landscape/PngImage; no plotting library).
//
//   disconnectivity DATABASE [--output FILE.png] [--levels N] [--top E] [--width W] [--height H]
//                            [--all]
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "landscape/formats/PngImage.h"
#include "landscape/network/Database.h"
#include "landscape/network/DisconnectivityGraph.h"
#include "src/OptionTable.h"

namespace {

struct Options {
  std::string database, output = "disconnectivity.png";
  int width = 800, height = 600;
  landscape::DisconnectivityParams params;
};

landscape::OptionTable<Options> optionTable() {
  using landscape::fieldOf;
  using P = landscape::DisconnectivityParams;
  landscape::OptionTable<Options> t("disconnectivity");
  t.about =
      "Usage: disconnectivity DATABASE [--output FILE.png] [--levels N] [--top E]\n"
      "                       [--width W] [--height H] [--all]\n"
      "Draws the disconnectivity graph of an HDF5 transition-network database (optim) as a PNG.\n"
      "Energies in the database's unit (reduced epsilon for Lennard-Jones); the axis labels are\n"
      "energies at the levels.\n";
  t.helpCommand();
  t.positional("DATABASE", "the HDF5 transition-network database", fieldOf(&Options::database));
  t.add("output", "FILE.png", "the image to write", fieldOf(&Options::output));
  t.add("levels", "N", "energy levels", fieldOf(&Options::params, &P::levels))
      .atLeast(1)
      .atMost(100000);
  t.add("top", "E", "energy of the top level", fieldOf(&Options::params, &P::topEnergy))
      .defaultText("just above the highest transition state");
  t.add("width", "W", "image width", fieldOf(&Options::width))
      .unit("pixels")
      .atLeast(100)
      .atMost(100000);
  t.add("height", "H", "image height", fieldOf(&Options::height))
      .unit("pixels")
      .atLeast(100)
      .atMost(100000);
  t.flag("all", "also minima not connected to the global minimum",
         fieldOf(&Options::params, &P::connectedToLowestOnly))
      .inverted();
  return t;
}

int run(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const std::string &database = o.database, &output = o.output;
  const int width = o.width, height = o.height;
  const landscape::DisconnectivityParams& params = o.params;
  if (database.empty()) throw std::runtime_error("no DATABASE given (--help)");

  landscape::DatabaseMetadata metadata;
  const landscape::StoredTransitionNetwork network =
      landscape::TransitionNetworkDatabase::read(database, &metadata);
  const landscape::DisconnectivityGraph graph =
      landscape::buildDisconnectivityGraph(network, params);

  // Plot area: energy axis with labels on the left.
  const int scale = 2;
  const int left = 24 + landscape::RgbImage::textWidth("-0000.00", scale);
  const int right = 20, top = 20, bottom = 20;
  const double eTop = graph.levels.front();
  const double range = eTop - graph.lowestEnergy;
  const double eBottom = graph.lowestEnergy - 0.03 * range;
  const auto px = [&](double x) {
    return left + static_cast<int>(std::lround(x * (width - left - right)));
  };
  const auto py = [&](double e) {
    return top +
           static_cast<int>(std::lround((eTop - e) / (eTop - eBottom) * (height - top - bottom)));
  };
  landscape::RgbImage image(width, height);
  const landscape::Rgb black{0, 0, 0}, grey{120, 120, 120};
  image.line(left - 10, py(eTop), left - 10, py(eBottom), black);
  const int labelEvery =
      std::max<int>(1, static_cast<int>(graph.levels.size()) * 16 / (height - top - bottom) + 1);
  for (std::size_t k = 0; k < graph.levels.size(); ++k) {
    const int y = py(graph.levels[k]);
    image.line(left - 14, y, left - 10, y, black);
    if (k % labelEvery != 0) continue;
    char label[32];
    std::snprintf(label, sizeof label, "%.2f", graph.levels[k]);
    image.text(left - 18 - landscape::RgbImage::textWidth(label, scale), y - 5 * scale / 2, label,
               grey, scale);
  }
  for (const landscape::DisconnectivitySegment& s : graph.segments) {
    image.line(px(s.x0), py(s.energy0), px(s.x1), py(s.energy1), black);
  }
  landscape::writePng(output, image);
  std::printf(
      "disconnectivity: %zu minima, %zu transition states in %s; %zu minima drawn, %zu "
      "levels from %.4f to %.4f (%s), %d x %d pixels -> %s\n",
      network.minima.size(), network.transitionStates.size(), database.c_str(), graph.minima.size(),
      graph.levels.size(), graph.levels.front(), graph.levels.back(), metadata.energyUnit.c_str(),
      width, height, output.c_str());
  return 0;
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
