// The transition-network algorithms of landscape/paths on their own, for any potential (Python
// ones included): DNEB (Trygubenko and Wales, J. Chem. Phys. 120, 2082 (2004)), hybrid
// eigenvector-following (Munro and Wales, Phys. Rev. B 59, 3969 (1999)), the descent from a
// transition state to its two minima, and PATHSAMPLE's network growth (Wales, Mol. Phys. 100, 3285
// (2002)) with the library's pair selections (UNTRAP, SHORTCUT, DIJPAIR) and connect runs
// (landscape/paths/ConnectJobs). Units are the potential's: reduced (epsilon, sigma) for
// Lennard-Jones, kcal/mol and Angstrom for AMBER-GB and SOP.
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "landscape/core/ThreadPool.h"
#include "landscape/network/GrowthPairs.h"
#include "landscape/network/KineticPathPairs.h"
#include "landscape/network/UntrapPairs.h"
#include "landscape/paths/ConnectJobs.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "landscape/paths/TransitionStateDescent.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/CharacterisationChoice.h"
#include "python/KineticUnits.h"
#include "python/NetworkDict.h"
#include "python/PairModels.h"
#include "python/Params.h"

namespace landscape::python {

namespace {

using namespace nb::literals;
using Pair = std::array<int, 2>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A checked copy of a search's start: the potential's values, shaped (atoms, 3) or flat, finite.
std::vector<double> startOf(const Potential& potential, const HostIn& x, const std::string& what,
                            const std::string& name) {
  requireCoordinates(x.size(), potential.dimension(), shapeOf(x), what, name);
  requireFinite(x.data(), x.size(), what, name);
  return std::vector<double>(x.data(), x.data() + x.size());
}

/// `count` structures shaped as one (`shape`), stacked: (count, atoms, 3) or (count, values).
std::vector<std::size_t> stacked(std::size_t count, const std::vector<std::size_t>& shape) {
  std::vector<std::size_t> out{count};
  out.insert(out.end(), shape.begin(), shape.end());
  return out;
}

// ---- DNEB ----

void bindDnebParams(nb::module_& m) {
  using P = DnebParams;
  ParamsClass<P>(m, "DnebParams",
                 "Doubly nudged elastic band settings (Trygubenko and Wales, J. Chem. Phys. 120, "
                 "2082 (2004); OPTIM's NEB keywords). Units are the potential's: length sigma and "
                 "energy epsilon for Lennard-Jones, Angstrom and kcal/mol for AMBER-GB and SOP. "
                 "The defaults are OPTIM's (the band grows with the endpoint distance).")
      .field("images", &P::images,
             "interior images; 0 = image_density x endpoint distance, within [min_images, "
             "max_images]")
      .field("image_density", &P::imageDensity,
             "images per unit endpoint distance (1/length; OPTIM's ImageDensity)")
      .field("min_images", &P::minImages, "fewest distance-scaled interior images (>= 1)")
      .field("max_images", &P::maxImages, "most distance-scaled interior images (ImageMax)")
      .field("iterations", &P::iterations,
             "L-BFGS iterations of the band; 0 = iteration_density x images, at most "
             "max_iterations")
      .field("iteration_density", &P::iterationDensity, "iterations per image (IterDensity)")
      .field("max_iterations", &P::maxIterations, "cap on the scaled iteration count")
      .field("spring_constant", &P::springConstant,
             "initial spring constant k (energy/length^2; OPTIM's NEBK)")
      .field("spring_adjust_factor", &P::springAdjustFactor,
             "k is multiplied or divided by this after every iteration to even the image "
             "spacing (dimensionless, >= 1; 1 keeps k fixed)")
      .field("spacing_tolerance", &P::spacingTolerance,
             "mean relative deviation of the image spacings that k is steered to "
             "(dimensionless, > 0)")
      .field("rms_tolerance", &P::rmsTolerance,
             "converged when the RMS band gradient over all images is below this (energy/length)")
      .field("max_step_per_image", &P::maxStepPerImage,
             "largest displacement of one image per step (length)")
      .field("initial_guess", &P::initialGuess,
             "H0 of the first L-BFGS step (length^2/energy; OPTIM's NEB DGUESS)")
      .field("history_size", &P::historySize, "L-BFGS m (>= 1)")
      .field("doubly_nudged", &P::doublyNudged,
             "keep the doubly nudged part of the perpendicular spring gradient (False: NEB)")
      .field("segment_springs", &P::segmentSprings,
             "parallel spring gradient from the segment lengths, -k (|x_{i+1} - x_i| - |x_i - "
             "x_{i-1}|) tau, as OPTIM (False: the projection of the spring gradient)")
      .field("cold_fusion_drop", &P::coldFusionDrop,
             "a step that takes an image more than this below the lower endpoint is rejected "
             "(energy; inf = off)")
      .field("align_endpoints", &P::alignEndpoints,
             "align finish onto start first (translation, rotation, permutation, inversion; "
             "needs 3N Cartesian coordinates)")
      .done();
}

nb::dict dneb(Potential& potential, HostIn start, HostIn finish, const DnebParams& params) {
  const std::vector<double> a = startOf(potential, start, "dneb", "start");
  const std::vector<double> b = startOf(potential, finish, "dneb", "finish");
  // A pair system's endpoints are aligned as optim aligns them: permutations within a species,
  // translations modulo its box (python/PairModels.h).
  DnebParams adapted = params;
  restrictAlignment(potential, adapted.alignment);
  const DnebResult r = Dneb(adapted).run(potential, a, b);
  const std::size_t n = potential.dimension(), count = r.images.size();
  std::vector<double> images, tangents(count * n, 0.0);
  for (std::size_t i = 0; i < count; ++i) {
    images.insert(images.end(), r.images[i].begin(), r.images[i].end());
    // Endpoints have none: zero rows, so that tangents[c] belongs to images[c].
    if (r.tangents[i].size() == n)
      std::copy(r.tangents[i].begin(), r.tangents[i].end(), tangents.begin() + i * n);
  }
  const std::vector<std::size_t> shape = stacked(count, shapeOf(start));
  nb::dict out;
  out["images"] = numpyFrom(std::move(images), shape);
  out["energies"] = numpyFrom(r.energies, {r.energies.size()});
  out["tangents"] = numpyFrom(std::move(tangents), shape);
  nb::list candidates;
  for (int c : r.candidates) candidates.append(c);
  out["candidates"] = candidates;
  out["path_length"] = r.pathLength;
  out["endpoint_distance"] = r.endpointDistance;
  out["mean_spacing_deviation"] = r.meanSpacingDeviation;
  out["rms_gradient"] = r.rmsGradient;
  out["spring_constant"] = r.springConstant;
  out["interior_images"] = r.interiorImages;
  out["iteration_limit"] = r.iterationLimit;
  out["iterations"] = r.iterations;
  out["function_calls"] = r.functionCalls;
  out["cold_fusion_steps"] = r.coldFusionSteps;
  out["status"] = lbfgsStatusName(r.status);
  out["converged"] = r.converged();
  return out;
}

// ---- hybrid eigenvector-following ----

void bindTransitionStateParams(nb::module_& m) {
  using P = HybridEigenvectorFollowingParams;
  ParamsClass<P>(m, "TransitionStateParams",
                 "Hybrid eigenvector-following settings (Munro and Wales, Phys. Rev. B 59, 3969 "
                 "(1999); Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 3.3). "
                 "Units are the potential's: length sigma and energy epsilon for Lennard-Jones, "
                 "Angstrom and kcal/mol for AMBER-GB and SOP. The eigenvector search and the "
                 "tangent-space L-BFGS keep the library's defaults.")
      .field("rms_tolerance", &P::rmsTolerance,
             "converged when the RMS gradient is below this (energy/length) ...")
      .field("step_tolerance", &P::stepTolerance,
             "... and the uphill step is below this (length), with a negative eigenvalue")
      .field("max_iterations", &P::maxIterations, "eigenvector-following iterations")
      .field("initial_uphill_step", &P::initialUphillStep, "first maximum uphill step (length)")
      .field("min_uphill_step", &P::minUphillStep,
             "the trust ratio keeps the maximum uphill step above this (length)")
      .field("max_uphill_step", &P::maxUphillStep, "... and below this (length)")
      .field("trust_ratio", &P::trustRatio,
             "relative error of the predicted gradient change tolerated before the maximum step "
             "shrinks (dimensionless, > 0)")
      .field("overlap_convergence", &P::overlapConvergence,
             "the eigenvector has converged once |v . v_old| exceeds this (in (0, 1])")
      .field("tangent_iterations_before", &P::tangentIterationsBefore,
             "tangent-space L-BFGS iterations per step while the eigenvector still turns")
      .field("tangent_iterations_after", &P::tangentIterationsAfter, "... once it has converged")
      .field("seed", &P::seed, "of the random first eigenvector when no guess is given")
      .done();
}

nb::dict findTransitionState(Potential& potential, HostIn x, const std::optional<HostIn>& guess,
                             const HybridEigenvectorFollowingParams& params) {
  const std::string what = "find_transition_state";
  const std::vector<double> start = startOf(potential, x, what, "x");
  std::vector<double> v;
  if (guess) {
    v = startOf(potential, *guess, what, "eigenvector_guess");
    if (std::all_of(v.begin(), v.end(), [](double e) { return e == 0.0; }))
      throw std::invalid_argument(what +
                                  ": eigenvector_guess is zero; give a direction (e.g. a "
                                  "DNEB tangent) or None for a random one");
  }
  HybridEigenvectorFollowingParams adapted = params;
  restrictTransitionStateSearch(potential, adapted);  // a box: translations alone (PairModels.h)
  const TransitionStateResult r =
      HybridEigenvectorFollowing(adapted).findTransitionState(potential, start, v);
  nb::dict out;
  out["energy"] = r.energy;
  out["coordinates"] = numpyFrom(r.coordinates, shapeOf(x));
  out["eigenvalue"] = r.eigenvalue;
  if (r.eigenvector.size() == start.size())
    out["eigenvector"] = numpyFrom(r.eigenvector, shapeOf(x));
  else
    out["eigenvector"] = nb::none();
  out["rms_gradient"] = r.rmsGradient;
  out["last_uphill_step"] = r.lastUphillStep;
  out["iterations"] = r.iterations;
  out["gradient_calls"] = r.gradientCalls;
  out["status"] = transitionStateStatusName(r.status);
  out["converged"] = r.converged();
  return out;
}

// ---- descent ----

nb::dict sideDict(const DescentSide& s, const std::vector<std::size_t>& shape) {
  nb::dict out;
  out["coordinates"] = numpyFrom(s.coordinates, shape);
  out["energy"] = s.energy;
  out["converged"] = s.converged();
  out["iterations"] = s.minimisation.iterations;
  out["function_calls"] = s.minimisation.functionCalls;
  out["rms_gradient"] = s.minimisation.rmsGradient;
  out["status"] = lbfgsStatusName(s.minimisation.status);
  out["pushoff"] = s.pushoff;
  return out;
}

nb::dict descend(Potential& potential, HostIn ts, HostIn eigenvector, double pushoff,
                 int maxPushoffDoublings, const std::optional<LbfgsParams>& minimiser) {
  const std::string what = "descend";
  const std::vector<double> x = startOf(potential, ts, what, "transition_state");
  const std::vector<double> v = startOf(potential, eigenvector, what, "eigenvector");
  if (std::all_of(v.begin(), v.end(), [](double e) { return e == 0.0; }))
    throw std::invalid_argument(what + ": eigenvector is zero");
  TransitionStateDescentParams params;
  params.pushoff = pushoff;
  params.maxPushoffDoublings = maxPushoffDoublings;
  if (minimiser) params.minimiser = *minimiser;
  const TransitionStateDescentResult r = TransitionStateDescent(params).descend(potential, x, v);
  nb::dict out;
  out["plus"] = sideDict(r.plus, shapeOf(ts));
  out["minus"] = sideDict(r.minus, shapeOf(ts));
  out["converged"] = r.converged();
  return out;
}

// ---- network growth ----

/// The caller's potential behind the unique_ptr a connect job owns: growth runs one job at a time
/// on the calling thread (a pool of one thread), so the jobs may share it.
class BorrowedPotential : public Potential {
 public:
  explicit BorrowedPotential(Potential& p) : m_p(p) {}
  std::size_t dimension() const override { return m_p.dimension(); }
  std::string name() const override { return m_p.name(); }
  Backend backend() const override { return m_p.backend(); }
  double energy(const double* x) override { return m_p.energy(x); }
  double energyGradient(const double* x, double* g) override { return m_p.energyGradient(x, g); }
  void energyGradients(std::size_t count, const double* x, double* g, double* e) override {
    m_p.energyGradients(count, x, g, e);
  }
  std::vector<EnergyComponent> energyComponents(const double* x) override {
    return m_p.energyComponents(x);
  }
  bool perAtomEnergies(const double* x, double* e) override { return m_p.perAtomEnergies(x, e); }
  bool isDeviceResident() const override { return m_p.isDeviceResident(); }
  double energyGradientDevice(const double* x, double* g) override {
    return m_p.energyGradientDevice(x, g);
  }
  bool hasGradientMetric() const override { return m_p.hasGradientMetric(); }
  double rmsGradient(const double* x, const double* g) override { return m_p.rmsGradient(x, g); }
  double rmsGradientDevice(const double* x, const double* g) override {
    return m_p.rmsGradientDevice(x, g);
  }
  bool overallMotionModes(const double* x, std::vector<double>& modes) const override {
    return m_p.overallMotionModes(x, modes);
  }
  bool diagonalMetric(std::vector<double>& w) const override { return m_p.diagonalMetric(w); }

 private:
  Potential& m_p;
};

enum class Selection { Untrap, Shortcut, Dijkstra };

struct GrowthOptions {
  Selection selection = Selection::Untrap;
  std::string selectionName;
  bool reversed = false;  // direction 'BA': B is the product
  int pairsPerCycle = 1;
  int listSize = 1000;
  UntrapParams untrap;
  int shortcutSteps = 1;
  bool shortcutByBarrier = false;
  double dijkstraPower = 1.0;
  double kT = kNaN;
  bool needsRates() const { return selection != Selection::Untrap; }

  /// What a later call must share to continue this one's candidate list (GrowthRecord::settings).
  std::string settings() const {
    std::ostringstream s;
    s.precision(17);
    s << "pair-selection=" << selectionName << "\ndirection=" << (reversed ? "BA" : "AB") << "\n";
    if (selection == Selection::Untrap)
      s << "untrap=" << untrap.energyIncrement << " " << untrap.energyThreshold << " "
        << untrap.deltaMin << " " << untrap.lowBarrier << " " << untrap.highBarrier << "\n";
    if (selection == Selection::Shortcut)
      s << "shortcut=" << shortcutSteps << " " << (shortcutByBarrier ? "barrier" : "distance")
        << "\n";
    if (selection == Selection::Dijkstra) s << "dijkstra-power=" << dijkstraPower << "\n";
    if (needsRates()) s << "kT=" << kT << "\n";
    s << "pairs-per-cycle=" << pairsPerCycle << "\npair-list-size=" << listSize << "\n"
      << "program=landscape.grow\n";
    return s.str();
  }
};

/// The growing network: the connect runs' duplicate detection (TransitionNetwork) and, parallel to
/// its entries, their stored records (what the input said of its points, properties computed
/// since).
struct Growth {
  TransitionNetwork network;
  std::vector<StoredNetworkMinimum> minima;
  std::vector<StoredTransitionState> states;
  std::vector<int> setA, setB;
  GrowthRecord record;

  explicit Growth(const TransitionNetworkParams& p) : network(p) {}

  /// Records for the entries the connect runs added, characterised with the others still
  /// unknown when `choice` is enabled (their Hessians together: characteriseTogether).
  void complete(Potential& potential, const CharacterisationChoice& choice) {
    for (std::size_t i = minima.size(); i < network.minima().size(); ++i) {
      StoredNetworkMinimum m;
      m.energy = network.minima()[i].energy;
      m.coordinates = network.minima()[i].coordinates;
      minima.push_back(std::move(m));
    }
    for (std::size_t i = states.size(); i < network.transitionStates().size(); ++i) {
      states.push_back(storedTransitionState(network.transitionStates()[i]));
    }
    if (!choice.enabled) return;
    std::vector<StationaryPointProperties*> pending;
    std::vector<std::vector<double>> points;
    for (StoredNetworkMinimum& m : minima)
      if (!characterised(m.properties)) {
        pending.push_back(&m.properties);
        points.push_back(m.coordinates);
      }
    for (StoredTransitionState& t : states)
      if (!characterised(t.properties)) {
        pending.push_back(&t.properties);
        points.push_back(t.coordinates);
      }
    if (points.empty()) return;
    std::vector<StationaryPointProperties> found =
        characteriseTogether(potential, points, choice.params);
    for (std::size_t k = 0; k < pending.size(); ++k) *pending[k] = std::move(found[k]);
  }

  StoredTransitionNetwork stored() const {
    StoredTransitionNetwork out;
    out.minima = minima;
    out.transitionStates = states;
    out.setA = setA;
    out.setB = setB;
    out.growth = record;
    return out;
  }

  /// The selection's candidate pairs on the network as it stands (PATHSAMPLE's list, recomputed
  /// when used up); tried pairs are excluded by the selections themselves.
  std::vector<CandidatePair> select(const GrowthOptions& o) const {
    StoredTransitionNetwork sets;
    sets.minima = minima;
    sets.transitionStates = states;
    sets.setA = o.reversed ? setB : setA;
    sets.setB = o.reversed ? setA : setB;
    const MinimumDistance distance = [this](int a, int b) { return network.distance(a, b); };
    if (o.selection == Selection::Untrap) {
      UntrapParams p = o.untrap;
      p.listSize = static_cast<std::size_t>(o.listSize);
      return untrapPairs(sets, sets.setA, p, record.triedPairs, distance).pairs;
    }
    requireCharacterised(sets.minima, "minimum", "grow");
    requireCharacterised(sets.transitionStates, "transition state", "grow");
    std::vector<CandidatePair> pairs =
        o.selection == Selection::Shortcut
            ? shortcutPairs(sets, o.kT, o.shortcutSteps, o.shortcutByBarrier,
                            static_cast<std::size_t>(o.listSize), record.triedPairs, distance)
            : dijkstraPairs(sets, o.kT, o.dijkstraPower, record.triedPairs, distance);
    if (pairs.size() > static_cast<std::size_t>(o.listSize)) pairs.resize(o.listSize);
    return pairs;
  }

  /// The cycle's pairs from the candidate list, recomputed when used up (GrowthPairs.h).
  std::vector<Pair> takePairs(const GrowthOptions& o) {
    return takeCyclePairs(record.pendingPairs, record.triedPairs, o.pairsPerCycle,
                          [this, &o] { return select(o); });
  }
};

/// The input network in the growing one: its entries in order, minima that these tolerances make
/// one merged (as optim loads a database), sets and growth record mapped accordingly.
void load(Growth& g, const StoredTransitionNetwork& stored) {
  std::vector<int> index(stored.minima.size());
  for (std::size_t i = 0; i < stored.minima.size(); ++i) {
    const StoredNetworkMinimum& m = stored.minima[i];
    requireFinite(m.coordinates.data(), m.coordinates.size(), "grow",
                  "minimum " + std::to_string(i) + " (0-based)'s coordinates");
    const TransitionNetwork::Added added = g.network.addMinimum(m.coordinates, m.energy);
    index[i] = added.index;
    if (added.isNew) g.minima.push_back(m);
  }
  for (std::size_t t = 0; t < stored.transitionStates.size(); ++t) {
    StoredTransitionState ts = stored.transitionStates[t];
    requireFinite(ts.coordinates.data(), ts.coordinates.size(), "grow",
                  "transition state " + std::to_string(t) + " (0-based)'s coordinates");
    ts.plusMinimum = index[ts.plusMinimum];
    ts.minusMinimum = index[ts.minusMinimum];
    if (ts.plusMinimum == ts.minusMinimum) continue;
    if (g.network
            .addTransitionState(ts.coordinates, ts.energy, ts.eigenvalue, ts.plusMinimum,
                                ts.minusMinimum)
            .isNew)
      g.states.push_back(std::move(ts));
  }
  const auto mapped = [&index](const std::vector<int>& set) {
    std::vector<int> out;
    for (int m : set)
      if (std::find(out.begin(), out.end(), index[m]) == out.end()) out.push_back(index[m]);
    return out;
  };
  g.setA = mapped(stored.setA);
  g.setB = mapped(stored.setB);
  g.record = stored.growth;
  for (auto* pairs : {&g.record.triedPairs, &g.record.pendingPairs}) {
    std::vector<Pair> kept;
    for (const Pair& p : *pairs)
      if (index[p[0]] != index[p[1]]) kept.push_back({index[p[0]], index[p[1]]});
    *pairs = std::move(kept);
  }
}

GrowthOptions growthOptions(const std::string& selection, int pairsPerCycle, int listSize,
                            const std::string& direction, std::optional<double> temperature,
                            const KineticUnits& units, std::optional<double> untrapIncrement,
                            double untrapThreshold, std::optional<double> untrapDeltaMin,
                            std::optional<double> untrapLowBarrier,
                            std::optional<double> untrapHighBarrier, int shortcutSteps,
                            const std::string& shortcutBy, double dijkstraPower,
                            const StoredTransitionNetwork& network) {
  const std::string what = "grow";
  GrowthOptions o;
  o.selectionName = selection;
  if (selection == "untrap")
    o.selection = Selection::Untrap;
  else if (selection == "shortcut")
    o.selection = Selection::Shortcut;
  else if (selection == "dijkstra")
    o.selection = Selection::Dijkstra;
  else
    throw std::invalid_argument(what +
                                ": selection must be 'untrap', 'shortcut' or 'dijkstra', "
                                "got '" +
                                selection + "'");
  if (direction != "AB" && direction != "BA")
    throw std::invalid_argument(
        what + ": direction must be 'AB' (A is the product) or 'BA', got '" + direction + "'");
  o.reversed = direction == "BA";
  if (pairsPerCycle < 1)
    throw std::invalid_argument(what + ": pairs_per_cycle must be >= 1, got " +
                                std::to_string(pairsPerCycle));
  if (listSize < 1)
    throw std::invalid_argument(what + ": list_size must be >= 1, got " + std::to_string(listSize));
  o.pairsPerCycle = pairsPerCycle;
  o.listSize = listSize;
  if (o.selection == Selection::Untrap) {
    // PATHSAMPLE has no default einc (its LJ38 example uses 0.035 epsilon): 1/50 of the energy
    // range of the network's stationary points resolves its barriers alike.
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const auto& m : network.minima)
      low = std::min(low, m.energy), high = std::max(high, m.energy);
    for (const auto& t : network.transitionStates) high = std::max(high, t.energy);
    const double range = high - low;
    double automatic = range > 0.0 && std::isfinite(range) ? range / 50.0 : 1e-3;
    // A growth run being continued keeps its increment, so that its list is still valid.
    std::istringstream saved(network.growth.settings);
    for (std::string line; std::getline(saved, line);)
      if (line.rfind("untrap=", 0) == 0) std::istringstream(line.substr(7)) >> automatic;
    UntrapParams& u = o.untrap;
    u.energyIncrement = untrapIncrement.value_or(automatic);
    u.energyThreshold = untrapThreshold;
    u.deltaMin = untrapDeltaMin.value_or(u.deltaMin);
    u.lowBarrier = untrapLowBarrier.value_or(u.lowBarrier);
    u.highBarrier = untrapHighBarrier.value_or(u.highBarrier);
    try {
      u.check();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(what + ": " + e.what() +
                                  " (untrap_increment, untrap_threshold, untrap_delta_min, "
                                  "untrap_low_barrier, untrap_high_barrier; energy unit)");
    }
  } else {
    if (!temperature)
      throw std::invalid_argument(what + ": selection '" + selection +
                                  "' ranks paths by harmonic rates and needs a temperature (" +
                                  units.temperatureUnit() + ")");
    const double t = *temperature;
    requireTemperature(t, units, what);
    o.kT = units.kT(t);
  }
  if (o.selection == Selection::Shortcut) {
    if (shortcutSteps < 1)
      throw std::invalid_argument(what + ": shortcut_steps must be >= 1, got " +
                                  std::to_string(shortcutSteps));
    if (shortcutBy != "distance" && shortcutBy != "barrier")
      throw std::invalid_argument(what + ": shortcut_by must be 'distance' or 'barrier', got '" +
                                  shortcutBy + "'");
    o.shortcutSteps = shortcutSteps;
    o.shortcutByBarrier = shortcutBy == "barrier";
  }
  if (o.selection == Selection::Dijkstra) {
    if (!(dijkstraPower > 0.0) || !std::isfinite(dijkstraPower))
      throw std::invalid_argument(what + ": dijkstra_power must be positive and finite, got " +
                                  numberText(dijkstraPower));
    o.dijkstraPower = dijkstraPower;
  }
  return o;
}

template <typename Point>
bool allCharacterised(const std::vector<Point>& points) {
  return std::all_of(points.begin(), points.end(),
                     [](const Point& p) { return characterised(p.properties); });
}

nb::dict grow(Potential& potential, const nb::dict& data, int cycles, int pairsPerCycle,
              const std::string& selection, const ConnectParams& connectParams,
              std::optional<double> temperature, const std::string& units,
              std::optional<bool> characteriseArg, std::optional<double> untrapIncrement,
              double untrapThreshold, std::optional<double> untrapDeltaMin,
              std::optional<double> untrapLowBarrier, std::optional<double> untrapHighBarrier,
              int shortcutSteps, const std::string& shortcutBy, double dijkstraPower, int listSize,
              const std::string& direction, double energyTolerance, double geometryTolerance,
              const std::filesystem::path& prmtop, double symmetryTolerance,
              long long maxSpectrumAtoms, const std::string& hessianBackend) {
  const std::string what = "grow";
  if (cycles < 0)
    throw std::invalid_argument(what + ": cycles must be >= 0, got " + std::to_string(cycles));
  DatabaseMetadata metadata;
  const StoredTransitionNetwork input = networkFromDict(data, metadata, what);
  if (metadata.atoms == 0)
    throw std::invalid_argument(what +
                                ": the network is kinetics-only (metadata['atoms'] == 0, "
                                "no coordinates); growth connects structures");
  if (3 * metadata.atoms != potential.dimension())
    throw std::invalid_argument(
        what + ": the network holds structures of " + std::to_string(metadata.atoms) + " atoms (" +
        std::to_string(3 * metadata.atoms) + " values) but the potential has " +
        std::to_string(potential.dimension()) + " values (" + potential.name() + ")");
  if (input.setA.empty() || input.setB.empty())
    throw std::invalid_argument(what +
                                ": the network has no endpoint sets (set_a and set_b, "
                                "0-based minima): growth selects pairs towards them, as "
                                "PATHSAMPLE's min.A and min.B; connect's network has them");

  // Characterise: None = when the selection needs rates, or to keep a characterised network so.
  bool characteriseAll = false;
  const bool needsRates = selection == "shortcut" || selection == "dijkstra";
  const bool inputCharacterised =
      allCharacterised(input.minima) && allCharacterised(input.transitionStates);
  if (!characteriseArg) {
    characteriseAll = needsRates || inputCharacterised;
  } else if (!(characteriseAll = *characteriseArg) && needsRates) {
    throw std::invalid_argument(what + ": selection '" + selection +
                                "' ranks paths by harmonic rates, which need every minimum and "
                                "transition state characterised; characterise=False cannot be "
                                "used with it");
  }
  const CharacterisationChoice choice =
      characterisationOf(potential, characteriseAll, prmtop.string(), symmetryTolerance,
                         maxSpectrumAtoms, hessianBackend, what);
  if (choice.enabled) {
    const bool anyCharacterised =
        std::any_of(input.minima.begin(), input.minima.end(),
                    [](const auto& m) { return characterised(m.properties); }) ||
        std::any_of(input.transitionStates.begin(), input.transitionStates.end(),
                    [](const auto& t) { return characterised(t.properties); });
    if (anyCharacterised && metadata.hessianMasses != choice.hessianMasses())
      throw std::invalid_argument(
          what + ": the network's points were characterised with " + metadata.hessianMasses +
          " masses but new ones would be with " + choice.hessianMasses() +
          " masses; give prmtop= exactly when connect was given one (a molecule's masses)");
    metadata.hessianMasses = choice.hessianMasses();
  }
  const KineticUnits kinetic = unitsOf(units, metadata, what);
  const GrowthOptions options =
      growthOptions(selection, pairsPerCycle, listSize, direction, temperature, kinetic,
                    untrapIncrement, untrapThreshold, untrapDeltaMin, untrapLowBarrier,
                    untrapHighBarrier, shortcutSteps, shortcutBy, dijkstraPower, input);
  // A pair system's structures are compared and aligned as optim does for them: permutations
  // within a species, translations modulo its box (python/PairModels.h).
  ConnectParams adapted = connectParams;
  restrictAlignment(potential, adapted.dneb.alignment);
  restrictTransitionStateSearch(potential, adapted.transitionStateSearch);
  const Connect connect(adapted);

  TransitionNetworkParams networkParams;
  networkParams.energyTolerance = energyTolerance;
  networkParams.geometryTolerance = geometryTolerance;
  restrictAlignment(potential, networkParams.alignment);
  Growth g(networkParams);
  load(g, input);
  // A record of other settings keeps its tried pairs (they were connected) but not its list.
  const std::string settings = options.settings();
  if (g.record.settings != settings) g.record.pendingPairs.clear();
  g.record.settings = settings;
  g.complete(potential, choice);

  // One connect run after the other on the calling thread: a pool of one thread runs its work
  // inline (landscape/core/ThreadPool.h), on a fibre of this thread, so the GIL that the caller
  // holds stays held and a Python potential is called as from connect. Between runs, a pending
  // Ctrl-C stops growth: the KeyboardInterrupt goes to the caller, nothing of the call merged.
  ThreadPool pool(1);
  const PotentialMaker borrowed = [&potential] {
    return std::unique_ptr<Potential>(new BorrowedPotential(potential));
  };
  bool interrupted = false;
  const std::function<bool()> stop = [&interrupted] {
    if (!interrupted && PyErr_CheckSignals() != 0) interrupted = true;
    return interrupted;
  };
  nb::list pairsTried, connected;
  int cyclesRun = 0;
  MergeCounts merged;
  long gradientCalls = 0;
  std::string status = "cycles done";
  for (int cycle = 0; cycle < cycles; ++cycle) {
    const std::vector<Pair> pairs = g.takePairs(options);
    if (pairs.empty()) {
      status = "no candidate pairs left";
      break;
    }
    const std::vector<ConnectJobResult> jobs =
        runConnectJobs(connect, potentialOnly(borrowed), g.network, pairs, pool, 1, stop);
    if (interrupted) throw nb::python_error();  // KeyboardInterrupt, as Python raised it
    const std::size_t statesBefore = g.network.transitionStates().size();
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      merged += mergeConnectJob(g.network, jobs[i], statesBefore);
      gradientCalls += jobs[i].result.gradientCalls;
      pairsTried.append(nb::make_tuple(pairs[i][0], pairs[i][1]));
      connected.append(jobs[i].result.connected());
    }
    ++g.record.cycles;
    ++cyclesRun;
    g.complete(potential, choice);
  }
  metadata.program = "landscape.grow";
  nb::dict out = networkToDict(g.stored(), metadata);
  out["cycles"] = cyclesRun;
  out["pairs"] = pairsTried;
  out["connected"] = connected;
  out["new_minima"] = merged.newMinima;
  out["new_transition_states"] = merged.newTransitionStates;
  out["known_transition_states"] = merged.knownTransitionStates;
  out["repeated_transition_states"] = merged.repeatedInCycle;
  out["gradient_calls"] = gradientCalls;
  out["status"] = status;
  return out;
}

}  // namespace

void bindPaths(nb::module_& m) {
  bindDnebParams(m);
  bindTransitionStateParams(m);
  m.def("dneb", &dneb, "potential"_a, "start"_a, "finish"_a, "params"_a = DnebParams{},
        "A doubly nudged elastic band between two structures (Trygubenko and Wales, J. Chem. "
        "Phys. 120, 2082 (2004)), minimised by GMIN's L-BFGS as in connect; units the "
        "potential's (reduced for Lennard-Jones, kcal/mol and Angstrom for AMBER-GB). finish is "
        "aligned onto start first (align_endpoints). Returns a dict: 'images' (K + 2 structures, "
        "start, the K interior images, the aligned finish; shaped (K + 2, atoms, 3), or (K + 2, "
        "values) for a flat start), 'energies' (K + 2), 'candidates' (indices into images of the "
        "interior local energy maxima, highest first: transition-state candidates), 'tangents' "
        "(unit improved tangents, shaped as images, zero rows for the endpoints; "
        "tangents[c] is a first guess of the uphill eigenvector), 'path_length' and "
        "'endpoint_distance' (length), 'mean_spacing_deviation' (per cent), 'rms_gradient' "
        "(energy/length), 'spring_constant' (final k, energy/length^2), 'interior_images', "
        "'iteration_limit', 'iterations', 'function_calls', 'cold_fusion_steps', 'status' (the "
        "L-BFGS status name) and 'converged'.");
  m.def("find_transition_state", &findTransitionState, "potential"_a, "x"_a,
        "eigenvector_guess"_a = nb::none(), "params"_a = HybridEigenvectorFollowingParams{},
        "Hybrid eigenvector-following from x to a first-order saddle (Munro and Wales, Phys. "
        "Rev. B 59, 3969 (1999)): uphill along the smallest Hessian eigenvector (found from "
        "gradients, Rayleigh-Ritz), L-BFGS downhill in the space orthogonal to it. "
        "eigenvector_guess (shaped as x, e.g. a DNEB tangent) seeds the first eigenvector "
        "search; None: a seeded random vector. Units the potential's (reduced for Lennard-Jones, "
        "kcal/mol and Angstrom for AMBER-GB). Returns a dict: 'energy', 'coordinates' (shaped "
        "as x), 'eigenvalue' (the smallest non-zero Hessian eigenvalue at the end, "
        "energy/length^2; negative at a transition state), 'eigenvector' (unit, shaped as x), "
        "'rms_gradient' (energy/length), 'last_uphill_step' (length), 'iterations', "
        "'gradient_calls', 'status' ('converged', 'iteration limit', 'non-finite energy', "
        "'not a saddle', ...) and 'converged'.");
  m.def("descend", &descend, "potential"_a, "transition_state"_a, "eigenvector"_a,
        "pushoff"_a = 0.02, "max_pushoff_doublings"_a = 4, "minimiser"_a = nb::none(),
        "The two minima a transition state joins (OPTIM's PUSHOFF, then minimisation): steps "
        "pushoff (length) along +eigenvector and -eigenvector (normalised here), doubled up to "
        "max_pushoff_doublings times while the energy has not dropped below the transition "
        "state's, then minimises each side with GMIN's L-BFGS (minimiser: LbfgsParams; None: "
        "connect's, history 10, max step 0.2, RMS 1e-6, 5000 iterations). Units the potential's "
        "(reduced for Lennard-Jones, kcal/mol and Angstrom for AMBER-GB). Returns {'plus': side, "
        "'minus': side, 'converged'}, each side a dict of 'coordinates' (shaped as "
        "transition_state), 'energy', 'converged', 'iterations', 'function_calls', "
        "'rms_gradient', 'status' and 'pushoff' (signed, length).");
  const double inf = std::numeric_limits<double>::infinity();
  m.def("grow", &grow, "potential"_a, "network"_a, "cycles"_a = 1, "pairs_per_cycle"_a = 1,
        "selection"_a = "untrap", "connect_params"_a = ConnectParams{},
        "temperature"_a = nb::none(), "units"_a = "auto", "characterise"_a = nb::none(),
        "untrap_increment"_a = nb::none(), "untrap_threshold"_a = inf,
        "untrap_delta_min"_a = nb::none(), "untrap_low_barrier"_a = nb::none(),
        "untrap_high_barrier"_a = nb::none(), "shortcut_steps"_a = 1, "shortcut_by"_a = "distance",
        "dijkstra_power"_a = 1.0, "list_size"_a = 1000, "direction"_a = "AB",
        "energy_tolerance"_a = 1e-6, "geometry_tolerance"_a = 0.2, "prmtop"_a = "",
        "symmetry_tolerance"_a = 1e-3, "spectrum_max_atoms"_a = 250, "hessian_backend"_a = "cpu",
        "PATHSAMPLE's network growth (`pathsample grow`) for any potential: `cycles` cycles, each "
        "taking pairs_per_cycle pairs of minima from the selection's candidate list (recomputed "
        "when used up; growth ends early when a new list is empty), connecting each pair with "
        "optim's connect (connect_params) on a network of its own, and merging what the runs "
        "found in pair order with connect's duplicate detection (energy_tolerance, "
        "geometry_tolerance). network is a dict as read_network and connect return it, with "
        "set_a and set_b; the result is that dict grown, with its 'growth' record (cycles, "
        "settings, tried_pairs, pending_pairs; pairs taken as pathsample grow takes them, none "
        "tried twice in one order, and a later call with the same settings continues the list) "
        "plus 'cycles' (run by this call), 'pairs' (connected by this call, 0-based, in order), "
        "'connected' (per pair), 'new_minima', 'new_transition_states', "
        "'known_transition_states' (found again: in the network before the cycle), "
        "'repeated_transition_states' (found again: by an earlier run of the cycle), "
        "'gradient_calls' and 'status'. selection: 'untrap' "
        "(PATHSAMPLE's UNTRAP towards the product set: untrap_increment einc, default that "
        "of the growth record continued, else 1/50 of the network's energy range (highest "
        "transition state minus lowest minimum); untrap_threshold ethresh; untrap_delta_min, "
        "untrap_low_barrier, "
        "untrap_high_barrier; energy unit), 'shortcut' (SHORTCUT shortcut_steps, shortcut_by "
        "'distance' or 'barrier') or 'dijkstra' (DIJPAIR, a missing link costing "
        "distance^dijkstra_power) along the best kinetic path at `temperature` (units 'reduced': "
        "kT in the energy unit; 'molecular': K with kcal/mol; 'auto': molecular for "
        "amu-weighted Hessians, as Network.rates). direction 'AB': A is the product (PATHSAMPLE's "
        "DIRECTION). characterise: every new stationary point gets optim's log product, "
        "point-group order and moments (arguments as connect's); None: when the selection needs "
        "rates (shortcut, dijkstra) or the network is characterised. Units the potential's "
        "(reduced for Lennard-Jones, kcal/mol and Angstrom for AMBER-GB). The connect runs run "
        "one after the other on the calling thread.");
}

}  // namespace landscape::python
