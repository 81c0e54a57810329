// The transition-network database (docs/database.md: gmin's minima.h5, optim's network.h5) as
// dicts of numpy arrays, and the disconnectivity-graph layout (landscape/network/
// DisconnectivityGraph) that landscape.plots draws. landscape/network.py wraps both.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>

#include "landscape/network/Database.h"
#include "landscape/network/DisconnectivityGraph.h"
#include "python/Arrays.h"
#include "python/Bindings.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

/// The per-point fields of a group ("minima" or "ts") into `out` under prefix_name.
template <typename Point>
void putPoints(nb::dict& out, const std::string& prefix, const std::vector<Point>& points,
               std::size_t atoms) {
  const std::size_t n = points.size();
  std::vector<double> energy, coordinates, logProduct, moments;
  std::vector<std::int64_t> order;
  for (const Point& p : points) {
    energy.push_back(p.energy);
    coordinates.insert(coordinates.end(), p.coordinates.begin(), p.coordinates.end());
    logProduct.push_back(p.properties.logProductOfPositiveEigenvalues);
    order.push_back(p.properties.pointGroupOrder);
    moments.insert(moments.end(), p.properties.principalMoments.begin(),
                   p.properties.principalMoments.end());
  }
  out[(prefix + "_energy").c_str()] = numpyFrom(std::move(energy), {n});
  out[(prefix + "_coordinates").c_str()] = numpyFrom(std::move(coordinates), {n, atoms, 3});
  out[(prefix + "_log_product").c_str()] = numpyFrom(std::move(logProduct), {n});
  out[(prefix + "_point_group_order").c_str()] = numpyOf(std::move(order), {n});
  out[(prefix + "_principal_moments").c_str()] = numpyFrom(std::move(moments), {n, 3});
}

nb::dict readNetwork(const std::string& path) {
  DatabaseMetadata metadata;
  const StoredTransitionNetwork network = TransitionNetworkDatabase::read(path, &metadata);
  nb::dict out, meta;
  meta["potential"] = metadata.potential;
  meta["energy_unit"] = metadata.energyUnit;
  meta["length_unit"] = metadata.lengthUnit;
  meta["atoms"] = metadata.atoms;
  meta["program"] = metadata.program;
  meta["created_by"] = metadata.createdBy;
  out["metadata"] = meta;
  putPoints(out, "minima", network.minima, metadata.atoms);
  putPoints(out, "ts", network.transitionStates, metadata.atoms);
  std::vector<std::int64_t> found, calls, ends;
  for (const StoredNetworkMinimum& m : network.minima) {
    found.push_back(m.firstFoundStep);
    calls.push_back(m.functionCalls);
  }
  std::vector<double> eigenvalue;
  for (const StoredTransitionState& t : network.transitionStates) {
    ends.push_back(t.plusMinimum);
    ends.push_back(t.minusMinimum);
    eigenvalue.push_back(t.eigenvalue);
  }
  const std::size_t n = network.minima.size(), m = network.transitionStates.size();
  out["minima_first_found_step"] = numpyOf(std::move(found), {n});
  out["minima_function_calls"] = numpyOf(std::move(calls), {n});
  out["ts_minima"] = numpyOf(std::move(ends), {m, 2});
  out["ts_eigenvalue"] = numpyFrom(std::move(eigenvalue), {m});
  return out;
}

/// Column `key` of `data` as doubles (n * width of them), or `fallback` repeated when absent.
std::vector<double> column(const nb::dict& data, const char* key, std::size_t count,
                           double fallback) {
  if (!data.contains(key)) return std::vector<double>(count, fallback);
  const HostIn a = nb::cast<HostIn>(data[key]);
  requireValues(a.size(), count, shapeOf(a), "write_network", key);
  return std::vector<double>(a.data(), a.data() + a.size());
}

template <typename Point>
std::vector<Point> takePoints(const nb::dict& data, const std::string& prefix, std::size_t atoms) {
  const HostIn energy = nb::cast<HostIn>(data[(prefix + "_energy").c_str()]);
  const std::size_t n = energy.size(), w = 3 * atoms;
  const double nan = std::nan("");
  const std::vector<double> x = column(data, (prefix + "_coordinates").c_str(), n * w, nan);
  const std::vector<double> logProduct = column(data, (prefix + "_log_product").c_str(), n, nan);
  const std::vector<double> order = column(data, (prefix + "_point_group_order").c_str(), n, 0);
  const std::vector<double> moments =
      column(data, (prefix + "_principal_moments").c_str(), 3 * n, nan);
  std::vector<Point> points(n);
  for (std::size_t i = 0; i < n; ++i) {
    points[i].energy = energy.data()[i];
    points[i].coordinates.assign(x.begin() + i * w, x.begin() + (i + 1) * w);
    points[i].properties.logProductOfPositiveEigenvalues = logProduct[i];
    points[i].properties.pointGroupOrder = static_cast<int>(order[i]);
    for (int k = 0; k < 3; ++k) points[i].properties.principalMoments[k] = moments[3 * i + k];
  }
  return points;
}

void writeNetwork(const std::string& path, const nb::dict& data) {
  const nb::dict meta = nb::cast<nb::dict>(data["metadata"]);
  DatabaseMetadata metadata;
  metadata.potential = nb::cast<std::string>(meta["potential"]);
  metadata.energyUnit = nb::cast<std::string>(meta["energy_unit"]);
  metadata.lengthUnit = nb::cast<std::string>(meta["length_unit"]);
  metadata.atoms = nb::cast<std::size_t>(meta["atoms"]);
  metadata.program = meta.contains("program") ? nb::cast<std::string>(meta["program"]) : "python";
  StoredTransitionNetwork network;
  network.minima = takePoints<StoredNetworkMinimum>(data, "minima", metadata.atoms);
  network.transitionStates = takePoints<StoredTransitionState>(data, "ts", metadata.atoms);
  const std::size_t n = network.minima.size(), m = network.transitionStates.size();
  const std::vector<double> found = column(data, "minima_first_found_step", n, -1);
  const std::vector<double> calls = column(data, "minima_function_calls", n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    network.minima[i].firstFoundStep = static_cast<long>(found[i]);
    network.minima[i].functionCalls = static_cast<long>(calls[i]);
  }
  const std::vector<double> ends = column(data, "ts_minima", 2 * m, -1);
  const std::vector<double> eigenvalue = column(data, "ts_eigenvalue", m, std::nan(""));
  for (std::size_t t = 0; t < m; ++t) {
    network.transitionStates[t].plusMinimum = static_cast<int>(ends[2 * t]);
    network.transitionStates[t].minusMinimum = static_cast<int>(ends[2 * t + 1]);
    network.transitionStates[t].eigenvalue = eigenvalue[t];
  }
  TransitionNetworkDatabase::write(path, metadata, network);
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
        "Reads a network or minima database (HDF5, docs/database.md) into a dict: 'metadata' "
        "(units, atoms, ...), minima_* and ts_* arrays (energy, coordinates (n, atoms, 3), "
        "log_product, point_group_order, principal_moments), minima_first_found_step, "
        "minima_function_calls, ts_minima (m, 2; 0-based) and ts_eigenvalue. Unknown values are "
        "NaN (order 0). Use landscape.network.Network.read for an object.");
  m.def("write_network", &writeNetwork, "path"_a, "data"_a,
        "Writes a dict of the read_network layout as an HDF5 network (atomically). Optional "
        "fields may be missing (written as unknown).");
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
