// optim's connect (OPTIM's NEWCONNECT with Dijkstra, landscape/paths/Connect): the transition
// states and minima joining two minima of a potential, as the network dict of read_network.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>

#include "landscape/paths/Connect.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/Params.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

void bindConnectParams(nb::module_& m) {
  using P = ConnectParams;
  ParamsClass<P>(m, "ConnectParams",
                 "Connect-run settings (OPTIM's NEWCONNECT; docs/optim-keywords.md). DNEB, hybrid "
                 "eigenvector-following and descent keep the library's defaults (OPTIM's LJ38 "
                 "example), except the DNEB fields below.")
      .field("max_cycles", &P::maxCycles, "connect cycles (NConMax)")
      .field("max_tries_per_pair", &P::maxTriesPerPair, "DNEB attempts per pair (NTriesMax)")
      .field("distance_power", &P::distancePower, "Dijkstra cost distance^power (DIJKSTRA n)")
      .field("first_images", &P::firstImages, "images of the first DNEB run (NEWNEB)")
      .field("first_iterations", &P::firstIterations, "iterations of the first DNEB run")
      .done();
}

/// The network's points as the read_network dict (Hessian-derived fields unknown: NaN, 0).
nb::dict networkDict(const TransitionNetwork& network, std::size_t atoms,
                     const std::string& energyUnit, const std::string& lengthUnit) {
  std::vector<double> minE, minX, tsE, tsX, eigenvalue;
  std::vector<std::int64_t> ends;
  for (const NetworkMinimum& p : network.minima()) {
    minE.push_back(p.energy);
    minX.insert(minX.end(), p.coordinates.begin(), p.coordinates.end());
  }
  for (const NetworkTransitionState& t : network.transitionStates()) {
    tsE.push_back(t.energy);
    tsX.insert(tsX.end(), t.coordinates.begin(), t.coordinates.end());
    ends.insert(ends.end(), {t.plusMinimum, t.minusMinimum});
    eigenvalue.push_back(t.eigenvalue);
  }
  const std::size_t n = minE.size(), m = tsE.size();
  nb::dict meta, out;
  meta["potential"] = "python";
  meta["energy_unit"] = energyUnit;
  meta["length_unit"] = lengthUnit;
  meta["atoms"] = atoms;
  meta["program"] = "landscape.connect";
  out["metadata"] = meta;
  out["minima_energy"] = numpyFrom(std::move(minE), {n});
  out["minima_coordinates"] = numpyFrom(std::move(minX), {n, atoms, 3});
  out["ts_energy"] = numpyFrom(std::move(tsE), {m});
  out["ts_coordinates"] = numpyFrom(std::move(tsX), {m, atoms, 3});
  out["ts_minima"] = numpyOf(std::move(ends), {m, 2});
  out["ts_eigenvalue"] = numpyFrom(std::move(eigenvalue), {m});
  return out;
}

nb::dict connect(Potential& potential, HostIn start, HostIn finish, const ConnectParams& params,
                 double energyTolerance, double geometryTolerance, const std::string& energyUnit,
                 const std::string& lengthUnit) {
  const std::size_t n = potential.dimension();
  requireValues(start.size(), n, shapeOf(start), "connect", "start");
  requireValues(finish.size(), n, shapeOf(finish), "connect", "finish");
  TransitionNetworkParams networkParams;
  networkParams.energyTolerance = energyTolerance;
  networkParams.geometryTolerance = geometryTolerance;
  TransitionNetwork network(networkParams);
  std::vector<double> a(start.data(), start.data() + n), b(finish.data(), finish.data() + n);
  const double ea = potential.energy(a.data()), eb = potential.energy(b.data());
  const int from = network.addMinimum(a, ea).index;
  const TransitionNetwork::Added to = network.addMinimum(b, eb);
  if (!to.isNew)
    throw std::invalid_argument("connect: start and finish are the same minimum (energies " +
                                std::to_string(ea) + " and " + std::to_string(eb) + ")");
  const ConnectResult result = Connect(params).connect(potential, network, from, to.index);
  nb::dict out = networkDict(network, potential.atomCount(), energyUnit, lengthUnit);
  out["status"] = connectStatusName(result.status);
  out["connected"] = result.connected();
  out["cycles"] = result.cycles;
  out["dneb_runs"] = result.dnebRuns;
  out["gradient_calls"] = result.gradientCalls;
  nb::list path;
  for (const PathStep& s : result.path) path.append(nb::make_tuple(s.from, s.transitionState, s.to));
  out["path"] = path;
  return out;
}

}  // namespace

void bindConnect(nb::module_& m) {
  bindConnectParams(m);
  m.def("connect", &connect, "potential"_a, "start"_a, "finish"_a, "params"_a = ConnectParams{},
        "energy_tolerance"_a = 1e-6, "geometry_tolerance"_a = 0.2,
        "energy_unit"_a = "reduced (epsilon)", "length_unit"_a = "reduced (sigma)",
        "optim's connect between two minima (atoms x 3; minimise them first): DNEB, hybrid "
        "eigenvector-following and descent, cycle by cycle along Dijkstra's path. Returns the "
        "network dict of read_network (Hessian-derived fields unknown) plus 'status', "
        "'connected', 'cycles', 'dneb_runs', 'gradient_calls' and 'path' [(minimum, "
        "transition state, minimum), ...]. Minima are the same when their energies differ by "
        "less than energy_tolerance and their aligned distance is below geometry_tolerance. "
        "energy_unit/length_unit label the result (AMBER: 'kcal/mol', 'Angstrom').");
}

}  // namespace landscape::python
