// optim's connect (OPTIM's NEWCONNECT with Dijkstra, landscape/paths/Connect): the transition
// states and minima joining two minima of a potential, as the network dict of read_network; when
// asked, every stationary point characterised as optim does (landscape/paths/Characterisation:
// log product of the positive Hessian eigenvalues, point-group order, principal moments, the
// spectrum of small systems), so that `pathsample rates` and Network.rates accept the network.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "landscape/paths/Connect.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/CharacterisationChoice.h"
#include "python/NetworkDict.h"
#include "python/PairModels.h"
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

/// The network as stored, characterised when asked; endpoint sets A = {start}, B = {finish} as
/// optim records them.
StoredTransitionNetwork storedNetwork(Potential& potential, const TransitionNetwork& network,
                                      const CharacterisationChoice& choice, int start, int finish) {
  StoredTransitionNetwork out;
  for (const NetworkMinimum& p : network.minima()) {
    StoredNetworkMinimum m;
    m.energy = p.energy;
    m.coordinates = p.coordinates;
    if (choice.enabled) m.properties = characterise(potential, m.coordinates, choice.params);
    out.minima.push_back(std::move(m));
  }
  for (const NetworkTransitionState& t : network.transitionStates()) {
    StoredTransitionState ts = storedTransitionState(t);
    if (choice.enabled) ts.properties = characterise(potential, ts.coordinates, choice.params);
    out.transitionStates.push_back(std::move(ts));
  }
  out.setA = {start};
  out.setB = {finish};
  return out;
}

nb::dict connect(Potential& potential, HostIn start, HostIn finish, const ConnectParams& params,
                 double energyTolerance, double geometryTolerance, const std::string& energyUnit,
                 const std::string& lengthUnit, bool characteriseAll,
                 const std::filesystem::path& prmtop, double symmetryTolerance,
                 long long maxSpectrumAtoms, const std::string& hessianBackend) {
  const CharacterisationChoice choice =
      characterisationOf(potential, characteriseAll, prmtop.string(), symmetryTolerance,
                         maxSpectrumAtoms, hessianBackend, "connect");
  const std::size_t n = potential.dimension();
  requireCoordinates(start.size(), n, shapeOf(start), "connect", "start");
  requireCoordinates(finish.size(), n, shapeOf(finish), "connect", "finish");
  requireFinite(start.data(), start.size(), "connect", "start");
  requireFinite(finish.data(), finish.size(), "connect", "finish");
  TransitionNetworkParams networkParams;
  networkParams.energyTolerance = energyTolerance;
  networkParams.geometryTolerance = geometryTolerance;
  // A pair system's structures are compared and aligned as optim does for them: permutations
  // within a species, translations modulo its box (python/PairModels.h).
  ConnectParams connectParams = params;
  restrictAlignment(potential, networkParams.alignment);
  restrictAlignment(potential, connectParams.dneb.alignment);
  restrictTransitionStateSearch(potential, connectParams.transitionStateSearch);
  TransitionNetwork network(networkParams);
  std::vector<double> a(start.data(), start.data() + n), b(finish.data(), finish.data() + n);
  const double ea = potential.energy(a.data()), eb = potential.energy(b.data());
  const int from = network.addMinimum(a, ea).index;
  const TransitionNetwork::Added to = network.addMinimum(b, eb);
  if (!to.isNew)
    throw std::invalid_argument("connect: start and finish are the same minimum (energies " +
                                std::to_string(ea) + " and " + std::to_string(eb) + ")");
  const ConnectResult result = Connect(connectParams).connect(potential, network, from, to.index);
  DatabaseMetadata metadata;
  metadata.potential = potential.name();
  metadata.energyUnit = energyUnit;
  metadata.lengthUnit = lengthUnit;
  metadata.atoms = potential.atomCount();
  metadata.program = "landscape.connect";
  metadata.hessianMasses = choice.hessianMasses();
  nb::dict out = networkToDict(storedNetwork(potential, network, choice, from, to.index), metadata);
  out["status"] = connectStatusName(result.status);
  out["connected"] = result.connected();
  out["cycles"] = result.cycles;
  out["dneb_runs"] = result.dnebRuns;
  out["gradient_calls"] = result.gradientCalls;
  nb::list path;
  for (const PathStep& s : result.path)
    path.append(nb::make_tuple(s.from, s.transitionState, s.to));
  out["path"] = path;
  return out;
}

nb::dict characteriseOne(Potential& potential, HostIn x, const std::filesystem::path& prmtop,
                         double symmetryTolerance, long long maxSpectrumAtoms,
                         const std::string& hessianBackend, double gradientTolerance) {
  requireCoordinates(x.size(), potential.dimension(), shapeOf(x), "characterise", "x");
  const CharacterisationChoice choice =
      characterisationOf(potential, true, prmtop.string(), symmetryTolerance, maxSpectrumAtoms,
                         hessianBackend, "characterise");
  const std::vector<double> point(x.data(), x.data() + x.size());
  // The log product describes a stationary point only (a harmonic well or saddle).
  std::vector<double> g(point.size());
  potential.energyGradient(point.data(), g.data());
  double sum = 0.0;
  for (double v : g) sum += v * v;
  const double rms = std::sqrt(sum / static_cast<double>(g.size()));
  if (!(gradientTolerance > 0.0))
    throw std::invalid_argument("characterise: gradient_tolerance must be positive");
  if (!(rms <= gradientTolerance))
    throw std::invalid_argument("characterise: x is not a stationary point: its RMS gradient is " +
                                numberText(rms) + " (energy/length), above gradient_tolerance " +
                                numberText(gradientTolerance) + "; minimise it first");
  const StationaryPointProperties p = characterise(potential, point, choice.params);
  nb::dict out;
  out["log_product"] = p.logProductOfPositiveEigenvalues;
  out["point_group_order"] = p.pointGroupOrder;
  out["principal_moments"] =
      numpyFrom(std::vector<double>(p.principalMoments.begin(), p.principalMoments.end()), {3});
  out["hessian_eigenvalues"] = numpyFrom(p.hessianEigenvalues, {p.hessianEigenvalues.size()});
  out["hessian_masses"] = choice.hessianMasses();
  return out;
}

}  // namespace

void bindConnect(nb::module_& m) {
  bindConnectParams(m);
  m.def("connect", &connect, "potential"_a, "start"_a, "finish"_a, "params"_a = ConnectParams{},
        "energy_tolerance"_a = 1e-6, "geometry_tolerance"_a = 0.2,
        "energy_unit"_a = "reduced (epsilon)", "length_unit"_a = "reduced (sigma)",
        "characterise"_a = false, "prmtop"_a = "", "symmetry_tolerance"_a = 1e-3,
        "spectrum_max_atoms"_a = 250, "hessian_backend"_a = "cpu",
        "optim's connect between two minima (atoms x 3; minimise them first): DNEB, hybrid "
        "eigenvector-following and descent, cycle by cycle along Dijkstra's path. Returns the "
        "network dict of read_network (Hessian-derived fields unknown unless characterise) plus "
        "'status', "
        "'connected', 'cycles', 'dneb_runs', 'gradient_calls' and 'path' [(minimum, "
        "transition state, minimum), ...]. Minima are the same when their energies differ by "
        "less than energy_tolerance and their aligned distance is below geometry_tolerance. "
        "energy_unit/length_unit label the result (AMBER: 'kcal/mol', 'Angstrom'). "
        "set_a and set_b are [start] and [finish] (0-based), as optim records them. "
        "characterise: every minimum and transition state gets, as optim computes them, the log "
        "product of its positive Hessian eigenvalues (finite-difference Hessian), its point-group "
        "order (within symmetry_tolerance, length unit; optim uses 1e-3 sigma for LJ, 1e-2 "
        "Angstrom for AMBER), principal moments and, up to spectrum_max_atoms atoms, all Hessian "
        "eigenvalues; prmtop: mass-weight the Hessian with its masses (amu) and map atoms only "
        "onto atoms of their element (AMBER, as optim); hessian_backend: 'cpu' or 'cuda' (a "
        "device-resident potential in double precision).");
  m.def("characterise", &characteriseOne, "potential"_a, "x"_a, "prmtop"_a = "",
        "symmetry_tolerance"_a = 1e-3, "spectrum_max_atoms"_a = 250, "hessian_backend"_a = "cpu",
        "gradient_tolerance"_a = 1e-3,
        "One stationary point characterised as optim and connect(..., characterise=True) do: "
        "'log_product' (ln of the product of the positive Hessian eigenvalues, rigid-body modes "
        "and a transition state's negative one left out), 'point_group_order', "
        "'principal_moments', 'hessian_eigenvalues' (all 3N, ascending; empty above "
        "spectrum_max_atoms atoms) and 'hessian_masses' ('unit', or 'amu' with prmtop: the "
        "Hessian mass-weighted with its masses). Arguments as connect's; x must be a "
        "stationary point (RMS gradient at most gradient_tolerance, energy/length).");
}

}  // namespace landscape::python
