// Kinetics of a transition network from Python, as `pathsample rates`, `committors` and `regroup`
// compute them (docs/pathsample.md): harmonic rates (landscape/network/HarmonicRates), the graph
// transformation NGT (Trygubenko and Wales, J. Chem. Phys. 124, 234110 (2006); Wales, J. Chem.
// Phys. 130, 204111 (2009); landscape/network/GraphTransformation), free-energy regrouping
// (PATHSAMPLE's REGROUPFREE; FreeEnergyGroups, GroupRateGraph). The network is the dict of
// read_network; minima are numpy's 0-based rows. landscape/network.py wraps these as methods of
// Network.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "landscape/network/FreeEnergyGroups.h"
#include "landscape/network/GraphTransformation.h"
#include "landscape/network/GroupRateGraph.h"
#include "landscape/network/HarmonicRates.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/KineticUnits.h"
#include "python/NetworkDict.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

std::string number(double v) { return numberText(v); }

struct Problem {
  DatabaseMetadata metadata;
  StoredTransitionNetwork network;
  KineticUnits units;
  std::vector<int> a, b;
};

Problem problemOf(const nb::dict& data, double temperature, nb::handle a, nb::handle b,
                  const std::string& units, const std::string& what) {
  Problem p;
  p.network = networkFromDict(data, p.metadata, what, false);
  p.units = unitsOf(units, p.metadata, what);
  requireTemperature(temperature, p.units, what);
  const std::size_t n = p.network.minima.size();
  const auto set = [&](nb::handle given, const std::vector<int>& stored, const char* name) {
    if (!given.is_none()) return minimaSet(given, n, what, name);
    if (stored.empty())
      throw std::invalid_argument(what + ": no set " + std::string(name) +
                                  " given and the network has no endpoint set (set_" + name + ")");
    return stored;
  };
  p.a = set(a, p.network.setA, "a");
  p.b = set(b, p.network.setB, "b");
  for (int m : p.a)
    if (std::find(p.b.begin(), p.b.end(), m) != p.b.end())
      throw std::invalid_argument(what + ": minimum " + std::to_string(m) +
                                  " (0-based) is in both a and b; the sets must be disjoint");
  requireCharacterised(p.network.minima, "minimum", what);
  requireCharacterised(p.network.transitionStates, "transition state", what);
  return p;
}

/// NGT, with 'not connected' (std::runtime_error) as a ValueError: the sets are the caller's.
GraphTransformationResult transform(const RateGraph& graph, const std::vector<int>& a,
                                    const std::vector<int>& b, const std::string& what) {
  try {
    return graphTransformationRates(graph, a, b);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(what + ": " + e.what());
  }
}

nb::dict ratesDict(const GraphTransformationResult& r, double factor) {
  // The graph transformation works in logarithms: the log_ fields always hold the answer. Where
  // a value lies beyond double precision (low temperatures, high barriers) the linear fields are
  // None, never 0, inf or NaN, and 'representable' is False.
  const SetToSetRates ab = r.aFromB.inUnits(factor), ba = r.bFromA.inUnits(factor);
  const bool representable = ab.representable() && ba.representable();
  const std::pair<const char*, double> linear[] = {
      {"k_ab", ab.k},       {"k_ba", ba.k},       {"kss_ab", ab.kSS},
      {"kss_ba", ba.kSS},   {"knss_ab", ab.kNSS}, {"knss_ba", ba.kNSS},
      {"mfpt_ab", ab.meanFirstPassageTime}, {"mfpt_ba", ba.meanFirstPassageTime}};
  const double logs[] = {ab.logK,    ba.logK,    ab.logKSS, ba.logKSS, ab.logKNSS,
                         ba.logKNSS, ab.logMeanFirstPassageTime, ba.logMeanFirstPassageTime};
  nb::dict out;
  for (int i = 0; i < 8; ++i) {
    if (representable)
      out[linear[i].first] = linear[i].second;
    else
      out[linear[i].first] = nb::none();
    out[(std::string("log_") + linear[i].first).c_str()] = logs[i];
  }
  out["representable"] = representable;
  out["log_occupation_a"] = r.logOccupationA;
  out["log_occupation_b"] = r.logOccupationB;
  out["connected_minima"] = r.connectedNodes;
  nb::dict balance;
  balance["k"] = r.detailedBalanceK();
  balance["kss"] = r.detailedBalanceKSS();
  balance["knss"] = r.detailedBalanceKNSS();
  out["detailed_balance"] = balance;
  return out;
}

FreeEnergyGroups groupsAt(const Problem& p, double temperature, double threshold, double planck,
                          const std::string& what) {
  if (!(threshold >= 0.0) || !std::isfinite(threshold))
    throw std::invalid_argument(what +
                                ": the regrouping threshold must be >= 0 and finite "
                                "(energy unit), got " +
                                number(threshold));
  const double h = p.units.planck(planck);
  if (!(h >= 0.0) || !std::isfinite(h))
    throw std::invalid_argument(what + ": planck must be >= 0 and finite, got " + number(planck));
  return regroupFreeEnergy(p.network, p.units.kT(temperature), threshold, h);
}

nb::dict networkRates(const nb::dict& data, double temperature, nb::handle a, nb::handle b,
                      const std::string& units, double regroupThreshold, double planck) {
  const std::string what = "rates";
  const Problem p = problemOf(data, temperature, a, b, units, what);
  const RateGraph minima = harmonicRateGraph(p.network, p.units.kT(temperature));
  const std::string at = " at T= " + number(temperature);
  GraphTransformationResult r;
  long long groupCount = -1;
  if (std::isnan(regroupThreshold)) {
    r = transform(minima, p.a, p.b, what);
  } else {
    const FreeEnergyGroups groups = groupsAt(p, temperature, regroupThreshold, planck, what);
    const std::vector<int> ga = groupsOf(p.a, groups), gb = groupsOf(p.b, groups);
    for (int g : ga)
      if (std::find(gb.begin(), gb.end(), g) != gb.end())
        throw std::invalid_argument(what + ": regrouping" + at + " and threshold " +
                                    number(regroupThreshold) +
                                    " puts minima of a and b into one "
                                    "group (group " +
                                    std::to_string(g) +
                                    ", 0-based); lower "
                                    "regroup_threshold");
    r = transform(groupRateGraph(minima, groups), ga, gb, what);
    groupCount = static_cast<long long>(groups.members.size());
  }
  nb::dict out = ratesDict(r, p.units.rateFactor());
  out["temperature"] = temperature;
  out["kT"] = p.units.kT(temperature);
  out["units"] = p.units.name();
  out["rate_unit"] = p.units.rateUnit();
  out["time_unit"] = p.units.timeUnit();
  out["a"] = p.a;
  out["b"] = p.b;
  if (groupCount >= 0) out["groups"] = groupCount;
  return out;
}

NumpyArray networkCommittors(const nb::dict& data, double temperature, nb::handle a, nb::handle b,
                             const std::string& units) {
  const Problem p = problemOf(data, temperature, a, b, units, "committors");
  const GraphTransformationResult r =
      transform(harmonicRateGraph(p.network, p.units.kT(temperature)), p.a, p.b, "committors");
  return numpyFrom(r.committorA, {r.committorA.size()});
}

nb::dict networkRegroup(const nb::dict& data, double threshold, double temperature,
                        const std::string& units, double planck) {
  const std::string what = "regroup";
  Problem p;
  p.network = networkFromDict(data, p.metadata, what, false);
  p.units = unitsOf(units, p.metadata, what);
  requireTemperature(temperature, p.units, what);
  requireCharacterised(p.network.minima, "minimum", what);
  requireCharacterised(p.network.transitionStates, "transition state", what);
  const FreeEnergyGroups groups = groupsAt(p, temperature, threshold, planck, what);
  nb::dict out;
  std::vector<std::int64_t> of(groups.groupOfMinimum.begin(), groups.groupOfMinimum.end());
  out["group_of_minimum"] = numpyOf(std::move(of), {groups.groupOfMinimum.size()});
  out["free_energy"] = numpyFrom(groups.freeEnergy, {groups.freeEnergy.size()});
  nb::list members;
  for (const std::vector<int>& g : groups.members) {
    members.append(numpyOf(std::vector<std::int64_t>(g.begin(), g.end()), {g.size()}));
  }
  out["members"] = members;
  return out;
}

nb::dict graphRates(int nodes, HostIn edges, HostIn rates, nb::handle a, nb::handle b,
                    nb::handle logEquilibrium) {
  const std::string what = "graph_rates";
  if (nodes < 1) throw std::invalid_argument(what + ": nodes must be >= 1");
  requireValues(edges.size(), 2 * rates.size(), shapeOf(edges), what, "edges (k, 2)");
  RateGraph graph;
  graph.nodes = nodes;
  for (std::size_t e = 0; e < rates.size(); ++e) {
    const double from = edges.data()[2 * e], to = edges.data()[2 * e + 1], k = rates.data()[e];
    for (double node : {from, to})
      if (!(node >= 0 && node < nodes) || node != std::floor(node))
        throw std::invalid_argument(what + ": edge " + std::to_string(e) + " names node " +
                                    number(node) + ", not one of 0 to " +
                                    std::to_string(nodes - 1));
    if (!(k > 0.0) || !std::isfinite(k))
      throw std::invalid_argument(what + ": edge " + std::to_string(e) + " has rate " + number(k) +
                                  "; rates must be positive and finite");
    graph.edges.push_back({static_cast<int>(from), static_cast<int>(to), std::log(k)});
  }
  if (!logEquilibrium.is_none()) {
    const HostIn w = nb::cast<HostIn>(logEquilibrium);
    requireValues(w.size(), static_cast<std::size_t>(nodes), shapeOf(w), what, "log_equilibrium");
    for (std::size_t i = 0; i < w.size(); ++i)
      if (!std::isfinite(w.data()[i]))
        throw std::invalid_argument(what + ": log_equilibrium[" + std::to_string(i) +
                                    "] is not finite");
    graph.logEquilibrium.assign(w.data(), w.data() + w.size());
  }
  const std::vector<int> sa = minimaSet(a, nodes, what, "a"), sb = minimaSet(b, nodes, what, "b");
  for (int m : sa)
    if (std::find(sb.begin(), sb.end(), m) != sb.end())
      throw std::invalid_argument(what + ": node " + std::to_string(m) +
                                  " is in both a and b; the sets must be disjoint");
  const GraphTransformationResult r = transform(graph, sa, sb, what);
  nb::dict out = ratesDict(r, 1.0);
  out["committor_a"] = numpyFrom(r.committorA, {r.committorA.size()});
  return out;
}

}  // namespace

void bindKinetics(nb::module_& m) {
  const double nan = std::nan("");
  m.def("network_rates", &networkRates, "network"_a, "temperature"_a, "a"_a = nb::none(),
        "b"_a = nb::none(), "units"_a = "auto", "regroup_threshold"_a = nan, "planck"_a = nan,
        "pathsample rates on a read_network dict: harmonic rates and the graph transformation "
        "(NGT). Returns a dict: k_ab, kss_ab, knss_ab (PATHSAMPLE's k(A<-B): from b to a), "
        "k_ba, kss_ba, knss_ba (k(B<-A)), mfpt_ab, mfpt_ba, their natural logarithms log_k_ab, "
        "... (always), representable (False: a value lies beyond double precision and the "
        "linear fields are None), detailed_balance, connected_minima, "
        "... a, b: 0-based minima (default the network's set_a, set_b). units: 'reduced' "
        "(temperature = kT in the energy unit, rates in reduced time^-1), 'molecular' (K, s^-1; "
        "kT and the frequency unit in the network's kcal/mol or kJ/mol) or 'auto' (molecular "
        "when hessian_masses is 'amu'). regroup_threshold: rates between free-energy groups "
        "(REGROUPFREE); planck: h (energy unit x s for molecular; NaN: default).");
  m.def("network_committors", &networkCommittors, "network"_a, "temperature"_a, "a"_a = nb::none(),
        "b"_a = nb::none(), "units"_a = "auto",
        "Committor probabilities to a before b of every minimum (NaN: not connected to both).");
  m.def("network_regroup", &networkRegroup, "network"_a, "threshold"_a, "temperature"_a,
        "units"_a = "auto", "planck"_a = nan,
        "Free-energy groups (PATHSAMPLE's REGROUPFREE): group_of_minimum (0-based), "
        "free_energy, members.");
  m.def("graph_rates", &graphRates, "nodes"_a, "edges"_a, "rates"_a, "a"_a, "b"_a,
        "log_equilibrium"_a = nb::none(),
        "NGT on a bare rate graph: edges (k, 2) of 0-based nodes with rates k(from -> to) "
        "(positive), optional ln equilibrium weights (default equal). Returns the dict of "
        "network_rates in the rates' unit plus committor_a.");
}

}  // namespace landscape::python
