// The transition-network database (docs/database.md: gmin's minima.h5, optim's network.h5) as
// dicts of numpy arrays, and the disconnectivity-graph layout (landscape/network/
// DisconnectivityGraph) that landscape.plots draws. landscape/network.py wraps both.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "landscape/network/Database.h"
#include "landscape/network/DisconnectivityGraph.h"
#include "landscape/network/KineticsOnlyDatabase.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/NetworkDict.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

// A kinetics-only network (atoms = 0: PATHSAMPLE's NOPOINTS, `pathsample import --no-points`)
// has (n, 0, 3) coordinates in its dict.
nb::dict readNetwork(const std::filesystem::path& file) {
  const std::string path = file.string();
  DatabaseMetadata metadata;
  const StoredTransitionNetwork network = readNetworkOfEitherKind(path, &metadata);
  return networkToDict(network, metadata);
}

void writeNetwork(const std::filesystem::path& file, const nb::dict& data) {
  const std::string path = file.string();
  DatabaseMetadata metadata;
  const StoredTransitionNetwork network = networkFromDict(data, metadata, "write_network");
  writeNetworkOfEitherKind(path, metadata, network);
}

nb::dict disconnectivityLayout(HostIn minimaEnergy, HostIn tsEnergy, HostIn tsMinima, int levels,
                               double top, double spacing, bool all) {
  StoredTransitionNetwork network;
  for (std::size_t i = 0; i < minimaEnergy.size(); ++i) {
    network.minima.push_back({});
    network.minima.back().energy = minimaEnergy.data()[i];
  }
  requireValues(tsMinima.size(), 2 * tsEnergy.size(), shapeOf(tsMinima), "disconnectivity",
                "ts_minima");
  for (std::size_t t = 0; t < tsEnergy.size(); ++t) {
    for (int side = 0; side < 2; ++side) {
      const double m = tsMinima.data()[2 * t + side];
      if (!(m >= 0 && m < double(minimaEnergy.size())) || m != std::floor(m))
        throw std::invalid_argument("disconnectivity: ts_minima[" + std::to_string(t) +
                                    "] names minimum " + numberText(m) + ", not one of the " +
                                    std::to_string(minimaEnergy.size()) + " minima (0-based)");
    }
    network.transitionStates.push_back({});
    network.transitionStates.back().energy = tsEnergy.data()[t];
    network.transitionStates.back().plusMinimum = static_cast<int>(tsMinima.data()[2 * t]);
    network.transitionStates.back().minusMinimum = static_cast<int>(tsMinima.data()[2 * t + 1]);
  }
  DisconnectivityParams params;
  params.levels = levels;
  params.topEnergy = top;
  params.levelSpacing = spacing;
  params.connectedToLowestOnly = !all;
  const DisconnectivityGraph graph = buildDisconnectivityGraph(network, params);
  std::vector<double> ends;
  nb::list below;
  for (const DisconnectivitySegment& s : graph.segments) {
    ends.insert(ends.end(), {s.x0, s.energy0, s.x1, s.energy1});
    below.append(nb::cast(s.minima));
  }
  nb::dict out;
  out["segments"] = numpyFrom(std::move(ends), {graph.segments.size(), 4});
  out["segment_minima"] = below;
  out["levels"] = numpyFrom(graph.levels, {graph.levels.size()});
  out["minima"] = nb::cast(graph.minima);
  out["minimum_x"] = numpyFrom(graph.minimumX, {graph.minimumX.size()});
  out["lowest_energy"] = graph.lowestEnergy;
  return out;
}

}  // namespace

void bindNetwork(nb::module_& m) {
  m.def("read_network", &readNetwork, "path"_a,
        "Reads a network or minima database (HDF5, docs/database.md) into a dict holding every "
        "field of the file (a kinetics-only network, imported with --no-points: atoms 0 and "
        "(n, 0, 3) coordinates): 'metadata' (potential, energy_unit, length_unit, atoms, program, "
        "created_by, hessian_masses), minima_* and ts_* arrays (energy, coordinates (n, atoms, "
        "3), log_product, point_group_order, principal_moments, and hessian_eigenvalues (n, 3 x "
        "atoms; NaN rows: not computed) when the file has them), minima_first_found_step, "
        "minima_function_calls, ts_minima (m, 2; 0-based) and ts_eigenvalue, the endpoint sets "
        "set_a and set_b (0-based; empty: none) and, after pathsample grow, 'growth' (cycles, "
        "settings, tried_pairs, pending_pairs). Unknown values are NaN (order 0). Use "
        "landscape.network.Network.read for an object.");
  m.def("write_network", &writeNetwork, "path"_a, "data"_a,
        "Writes a dict of the read_network layout as an HDF5 network (atomically), every field "
        "read_network gives. Optional fields may be missing (written as unknown). Raises "
        "ValueError naming the first key whose shape or value is wrong.");
  m.def("disconnectivity_layout", &disconnectivityLayout, "minima_energy"_a, "ts_energy"_a,
        "ts_minima"_a, "levels"_a = 20, "top"_a = std::nan(""), "spacing"_a = std::nan(""),
        "all"_a = false,
        "Disconnectivity-graph layout (Becker and Karplus 1997): 'segments' (k, 4) of x0, E0, "
        "x1, E1 (x in [0, 1], energies in the network's unit), 'segment_minima' (the minima "
        "below each segment), 'levels' (top first), 'minima' drawn, their 'minimum_x', "
        "'lowest_energy'. levels: levels below the top; top: energy of the top level (NaN: "
        "just above the highest transition state); spacing: energy between levels (NaN: "
        "(top - lowest) / levels); all: also minima not connected to the global minimum.");
}

}  // namespace landscape::python
