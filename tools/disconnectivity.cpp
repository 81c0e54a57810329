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

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/PngImage.h"
#include "landscape/network/Database.h"
#include "landscape/network/DisconnectivityGraph.h"

namespace {

const char* kUsage =
    "Usage: disconnectivity DATABASE [--output FILE.png] [--levels N] [--top E]\n"
    "                       [--width W] [--height H] [--all]\n"
    "Draws the disconnectivity graph of an HDF5 transition-network database (optim) as a PNG\n"
    "(default disconnectivity.png, 800 x 600 pixels). --levels: energy levels (default 20);\n"
    "--top: energy of the top level (default just above the highest transition state);\n"
    "--all: also minima not connected to the global minimum. Energies in the database's unit\n"
    "(reduced epsilon for Lennard-Jones); the axis labels are energies at the levels.\n";

double number(const std::string& option, const std::string& value) {
  const auto v = landscape::parseFortranReal(value);
  if (!v) throw std::runtime_error(option + " expects a number, found '" + value + "'");
  return *v;
}

int integer(const std::string& option, const std::string& value, int minimum) {
  const auto v = landscape::parseFortranInteger(value);
  if (!v || *v < minimum || *v > 100000) {
    throw std::runtime_error(option + " expects an integer >= " + std::to_string(minimum) +
                             ", found '" + value + "'");
  }
  return static_cast<int>(*v);
}

int run(int argc, char** argv) {
  std::string database, output = "disconnectivity.png";
  int width = 800, height = 600;
  landscape::DisconnectivityParams params;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--output" && hasValue) {
      output = argv[++i];
    } else if (a == "--levels" && hasValue) {
      params.levels = integer(a, argv[++i], 1);
    } else if (a == "--top" && hasValue) {
      params.topEnergy = number(a, argv[++i]);
    } else if (a == "--width" && hasValue) {
      width = integer(a, argv[++i], 100);
    } else if (a == "--height" && hasValue) {
      height = integer(a, argv[++i], 100);
    } else if (a == "--all") {
      params.connectedToLowestOnly = false;
    } else if (!a.empty() && a[0] != '-' && database.empty()) {
      database = a;
    } else {
      throw std::runtime_error("unexpected argument '" + a + "'\n" + kUsage);
    }
  }
  if (database.empty()) throw std::runtime_error(std::string("no DATABASE given\n") + kUsage);

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
