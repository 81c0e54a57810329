// The shared potential test suite (docs/architecture.md, "CPU first, GPU equal"; the pattern of
// openmm's tests/TestGBSAOBCForce.h, included by every platform, and pele's numerical-gradient
// fixture).
//
// Every case runs on every backend: energy vs an independent reference, gradient vs central
// differences, the directional derivative along the gradient, energy() vs energyGradient(),
// overwrite-not-accumulate, CUDA vs CPU agreement, run-to-run bit identity, the device-resident
// entry point and per-atom energies. CUDA cases skip, with the reason, when no device is usable.
//
// A new potential joins by adding a PotentialSpec kind and cases to potentialCases() (LJ, SOP,
// pair potentials, Gupta).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/PotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "potentials/Potential.h"
#include "potentials/SopTopology.h"
#include "tests/GuptaReferenceCases.h"
#include "tests/PairReferenceCases.h"
#include "tests/TestData.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/DeviceBuffer.h"
#endif

namespace landscape {
namespace {

// ---- tolerances -----------------------------------------------------------------------------

// Central differences with step h err by h^2 |V'''| / 6 (|V'''| < 4e4 for r >= 0.9, so < 1e-8) plus
// rounding eps |E| / h (< 1e-7 for |E| < 500); the tolerance is 1e-6 relative to max(1, max |g_k|).
constexpr double kFiniteDifferenceStep = 1e-6;
constexpr double kFiniteDifferenceTolerance = 1e-6;
// CUDA vs CPU (double precision both; only summation order and FMA contraction differ): relative to
// max(|E|, 1) and to max(max |g_k|, 1) (the 1 keeps near-zero gradients at minima meaningful).
constexpr double kBackendTolerance = 1e-12;
// energy() vs the energy of energyGradient(), and sum of per-atom energies vs 2E: the same sums up
// to rounding (for both Lennard-Jones backends energy() and energyGradient() are bit-identical).
constexpr double kSameSumTolerance = 1e-13;

// ---- independent references ------------------------------------------------------------------

const double kGoldenRatio = (1.0 + std::sqrt(5.0)) / 2.0;
const double kPi = std::acos(-1.0);

/// Lennard-Jones pair energy written from the distance with std::pow, independently of
/// lennardJonesPair() (which works from r^2).
double referencePairEnergy(double r) { return 4.0 * (std::pow(r, -12.0) - std::pow(r, -6.0)); }

/// Sum over all pairs of referencePairEnergy(|r_i - r_j|).
double referenceClusterEnergy(const std::vector<double>& x) {
  const std::size_t n = x.size() / 3;
  double e = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      e += referencePairEnergy(std::hypot(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1],
                                          x[3 * i + 2] - x[3 * j + 2]));
  return e;
}

/// Edge length of a regular icosahedron of circumradius R: a = R / sin(2 pi / 5).
double icosahedronEdge(double radius) { return radius / std::sin(2.0 * kPi / 5.0); }

/// Energy of a centred Mackay icosahedron (centre + 12 vertices at radius R) by counting its 78
/// distances: 12 centre-vertex at R, 30 edges at a, 30 second neighbours at a * golden ratio and
/// 6 antipodal pairs at 2R.
double icosahedronEnergyByCounting(double radius) {
  const double a = icosahedronEdge(radius);
  return 12.0 * referencePairEnergy(radius) + 30.0 * referencePairEnergy(a) +
         30.0 * referencePairEnergy(a * kGoldenRatio) + 6.0 * referencePairEnergy(2.0 * radius);
}

/// Radius minimising icosahedronEnergyByCounting (golden-section search). The LJ13 global minimum
/// is this perfect icosahedron, so the minimum is the Cambridge Cluster Database's -44.326801.
double lj13MinimumRadius() {
  double lo = 0.95, hi = 1.2;
  const double shrink = 1.0 / kGoldenRatio;
  double a = hi - shrink * (hi - lo), b = lo + shrink * (hi - lo);
  double ea = icosahedronEnergyByCounting(a), eb = icosahedronEnergyByCounting(b);
  for (int it = 0; it < 200 && hi - lo > 1e-13; ++it) {
    if (ea < eb) {
      hi = b;
      b = a;
      eb = ea;
      a = hi - shrink * (hi - lo);
      ea = icosahedronEnergyByCounting(a);
    } else {
      lo = a;
      a = b;
      ea = eb;
      b = lo + shrink * (hi - lo);
      eb = icosahedronEnergyByCounting(b);
    }
  }
  return 0.5 * (lo + hi);
}

// ---- geometries ------------------------------------------------------------------------------

/// Rotates every atom about a fixed oblique axis and shifts it, so that no coordinate is special.
std::vector<double> genericPlacement(std::vector<double> x) {
  const double axisNorm = std::sqrt(14.0);
  const double k[3] = {1.0 / axisNorm, 2.0 / axisNorm, 3.0 / axisNorm};
  const double c = std::cos(0.7), s = std::sin(0.7);
  const double shift[3] = {0.31, -0.17, 0.11};
  for (std::size_t i = 0; i < x.size(); i += 3) {
    const double v[3] = {x[i], x[i + 1], x[i + 2]};
    const double kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    const double kxv[3] = {k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2],
                           k[0] * v[1] - k[1] * v[0]};
    for (int d = 0; d < 3; ++d)  // Rodrigues' rotation formula
      x[i + d] = v[d] * c + kxv[d] * s + k[d] * kv * (1.0 - c) + shift[d];
  }
  return x;
}

std::vector<double> dimer(double r) {
  // Along the unit vector (1, 2, -2) / 3 so that every component of the gradient is non-zero.
  return genericPlacement({0.0, 0.0, 0.0, r / 3.0, 2.0 * r / 3.0, -2.0 * r / 3.0});
}

/// Centre atom plus the 12 vertices (0, +-1, +-phi) and their cyclic permutations, scaled to R.
std::vector<double> icosahedron(double radius) {
  std::vector<double> x = {0.0, 0.0, 0.0};
  const double scale = radius / std::sqrt(1.0 + kGoldenRatio * kGoldenRatio);
  for (double s1 : {-1.0, 1.0}) {
    for (double s2 : {-1.0, 1.0}) {
      const double u = s1 * scale, v = s2 * kGoldenRatio * scale;
      const double vertices[3][3] = {{0.0, u, v}, {u, v, 0.0}, {v, 0.0, u}};
      for (const auto& p : vertices) x.insert(x.end(), p, p + 3);
    }
  }
  return genericPlacement(x);
}

/// Atoms drawn uniformly in a sphere, rejecting any closer than minSeparation to an earlier one.
/// Uniform doubles are built from raw mt19937_64 output (std::uniform_real_distribution differs
/// between standard libraries), so the cluster is the same everywhere.
std::vector<double> randomCluster(std::size_t atoms, std::uint64_t seed, double radius,
                                  double minSeparation) {
  std::mt19937_64 rng(seed);
  const auto uniform = [&rng] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<double> x;
  for (int attempt = 0; attempt < 1000000 && x.size() < 3 * atoms; ++attempt) {
    const double p[3] = {radius * (2.0 * uniform() - 1.0), radius * (2.0 * uniform() - 1.0),
                         radius * (2.0 * uniform() - 1.0)};
    if (std::hypot(p[0], p[1], p[2]) > radius) continue;
    bool clear = true;
    for (std::size_t j = 0; clear && j < x.size(); j += 3)
      clear = std::hypot(p[0] - x[j], p[1] - x[j + 1], p[2] - x[j + 2]) >= minSeparation;
    if (clear) x.insert(x.end(), p, p + 3);
  }
  if (x.size() != 3 * atoms)
    throw std::runtime_error("randomCluster: could not place " + std::to_string(atoms) +
                             " atoms in the sphere; enlarge the radius");
  return x;
}

/// Coordinates of the first minimum in a GMIN `lowest` file: the atom count, an "Energy of
/// minimum" line, then one "label x y z" line per atom (further minima follow; they are ignored).
std::vector<double> readGminLowest(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be opened");
  std::string line;
  std::size_t atoms = 0;
  if (!std::getline(in, line) || !(std::istringstream(line) >> atoms) || atoms == 0)
    throw std::runtime_error(path + ":1: expected the atom count");
  if (!std::getline(in, line) || line.find("Energy") == std::string::npos)
    throw std::runtime_error(path + ":2: expected the 'Energy of minimum' line");
  std::vector<double> x(3 * atoms);
  for (std::size_t i = 0; i < atoms; ++i) {
    std::string label;
    if (!std::getline(in, line) ||
        !(std::istringstream(line) >> label >> x[3 * i] >> x[3 * i + 1] >> x[3 * i + 2]))
      throw std::runtime_error(path + ":" + std::to_string(i + 3) +
                               ": expected 'label x y z' for atom " + std::to_string(i + 1));
  }
  return x;
}

// ---- cases -----------------------------------------------------------------------------------

struct CaseData {
  std::vector<double> x;
  std::optional<double> referenceEnergy;  ///< independent value, where the case has one
  double referenceTolerance = 0.0;        ///< absolute, in the potential's energy unit
  std::string skipReason;                 ///< non-empty: the case's data are missing
  /// The parsed topology the case's spec needs (AMBER-GB, SOP), read once with the coordinates.
  std::shared_ptr<const AmberTopology> amberTopology;
  std::shared_ptr<const SopTopology> sopTopology;
  std::shared_ptr<const PairModel> pairModel;  ///< pair potentials: species, law, cutoff, box
};

struct PotentialCase {
  std::string name;  ///< letters, digits and '_' only (it becomes part of the test name)
  PotentialSpec spec;              ///< without its topology, which load() reads
  std::function<CaseData()> load;  ///< run in SetUp, so missing files skip instead of failing
  bool hasReference = true;  ///< load() gives an independent referenceEnergy
};

/// GMIN's LJ38 example (wales-group/examples LJ38/01_Introducing_GMIN): its `lowest` file prints
/// the global minimum as -173.9284262 (10 digits; the coordinates carry 10 decimals).
CaseData loadLj38GlobalMinimum() {
  const std::string relative = "lj38/gmin/lowest";
  const std::optional<std::string> path = testDataPath(relative);
  CaseData data;
  if (!path) {
    data.skipReason = "GMIN LJ38 output " + testDataRoot() + "/" + relative +
                      " not found (set LANDSCAPE_TEST_DATA to the test-data directory)";
    return data;
  }
  data.x = readGminLowest(*path);
  data.referenceEnergy = -173.9284262;
  data.referenceTolerance = 1e-6;
  return data;
}

PotentialSpec lennardJonesSpec(std::size_t atoms) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::LennardJones;
  spec.atoms = atoms;
  return spec;
}

/// AMBER-GB on ash (ParmEd's test molecule) at sander's conditions for it: igb 2, no salt, rgbmax
/// 25 A. sander's TOTAL as REFERENCE.md quotes it (ParmEd test_openmm_amber.py): -25.7145
/// kcal/mol to 4 decimals.
PotentialSpec ashSpec(Precision precision) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::AmberGb;
  spec.amber.igb = 2;
  spec.amber.saltcon = 0.0;
  spec.amber.rgbmax = 25.0;
  spec.precision = precision;
  return spec;
}

CaseData loadAsh() {
  CaseData data;
  const std::optional<std::string> prmtop = testDataPath("gb/ash/ash.parm7");
  const std::optional<std::string> rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) {
    data.skipReason = "GB system ash not found under " + testDataRoot() +
                      "/gb/ash (set LANDSCAPE_TEST_DATA to the test-data directory)";
    return data;
  }
  data.amberTopology = std::make_shared<const AmberTopology>(readAmberTopology(*prmtop));
  data.x = readAmberCoordinates(*rst7, *data.amberTopology).positions;
  data.referenceEnergy = -25.7145;
  data.referenceTolerance = 1e-4;
  return data;
}

/// SOP (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, eq B1) cases on titin I27:
/// the native structure, whose energy is -eps_n x contacts plus the cut and force-shifted repulsion
/// summed here over all non-bonded, non-native pairs with std::pow, and a structure with every
/// coordinate moved by up to 0.4 A.
PotentialSpec sopSpec() {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sop;
  return spec;
}

CaseData loadSopTitin(bool perturb) {
  CaseData data;
  const std::optional<std::string> path = testDataPath("sop/1TIT.pdb");
  if (!path) {
    data.skipReason = "SOP test structure " + testDataRoot() + "/sop/1TIT.pdb not found";
    return data;
  }
  data.sopTopology = std::make_shared<const SopTopology>(readSopTopology(*path));
  const SopTopology& t = *data.sopTopology;
  data.x = t.nativeCoordinates();
  if (perturb) {
    std::mt19937_64 rng(20261122);
    for (double& v : data.x) v += 0.8 * (static_cast<double>(rng() >> 11) * 0x1.0p-53 - 0.5);
    return data;
  }
  const SopParams& p = t.params;
  const int n = static_cast<int>(t.beadCount());
  std::vector<std::vector<bool>> skip(n, std::vector<bool>(n, false));
  for (const SopBond& b : t.bonds) skip[b.i][b.j] = true;
  for (const SopContact& c : t.contacts) skip[c.i][c.j] = true;
  double e = -p.nativeEpsilon * static_cast<double>(t.contacts.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const double r =
          std::hypot(data.x[3 * i] - data.x[3 * j], data.x[3 * i + 1] - data.x[3 * j + 1],
                     data.x[3 * i + 2] - data.x[3 * j + 2]);
      if (skip[i][j] || r >= p.repulsiveCutoff) continue;
      const double s6 = std::pow(p.sigma, 6.0);
      e += p.repulsiveEpsilon * s6 * (std::pow(r, -6.0) - std::pow(p.repulsiveCutoff, -6.0)) +
           6.0 * p.repulsiveEpsilon * s6 * std::pow(p.repulsiveCutoff, -7.0) *
               (r - p.repulsiveCutoff);
    }
  data.referenceEnergy = e;
  data.referenceTolerance = 1e-10 * std::abs(e);
  return data;
}

CaseData loadPairReference(const std::string& name) {
  CaseData data;
  const std::optional<std::string> path = testDataPath("pair/" + name + ".txt");
  if (!path) {
    data.skipReason = "pair reference " + testDataRoot() + "/pair/" + name + ".txt not found";
    return data;
  }
  const PairReferenceCase c = readPairReferenceCase(*path);
  data.x = c.x;
  data.referenceEnergy = c.energy;
  data.referenceTolerance = 1e-10 * std::abs(c.energy);
  data.pairModel = c.model;
  return data;
}

CaseData loadTabulatedLjBox() {
  const std::optional<std::string> path = testDataPath("pair/lj_pbc_ts.txt");
  CaseData data;
  if (!path) {
    data.skipReason = "pair reference " + testDataRoot() + "/pair/lj_pbc_ts.txt not found";
    return data;
  }
  const PairReferenceCase c = readPairReferenceCase(*path);
  PairModel m = *c.model;
  m.law = PairLaw::Tabulated;
  m.tables = {tabulatePairFunction(
      [](double r) { return 4.0 * (std::pow(r, -12) - std::pow(r, -6)); }, 0.8, 2.5, 1024,
      "Lennard-Jones 0.8..2.5, 1024 pieces")};
  m.pairs[0].table = 0;
  data.x = c.x;
  data.pairModel = std::make_shared<const PairModel>(std::move(m));
  return data;
}

/// A Gupta cluster of tests/data/clusters/gupta_asap.txt: ASAP's energy is the reference.
CaseData loadGuptaReference(const std::string& name) {
  CaseData data;
  for (const GuptaReferenceCase& c : readGuptaReferenceCases())
    if (c.name == name) {
      data.x = c.x;
      data.referenceEnergy = c.energy;
      data.referenceTolerance = 1e-12 * std::abs(c.energy);
      return data;
    }
  data.skipReason = "Gupta reference " + name + " not found in " + testDataRoot() +
                    "/clusters/gupta_asap.txt";
  return data;
}

PotentialSpec guptaSpec(std::size_t atoms, GuptaMetal metal, double r0) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Gupta;
  spec.atoms = atoms;
  spec.gupta = guptaMetalParams(metal);
  spec.gupta.r0 = r0;
  return spec;
}

std::vector<PotentialCase> potentialCases() {
  std::vector<PotentialCase> cases;
  // Repulsive wall, the minimum 2^(1/6) (zero gradient), the attractive well and the tail.
  const std::pair<const char*, double> separations[] = {{"LjDimer_r0_95", 0.95},
                                                        {"LjDimer_rMin", std::pow(2.0, 1.0 / 6.0)},
                                                        {"LjDimer_r1_5", 1.5},
                                                        {"LjDimer_r2_5", 2.5}};
  for (const auto& [name, separation] : separations) {
    const double r = separation;
    cases.push_back({name, lennardJonesSpec(2), [r] {
                       return CaseData{dimer(r), referencePairEnergy(r), 1e-12, ""};
                     }});
  }
  cases.push_back(
      {"Lj13Icosahedron_edge1_1", lennardJonesSpec(13), [] {
         const double radius = 1.1 * std::sin(2.0 * kPi / 5.0);  // edge a = 1.1
         return CaseData{icosahedron(radius), icosahedronEnergyByCounting(radius), 1e-11, ""};
       }});
  // Cambridge Cluster Database: LJ13 global minimum -44.326801 (6 decimals).
  cases.push_back({"Lj13GlobalMinimum", lennardJonesSpec(13), [] {
                     return CaseData{icosahedron(lj13MinimumRadius()), -44.326801, 1e-6, ""};
                   }});
  // Random clusters (seeded, no pair closer than 0.9). 300 atoms span three CUDA blocks of 128,
  // which exercises the kernel's cross-block energy reduction; 38 atoms fit in one block.
  const std::pair<const char*, std::size_t> randomSizes[] = {{"LjRandom38", 38},
                                                             {"LjRandom300", 300}};
  for (const auto& [name, size] : randomSizes) {
    const std::size_t atoms = size;
    cases.push_back(
        {name, lennardJonesSpec(atoms), [atoms] {
           const double radius = 2.5 * std::cbrt(static_cast<double>(atoms) / 38.0);
           std::vector<double> x = randomCluster(atoms, 20240601 + atoms, radius, 0.9);
           const double reference = referenceClusterEnergy(x);
           return CaseData{std::move(x), reference, 1e-11 * std::max(1.0, std::abs(reference)), ""};
         }});
  }
  cases.push_back({"Lj38GlobalMinimum", lennardJonesSpec(38), loadLj38GlobalMinimum});
  // The CUDA mixed mode has its own tolerances (tests/AmberGbCudaTest.cpp); here the double mode.
  cases.push_back({"AmberGbAsh", ashSpec(Precision::Double), loadAsh});
  cases.push_back({"SopTitinNative", sopSpec(), [] { return loadSopTitin(false); }});
  cases.push_back({"SopTitinPerturbed", sopSpec(), [] { return loadSopTitin(true); }, false});
  // Pair potentials: reference energies from LAMMPS and pele (tests/data/pair/README.md).
  PotentialSpec pair;
  pair.kind = PotentialSpec::Kind::Pair;
  for (const char* name : {"blj13_pele", "ka_n256_ts", "ka_n256_fs", "morse_pbc_ts"}) {
    const std::string file = name;
    cases.push_back({std::string("Pair_") + name, pair, [file] { return loadPairReference(file); }});
  }
  // A tabulated Lennard-Jones box (1024 pieces; no independent energy): the interpolant's own
  // gradient, bit identity and the CUDA twin.
  cases.push_back({"PairTabulatedLjBox", pair, loadTabulatedLjBox, false});
  // Gupta metal clusters: energies from ASAP (tests/data/clusters/README.md).
  const struct {
    const char* name;
    std::size_t atoms;
    GuptaMetal metal;
    double r0;
  } gupta[] = {{"gupta13_pt", 13, GuptaMetal::Platinum, 1.0},
               {"au38_angstrom", 38, GuptaMetal::Gold, 2.884},
               {"ni20", 20, GuptaMetal::Nickel, 1.0},
               {"cu55", 55, GuptaMetal::Copper, 1.0}};
  for (const auto& g : gupta) {
    const std::string name = g.name;
    cases.push_back({"Gupta_" + name, guptaSpec(g.atoms, g.metal, g.r0),
                     [name] { return loadGuptaReference(name); }});
  }
  return cases;
}

struct SuiteParam {
  PotentialCase potentialCase;
  Backend backend;
};

void PrintTo(const SuiteParam& param, std::ostream* os) {
  *os << param.potentialCase.name << " on " << backendName(param.backend);
}

/// Every case on the given backends; referencesOnly keeps the cases with an independent energy.
std::vector<SuiteParam> suiteParams(std::vector<Backend> backends = {Backend::Cpu, Backend::Cuda},
                                    bool referencesOnly = false) {
  std::vector<SuiteParam> params;
  for (const PotentialCase& c : potentialCases()) {
    if (referencesOnly && !c.hasReference) continue;
    for (Backend backend : backends) params.push_back({c, backend});
  }
  return params;
}

// ---- helpers ---------------------------------------------------------------------------------

double maxAbs(const std::vector<double>& v) {
  double m = 0.0;
  for (double value : v) m = std::max(m, std::abs(value));
  return m;
}

double norm(const std::vector<double>& v) {
  double s = 0.0;
  for (double value : v) s += value * value;
  return std::sqrt(s);
}

bool bitIdentical(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

bool bitIdentical(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

// ---- the suite -------------------------------------------------------------------------------

class PotentialSuiteTest : public testing::TestWithParam<SuiteParam> {
 protected:
  void SetUp() override {
    const SuiteParam& param = GetParam();
    if (param.backend == Backend::Cuda && !gpuAvailable())
      GTEST_SKIP() << "CUDA backend not testable here: " << gpuDescription();
    m_case = param.potentialCase.load();
    if (!m_case.skipReason.empty()) GTEST_SKIP() << m_case.skipReason;
    m_spec = param.potentialCase.spec;
    m_spec.amberTopology = m_case.amberTopology;
    m_spec.sopTopology = m_case.sopTopology;
    if (m_case.pairModel) m_spec.pairModel = m_case.pairModel;
    m_potential = makePotential(m_spec, param.backend);
    ASSERT_EQ(m_potential->dimension(), m_case.x.size());
    ASSERT_EQ(m_potential->backend(), param.backend);
  }

  std::size_t n() const { return m_case.x.size(); }

  std::vector<double> gradient(const std::vector<double>& x, double* energy = nullptr) {
    std::vector<double> g(x.size(), 0.0);
    const double e = m_potential->energyGradient(x.data(), g.data());
    if (energy) *energy = e;
    return g;
  }

  CaseData m_case;
  PotentialSpec m_spec;  ///< the case's spec with the topology its load() read
  std::unique_ptr<Potential> m_potential;
};

// Tests that apply to part of the cases or backends are instantiated only there, so that nothing
// skips by design: the reference energy where a case has one, the CPU comparison on CUDA.
class PotentialReferenceTest : public PotentialSuiteTest {};
class PotentialCudaTest : public PotentialSuiteTest {};

TEST_P(PotentialReferenceTest, EnergyMatchesIndependentReference) {
  ASSERT_TRUE(m_case.referenceEnergy) << "the case is marked hasReference but has no energy";
  EXPECT_NEAR(m_potential->energy(m_case.x.data()), *m_case.referenceEnergy,
              m_case.referenceTolerance);
}

TEST_P(PotentialSuiteTest, GradientMatchesCentralDifferences) {
  const std::vector<double> g = gradient(m_case.x);
  const double tolerance = kFiniteDifferenceTolerance * std::max(1.0, maxAbs(g));
  std::vector<double> x = m_case.x;
  for (std::size_t k = 0; k < n(); ++k) {
    const double x0 = x[k];
    x[k] = x0 + kFiniteDifferenceStep;
    const double ePlus = m_potential->energy(x.data());
    x[k] = x0 - kFiniteDifferenceStep;
    const double eMinus = m_potential->energy(x.data());
    x[k] = x0;
    EXPECT_NEAR(g[k], (ePlus - eMinus) / (2.0 * kFiniteDifferenceStep), tolerance)
        << "component " << k;
  }
}

TEST_P(PotentialSuiteTest, DirectionalDerivativeAlongGradient) {
  // Along u = g / |g| the directional derivative is |g|.
  const std::vector<double> g = gradient(m_case.x);
  const double gNorm = norm(g);
  if (gNorm == 0.0) GTEST_SKIP() << "the gradient is exactly zero; no direction to test";
  std::vector<double> plus = m_case.x, minus = m_case.x;
  for (std::size_t k = 0; k < n(); ++k) {
    plus[k] += kFiniteDifferenceStep * g[k] / gNorm;
    minus[k] -= kFiniteDifferenceStep * g[k] / gNorm;
  }
  const double derivative = (m_potential->energy(plus.data()) - m_potential->energy(minus.data())) /
                            (2.0 * kFiniteDifferenceStep);
  EXPECT_NEAR(derivative, gNorm, kFiniteDifferenceTolerance * std::max(1.0, gNorm));
}

TEST_P(PotentialSuiteTest, EnergyAgreesWithEnergyGradient) {
  double eGradient = 0.0;
  gradient(m_case.x, &eGradient);
  const double e = m_potential->energy(m_case.x.data());
  EXPECT_NEAR(e, eGradient, kSameSumTolerance * std::max(1.0, std::abs(e)));
}

TEST_P(PotentialSuiteTest, GradientIsOverwrittenNotAccumulated) {
  const std::vector<double> clean = gradient(m_case.x);
  for (double fill : {std::numeric_limits<double>::quiet_NaN(), 1e300, -7.0}) {
    std::vector<double> g(n(), fill);
    m_potential->energyGradient(m_case.x.data(), g.data());
    EXPECT_TRUE(bitIdentical(g, clean)) << "gradient depends on the prefill " << fill;
  }
  for (double value : clean) EXPECT_TRUE(std::isfinite(value));
}

TEST_P(PotentialCudaTest, AgreesWithCpuReference) {
  std::unique_ptr<Potential> cpu = makePotential(m_spec, Backend::Cpu);
  std::vector<double> gCpu(n(), 0.0);
  const double eCpu = cpu->energyGradient(m_case.x.data(), gCpu.data());
  double e = 0.0;
  const std::vector<double> g = gradient(m_case.x, &e);
  EXPECT_NEAR(e, eCpu, kBackendTolerance * std::max(1.0, std::abs(eCpu)));
  const double tolerance = kBackendTolerance * std::max(1.0, maxAbs(gCpu));
  for (std::size_t k = 0; k < n(); ++k) EXPECT_NEAR(g[k], gCpu[k], tolerance) << "component " << k;
}

TEST_P(PotentialSuiteTest, RepeatedCallsAreBitIdentical) {
  double e1 = 0.0, e2 = 0.0;
  const std::vector<double> g1 = gradient(m_case.x, &e1);
  const std::vector<double> g2 = gradient(m_case.x, &e2);
  EXPECT_TRUE(bitIdentical(e1, e2)) << e1 << " vs " << e2;
  EXPECT_TRUE(bitIdentical(g1, g2));
  EXPECT_TRUE(
      bitIdentical(m_potential->energy(m_case.x.data()), m_potential->energy(m_case.x.data())));
}

TEST_P(PotentialSuiteTest, DeviceEntryPointMatchesHostEntryPoint) {
  if (!m_potential->isDeviceResident()) {
    EXPECT_EQ(GetParam().backend, Backend::Cpu);
    EXPECT_THROW(m_potential->energyGradientDevice(nullptr, nullptr), std::logic_error);
    return;
  }
#ifdef LANDSCAPE_HAVE_CUDA
  double eHost = 0.0;
  const std::vector<double> gHost = gradient(m_case.x, &eHost);
  DeviceBuffer<double> d_x(m_case.x);
  DeviceBuffer<double> d_g(std::vector<double>(n(), std::numeric_limits<double>::quiet_NaN()));
  const double eDevice = m_potential->energyGradientDevice(d_x.data(), d_g.data());
  EXPECT_TRUE(bitIdentical(eDevice, eHost)) << eDevice << " vs " << eHost;
  EXPECT_TRUE(bitIdentical(d_g.toHost(), gHost));
  EXPECT_TRUE(bitIdentical(d_x.toHost(), m_case.x)) << "the coordinates were modified";
#else
  FAIL() << "a device-resident potential in a build without CUDA";
#endif
}

TEST_P(PotentialSuiteTest, PerAtomEnergiesSumToTwiceTheEnergy) {
  std::vector<double> atomEnergies(m_potential->atomCount(),
                                   std::numeric_limits<double>::quiet_NaN());
  ASSERT_TRUE(m_potential->perAtomEnergies(m_case.x.data(), atomEnergies.data()));
  double sum = 0.0;
  for (double value : atomEnergies) sum += value;
  const double e = m_potential->energy(m_case.x.data());
  EXPECT_NEAR(sum, 2.0 * e, kSameSumTolerance * std::max(1.0, std::abs(2.0 * e)));
}

std::string suiteParamName(const testing::TestParamInfo<SuiteParam>& info) {
  return info.param.potentialCase.name + "_" + backendName(info.param.backend);
}

INSTANTIATE_TEST_SUITE_P(PotentialSuite, PotentialSuiteTest, testing::ValuesIn(suiteParams()),
                         suiteParamName);
INSTANTIATE_TEST_SUITE_P(PotentialSuite, PotentialReferenceTest,
                         testing::ValuesIn(suiteParams({Backend::Cpu, Backend::Cuda}, true)),
                         suiteParamName);
INSTANTIATE_TEST_SUITE_P(PotentialSuite, PotentialCudaTest,
                         testing::ValuesIn(suiteParams({Backend::Cuda})), suiteParamName);

// ---- the references themselves, and the factory ------------------------------------------------

TEST(PotentialReferenceTest, IcosahedronHasTheCountedDistances) {
  const double radius = 1.05;
  const std::vector<double> x = icosahedron(radius);
  ASSERT_EQ(x.size(), 39u);
  const double a = icosahedronEdge(radius);
  const double shells[4] = {radius, a, a * kGoldenRatio, 2.0 * radius};
  int counts[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < 13; ++i) {
    for (std::size_t j = i + 1; j < 13; ++j) {
      const double r =
          std::hypot(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]);
      int matched = 0;
      for (int s = 0; s < 4; ++s) {
        if (std::abs(r - shells[s]) < 1e-12) {
          ++counts[s];
          ++matched;
        }
      }
      EXPECT_EQ(matched, 1) << "pair " << i << "-" << j << " at distance " << r;
    }
  }
  EXPECT_EQ(counts[0], 12);
  EXPECT_EQ(counts[1], 30);
  EXPECT_EQ(counts[2], 30);
  EXPECT_EQ(counts[3], 6);
  EXPECT_NEAR(referenceClusterEnergy(x), icosahedronEnergyByCounting(radius), 1e-12);
}

TEST(PotentialReferenceTest, IcosahedronMinimumIsTheLj13GlobalMinimum) {
  // Cambridge Cluster Database, LJ13: -44.326801.
  EXPECT_NEAR(icosahedronEnergyByCounting(lj13MinimumRadius()), -44.326801, 1e-6);
}

TEST(PotentialFactoryTest, CpuBackendBuildsTheReference) {
  const std::unique_ptr<Potential> p = makePotential(lennardJonesSpec(13), Backend::Cpu);
  EXPECT_EQ(p->backend(), Backend::Cpu);
  EXPECT_EQ(p->dimension(), 39u);
  EXPECT_FALSE(p->isDeviceResident());
  EXPECT_NE(p->name().find("(cpu)"), std::string::npos) << p->name();
}

TEST(PotentialFactoryTest, RejectsFewerThanTwoAtoms) {
  for (Backend backend : {Backend::Cpu, Backend::Cuda})
    EXPECT_THROW(makePotential(lennardJonesSpec(1), backend), std::invalid_argument);
}

TEST(PotentialFactoryTest, CudaWithoutDeviceThrowsASentence) {
  std::cout << "[ device   ] " << gpuDescription() << "\n";
  if (gpuAvailable()) GTEST_SKIP() << "a CUDA device is present: " << gpuDescription();
  try {
    makePotential(lennardJonesSpec(13), Backend::Cuda);
    FAIL() << "makePotential(..., Backend::Cuda) succeeded without a device";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
#ifdef LANDSCAPE_HAVE_CUDA
    EXPECT_NE(message.find("no CUDA device found"), std::string::npos) << message;
    // The runtime calls a missing driver an old one; the message says which it is.
    EXPECT_EQ(message.find("driver version is insufficient"), std::string::npos) << message;
#else
    EXPECT_NE(message.find("this build has no CUDA support"), std::string::npos) << message;
#endif
  }
}

TEST(PotentialFactoryTest, CudaBackendBuildsADeviceResidentPotential) {
  if (!gpuAvailable()) GTEST_SKIP() << "CUDA backend not testable here: " << gpuDescription();
  const std::unique_ptr<Potential> p = makePotential(lennardJonesSpec(13), Backend::Cuda);
  EXPECT_EQ(p->backend(), Backend::Cuda);
  EXPECT_EQ(p->dimension(), 39u);
  EXPECT_TRUE(p->isDeviceResident());
  EXPECT_NE(p->name().find("(cuda)"), std::string::npos) << p->name();
}

}  // namespace
}  // namespace landscape
