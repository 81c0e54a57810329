#include "python/NetworkDict.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "python/Arrays.h"

namespace landscape::python {

namespace {

template <typename Point>
void putPoints(nb::dict& out, const std::string& prefix, const std::vector<Point>& points,
               std::size_t atoms) {
  const std::size_t n = points.size(), width = 3 * atoms;
  std::vector<double> energy, coordinates, logProduct, moments;
  std::vector<std::int64_t> order;
  bool anySpectrum = false;
  for (const Point& p : points) {
    energy.push_back(p.energy);
    coordinates.insert(coordinates.end(), p.coordinates.begin(), p.coordinates.end());
    logProduct.push_back(p.properties.logProductOfPositiveEigenvalues);
    order.push_back(p.properties.pointGroupOrder);
    moments.insert(moments.end(), p.properties.principalMoments.begin(),
                   p.properties.principalMoments.end());
    anySpectrum = anySpectrum || !p.properties.hessianEigenvalues.empty();
  }
  out[(prefix + "_energy").c_str()] = numpyFrom(std::move(energy), {n});
  out[(prefix + "_coordinates").c_str()] = numpyFrom(std::move(coordinates), {n, atoms, 3});
  out[(prefix + "_log_product").c_str()] = numpyFrom(std::move(logProduct), {n});
  out[(prefix + "_point_group_order").c_str()] = numpyOf(std::move(order), {n});
  out[(prefix + "_principal_moments").c_str()] = numpyFrom(std::move(moments), {n, 3});
  if (!anySpectrum) return;
  // As the file stores them: one row of 3N per point, NaN rows where no spectrum was computed.
  std::vector<double> spectra(n * width, std::nan(""));
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<double>& e = points[i].properties.hessianEigenvalues;
    std::copy(e.begin(), e.end(), spectra.begin() + i * width);
  }
  out[(prefix + "_hessian_eigenvalues").c_str()] = numpyFrom(std::move(spectra), {n, width});
}

nb::ndarray<nb::numpy, std::int64_t> pairsArray(const std::vector<std::array<int, 2>>& pairs) {
  std::vector<std::int64_t> values;
  for (const std::array<int, 2>& p : pairs) values.insert(values.end(), {p[0], p[1]});
  return numpyOf(std::move(values), {pairs.size(), 2});
}

/// Column `key` of `data` as doubles (count of them), or `fallback` repeated when absent.
std::vector<double> column(const nb::dict& data, const std::string& key, std::size_t count,
                           double fallback, const std::string& what) {
  if (!data.contains(key.c_str())) return std::vector<double>(count, fallback);
  HostIn a;
  if (!nb::try_cast(data[key.c_str()], a))
    throw std::invalid_argument(what + ": '" + key + "' is not an array of numbers");
  requireValues(a.size(), count, shapeOf(a), what, "'" + key + "'");
  return std::vector<double>(a.data(), a.data() + a.size());
}

/// An integer-valued column entry: refuses fractions and values outside [low, high].
long integral(double v, double low, double high, const std::string& what, const std::string& key,
              std::size_t row) {
  if (!(v >= low && v <= high) || v != std::floor(v))
    throw std::invalid_argument(what + ": '" + key + "' row " + std::to_string(row) + " holds " +
                                numberText(v) + ", not an integer in [" +
                                std::to_string(static_cast<long long>(low)) + ", " +
                                std::to_string(static_cast<long long>(high)) + "]");
  return static_cast<long>(v);
}

template <typename Point>
std::vector<Point> takePoints(const nb::dict& data, const std::string& prefix, std::size_t atoms,
                              const std::string& what, bool coordinates) {
  const std::string energyKey = prefix + "_energy";
  if (!data.contains(energyKey.c_str()))
    throw std::invalid_argument(what + ": the network has no '" + energyKey + "'");
  HostIn energy;
  if (!nb::try_cast(data[energyKey.c_str()], energy) || energy.ndim() != 1)
    throw std::invalid_argument(what + ": '" + energyKey + "' must be a one-dimensional array");
  const std::size_t n = energy.size(), w = coordinates ? 3 * atoms : 0;
  const double nan = std::nan("");
  const std::vector<double> x =
      coordinates ? column(data, prefix + "_coordinates", n * w, nan, what) : std::vector<double>();
  const std::vector<double> logProduct = column(data, prefix + "_log_product", n, nan, what);
  const std::vector<double> order = column(data, prefix + "_point_group_order", n, 0, what);
  const std::vector<double> moments = column(data, prefix + "_principal_moments", 3 * n, nan, what);
  const std::string spectrumKey = prefix + "_hessian_eigenvalues";
  const std::vector<double> spectra = coordinates && data.contains(spectrumKey.c_str())
                                          ? column(data, spectrumKey, n * w, nan, what)
                                          : std::vector<double>();
  std::vector<Point> points(n);
  for (std::size_t i = 0; i < n; ++i) {
    points[i].energy = energy.data()[i];
    if (coordinates) points[i].coordinates.assign(x.begin() + i * w, x.begin() + (i + 1) * w);
    points[i].properties.logProductOfPositiveEigenvalues = logProduct[i];
    points[i].properties.pointGroupOrder =
        static_cast<int>(integral(order[i], 0, 1000000, what, prefix + "_point_group_order", i));
    for (int k = 0; k < 3; ++k) points[i].properties.principalMoments[k] = moments[3 * i + k];
    if (!spectra.empty() && !std::isnan(spectra[i * w]))
      points[i].properties.hessianEigenvalues.assign(spectra.begin() + i * w,
                                                     spectra.begin() + (i + 1) * w);
  }
  return points;
}

std::string metaString(const nb::dict& meta, const char* key, const std::string& fallback,
                       const std::string& what) {
  if (!meta.contains(key)) return fallback;
  std::string value;
  if (!nb::try_cast(meta[key], value))
    throw std::invalid_argument(what + ": metadata['" + std::string(key) + "'] must be a string");
  return value;
}

std::vector<std::array<int, 2>> pairsFrom(const nb::dict& growth, const char* key,
                                          std::size_t minima, const std::string& what) {
  if (!growth.contains(key)) return {};
  HostIn a;
  if (!nb::try_cast(growth[key], a))
    throw std::invalid_argument(what + ": growth['" + std::string(key) + "'] is not an array");
  if (a.size() % 2)
    throw std::invalid_argument(what + ": growth['" + std::string(key) + "'] has shape " +
                                shapeText(shapeOf(a)) + ", not (k, 2)");
  std::vector<std::array<int, 2>> pairs(a.size() / 2);
  for (std::size_t i = 0; i < a.size(); ++i)
    pairs[i / 2][i % 2] = static_cast<int>(
        integral(a.data()[i], 0, double(minima) - 1, what, "growth." + std::string(key), i / 2));
  return pairs;
}

}  // namespace

nb::dict networkToDict(const StoredTransitionNetwork& network, const DatabaseMetadata& metadata) {
  nb::dict out, meta;
  meta["potential"] = metadata.potential;
  meta["energy_unit"] = metadata.energyUnit;
  meta["length_unit"] = metadata.lengthUnit;
  meta["atoms"] = metadata.atoms;
  meta["program"] = metadata.program;
  meta["created_by"] = metadata.createdBy;
  meta["hessian_masses"] = metadata.hessianMasses;
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
    ends.insert(ends.end(), {t.plusMinimum, t.minusMinimum});
    eigenvalue.push_back(t.eigenvalue);
  }
  const std::size_t n = network.minima.size(), m = network.transitionStates.size();
  out["minima_first_found_step"] = numpyOf(std::move(found), {n});
  out["minima_function_calls"] = numpyOf(std::move(calls), {n});
  out["ts_minima"] = numpyOf(std::move(ends), {m, 2});
  out["ts_eigenvalue"] = numpyFrom(std::move(eigenvalue), {m});
  out["set_a"] = numpyOf(std::vector<std::int64_t>(network.setA.begin(), network.setA.end()),
                         {network.setA.size()});
  out["set_b"] = numpyOf(std::vector<std::int64_t>(network.setB.begin(), network.setB.end()),
                         {network.setB.size()});
  if (!network.growth.empty()) {
    nb::dict growth;
    growth["cycles"] = network.growth.cycles;
    growth["settings"] = network.growth.settings;
    growth["tried_pairs"] = pairsArray(network.growth.triedPairs);
    growth["pending_pairs"] = pairsArray(network.growth.pendingPairs);
    out["growth"] = growth;
  }
  return out;
}

StoredTransitionNetwork networkFromDict(const nb::dict& data, DatabaseMetadata& metadata,
                                        const std::string& what, bool coordinates) {
  nb::dict meta;
  if (!data.contains("metadata") || !nb::try_cast(data["metadata"], meta))
    throw std::invalid_argument(what + ": the network has no 'metadata' dict");
  metadata.potential = metaString(meta, "potential", "python", what);
  metadata.energyUnit = metaString(meta, "energy_unit", "", what);
  metadata.lengthUnit = metaString(meta, "length_unit", "", what);
  metadata.program = metaString(meta, "program", "python", what);
  metadata.createdBy = metaString(meta, "created_by", metadata.createdBy, what);
  metadata.hessianMasses = metaString(meta, "hessian_masses", kUnitMasses, what);
  long long atoms = 0;
  // atoms = 0: a kinetics-only network (PATHSAMPLE's NOPOINTS; KineticsOnlyDatabase.h).
  if (!meta.contains("atoms") || !nb::try_cast(meta["atoms"], atoms) || atoms < 0)
    throw std::invalid_argument(what +
                                ": metadata['atoms'] must be an integer >= 0 (0: a "
                                "kinetics-only network, without coordinates)");
  metadata.atoms = static_cast<std::size_t>(atoms);
  StoredTransitionNetwork network;
  network.minima =
      takePoints<StoredNetworkMinimum>(data, "minima", metadata.atoms, what, coordinates);
  network.transitionStates =
      takePoints<StoredTransitionState>(data, "ts", metadata.atoms, what, coordinates);
  const std::size_t n = network.minima.size(), m = network.transitionStates.size();
  const std::vector<double> found = column(data, "minima_first_found_step", n, -1, what);
  const std::vector<double> calls = column(data, "minima_function_calls", n, -1, what);
  for (std::size_t i = 0; i < n; ++i) {
    network.minima[i].firstFoundStep =
        integral(found[i], -1, 9e15, what, "minima_first_found_step", i);
    network.minima[i].functionCalls =
        integral(calls[i], -1, 9e15, what, "minima_function_calls", i);
  }
  if (m > 0 && !data.contains("ts_minima"))
    throw std::invalid_argument(what + ": the network has transition states but no 'ts_minima'");
  const std::vector<double> ends = column(data, "ts_minima", 2 * m, -1, what);
  const std::vector<double> eigenvalue = column(data, "ts_eigenvalue", m, std::nan(""), what);
  for (std::size_t t = 0; t < m; ++t) {
    for (int side = 0; side < 2; ++side) {
      const double e = ends[2 * t + side];
      if (!(e >= 0 && e < double(n)) || e != std::floor(e))
        throw std::invalid_argument(what + ": ts_minima[" + std::to_string(t) + "] names minimum " +
                                    numberText(e) + ", not one of the network's " +
                                    std::to_string(n) + " minima (0-based: 0 to " +
                                    std::to_string(static_cast<long long>(n) - 1) + ")");
    }
    network.transitionStates[t].plusMinimum = static_cast<int>(ends[2 * t]);
    network.transitionStates[t].minusMinimum = static_cast<int>(ends[2 * t + 1]);
    network.transitionStates[t].eigenvalue = eigenvalue[t];
  }
  for (const char* key : {"set_a", "set_b"}) {
    if (!data.contains(key)) continue;
    const nb::object set = data[key];
    if (set.is_none() || (nb::hasattr(set, "__len__") && nb::len(set) == 0)) continue;
    (key[4] == 'a' ? network.setA : network.setB) = minimaSet(set, n, what, key);
  }
  nb::dict growth;
  if (data.contains("growth") && !data["growth"].is_none()) {
    if (!nb::try_cast(data["growth"], growth))
      throw std::invalid_argument(what +
                                  ": 'growth' must be a dict (cycles, settings, "
                                  "tried_pairs, pending_pairs)");
    long long cycles = 0;
    if (growth.contains("cycles") && (!nb::try_cast(growth["cycles"], cycles) || cycles < 0))
      throw std::invalid_argument(what + ": growth['cycles'] must be an integer >= 0");
    network.growth.cycles = static_cast<int>(cycles);
    if (growth.contains("settings") && !nb::try_cast(growth["settings"], network.growth.settings))
      throw std::invalid_argument(what + ": growth['settings'] must be a string");
    network.growth.triedPairs = pairsFrom(growth, "tried_pairs", n, what);
    network.growth.pendingPairs = pairsFrom(growth, "pending_pairs", n, what);
  }
  return network;
}

std::vector<int> minimaSet(nb::handle values, std::size_t minima, const std::string& what,
                           const std::string& name) {
  std::vector<int> set;
  std::vector<bool> seen(minima, false);
  // numpy's indices, as the network's arrays use them; min.data's line i + 1 is minimum i.
  const std::string range =
      "0-based minima: 0 to " + std::to_string(static_cast<long long>(minima) - 1);
  if (!nb::hasattr(values, "__iter__") || nb::isinstance<nb::str>(values))
    throw std::invalid_argument(what + ": " + name + " must be a sequence of minima (" + range +
                                ")");
  for (nb::handle item : values) {
    long long m = 0;
    if (!nb::try_cast(item, m))
      throw std::invalid_argument(what + ": " + name + " holds " +
                                  nb::cast<std::string>(nb::repr(item)) +
                                  ", not an integer minimum (" + range + ")");
    if (m < 0 || m >= static_cast<long long>(minima))
      throw std::invalid_argument(what + ": " + name + " holds minimum " + std::to_string(m) +
                                  ", not in the network of " + std::to_string(minima) +
                                  " minima (" + range + ")");
    if (seen[m])
      throw std::invalid_argument(what + ": " + name + " lists minimum " + std::to_string(m) +
                                  " twice");
    seen[m] = true;
    set.push_back(static_cast<int>(m));
  }
  if (set.empty()) throw std::invalid_argument(what + ": " + name + " is empty");
  return set;
}

StoredTransitionState storedTransitionState(const NetworkTransitionState& t) {
  StoredTransitionState ts;
  ts.energy = t.energy;
  ts.coordinates = t.coordinates;
  ts.plusMinimum = t.plusMinimum;
  ts.minusMinimum = t.minusMinimum;
  ts.eigenvalue = t.eigenvalue;
  return ts;
}

}  // namespace landscape::python
