// Pair potentials from Python (potentials/PairModel.h, docs/pair-potentials.md): a PairModel (law,
// cutoff convention, species per atom, parameters per species pair, periodic box, tables), the
// named systems (Kob-Andersen, GMIN's binary Lennard-Jones and Morse clusters), tables from a file
// or from arrays, and the potentials built from a model through the factories with a backend, as
// every built-in potential is (so that the CUDA pair potentials serve backend='cuda' once the
// factories build them). The model is recorded on the potential's Python object (pair_model), where
// the ASE calculator reads its box and connect, dneb, grow, characterise and basin_hopping its
// species and box (python/PairModels.h).
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "backends/PotentialFactory.h"
#include "landscape/geometry/PairModelAlignment.h"
#include "potentials/PairPotential.h"
#include "potentials/PairTable.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/PairModels.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

/// Where the factories below record the model on the potential's Python object.
constexpr const char* kModelAttribute = "_pair_model";

std::string reprOf(nb::handle value) { return nb::cast<std::string>(nb::repr(value)); }

std::size_t atomCount(long long atoms, const std::string& what) {
  if (atoms < 2)
    throw std::invalid_argument(what + ": atoms must be >= 2, not " + std::to_string(atoms));
  return static_cast<std::size_t>(atoms);
}

/// A number that is not a bool (True would pass as 1.0 silently).
bool numberFrom(nb::handle value, double& out) {
  return !nb::isinstance<nb::bool_>(value) && nb::try_cast(value, out);
}

/// An integer (Python int, numpy integer) that is not a bool.
bool integerFrom(nb::handle value, long long& out) {
  if (nb::isinstance<nb::bool_>(value) || nb::isinstance<nb::float_>(value)) return false;
  if (!nb::hasattr(value, "__index__")) return false;
  out = nb::cast<long long>(value.attr("__index__")());
  return true;
}

PeriodicBox boxFrom(nb::handle box, const std::string& what) {
  PeriodicBox b;
  if (box.is_none()) return b;
  double edge;
  if (numberFrom(box, edge)) {
    for (double& l : b.length) l = edge;
    return b;
  }
  std::vector<double> edges;
  if (nb::isinstance<nb::str>(box) || !nb::try_cast(box, edges) || edges.size() != 3)
    throw std::invalid_argument(what +
                                ": box must be None (open space), one edge length (a cube) "
                                "or three (Lx, Ly, Lz; 0 leaves an axis open), not " +
                                reprOf(box));
  for (int k = 0; k < 3; ++k) b.length[k] = edges[k];
  return b;
}

// ---- tables ----

/// Samples r, V on a uniform grid as a table; the grid is checked as readPairTable checks a file's
/// rows (each r within 1e-6 of the spacing of the grid through the first and last r).
PairTable tableFromArrays(HostIn r, HostIn values, const std::string& source) {
  if (r.ndim() != 1 || values.ndim() != 1 || r.size() != values.size())
    throw std::invalid_argument(
        "pair_table: r and values must be 1-d arrays of one length, got "
        "shapes " +
        shapeText(shapeOf(r)) + " and " + shapeText(shapeOf(values)));
  const std::size_t n = r.size();
  if (n < 3 || n % 2 == 0)
    throw std::invalid_argument(
        "pair_table: a pair table needs an odd number of samples, at "
        "least 3 (2 per interpolation piece plus the last knot), got " +
        std::to_string(n));
  const double* x = r.data();
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(x[k]))
      throw std::invalid_argument("pair_table: r[" + std::to_string(k) + "] is not finite");
    if (k > 0 && !(x[k] > x[k - 1]))
      throw std::invalid_argument("pair_table: r must increase, but r[" + std::to_string(k) +
                                  "] = " + numberText(x[k]) + " follows " + numberText(x[k - 1]));
  }
  const double spacing = (x[n - 1] - x[0]) / static_cast<double>(n - 1);
  for (std::size_t k = 0; k < n; ++k) {
    const double expected = x[0] + static_cast<double>(k) * spacing;
    if (std::fabs(x[k] - expected) > 1e-6 * spacing)
      throw std::invalid_argument("pair_table: r must be evenly spaced (spacing " +
                                  numberText(spacing) + "); r[" + std::to_string(k) +
                                  "] is off the grid by " + numberText(x[k] - expected));
  }
  return pairTableFromSamples(x[0], spacing, std::vector<double>(values.data(), values.data() + n),
                              source);
}

nb::tuple evaluateTable(const PairTable& table, HostIn r) {
  std::vector<double> v(r.size()), d(r.size());
  for (std::size_t k = 0; k < r.size(); ++k) table.evaluate(r.data()[k], v[k], d[k]);
  return nb::make_tuple(numpyFrom(std::move(v), shapeOf(r)), numpyFrom(std::move(d), shapeOf(r)));
}

/// The tables of a model: those given as `tables` first, then PairTable objects named directly in
/// the pairs (each object once).
struct TableList {
  std::vector<PairTable> tables;
  std::map<PyObject*, int> index;

  void add(nb::handle table) {
    index[table.ptr()] = static_cast<int>(tables.size());
    tables.push_back(nb::cast<PairTable>(table));
  }
  int indexOf(nb::handle table) {
    const auto it = index.find(table.ptr());
    if (it != index.end()) return it->second;
    add(table);
    return static_cast<int>(tables.size()) - 1;
  }
};

// ---- species and pairs ----

struct Species {
  std::vector<int> ofAtom;
  std::vector<std::string> names;

  std::string listed() const {
    std::string s;
    for (std::size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + names[k];
    return s;
  }
  /// The species a key names: its name, or its 0-based index.
  int resolve(nb::handle key, const std::string& what) const {
    if (nb::isinstance<nb::str>(key)) {
      const std::string name = nb::cast<std::string>(key);
      for (std::size_t k = 0; k < names.size(); ++k)
        if (names[k] == name) return static_cast<int>(k);
      throw std::invalid_argument(what + ": no species is named '" + name +
                                  "' (the species: " + listed() + ")");
    }
    long long index;
    if (!integerFrom(key, index) || index < 0 || index >= static_cast<long long>(names.size()))
      throw std::invalid_argument(what + ": " + reprOf(key) +
                                  " is neither a species name nor a 0-based species index below " +
                                  std::to_string(names.size()) + " (the species: " + listed() +
                                  ")");
    return static_cast<int>(index);
  }
};

std::string letterName(std::size_t k) {
  return k < 26 ? std::string(1, static_cast<char>('A' + k)) : "S" + std::to_string(k);
}

Species speciesFrom(nb::handle species, nb::handle givenNames) {
  Species s;
  if (!givenNames.is_none()) {
    if (nb::isinstance<nb::str>(givenNames) || !nb::try_cast(givenNames, s.names))
      throw std::invalid_argument("PairModel: species_names must be a list of strings, not " +
                                  reprOf(givenNames));
    for (std::size_t a = 0; a < s.names.size(); ++a)
      for (std::size_t b = 0; b < a; ++b)
        if (s.names[a] == s.names[b])
          throw std::invalid_argument("PairModel: species_names lists '" + s.names[a] + "' twice");
  }
  if (nb::isinstance<nb::str>(species) || !nb::hasattr(species, "__iter__"))
    throw std::invalid_argument(
        "PairModel: species must be a sequence with one species per atom "
        "(names such as 'A', or 0-based indices), not " +
        reprOf(species));
  bool byName = false, byIndex = false;
  long long highest = -1;
  std::size_t atom = 0;
  for (nb::handle item : species) {
    ++atom;
    long long index;
    if (nb::isinstance<nb::str>(item)) {
      byName = true;
      const std::string name = nb::cast<std::string>(item);
      int found = -1;
      for (std::size_t k = 0; k < s.names.size(); ++k)
        if (s.names[k] == name) found = static_cast<int>(k);
      if (found < 0) {
        if (!givenNames.is_none())
          throw std::invalid_argument("PairModel: atom " + std::to_string(atom) +
                                      " is of species '" + name + "', which species_names (" +
                                      s.listed() + ") does not list");
        found = static_cast<int>(s.names.size());
        s.names.push_back(name);  // species numbered in order of first appearance
      }
      s.ofAtom.push_back(found);
    } else if (integerFrom(item, index)) {
      byIndex = true;
      if (index < 0)
        throw std::invalid_argument("PairModel: atom " + std::to_string(atom) + " has species " +
                                    std::to_string(index) + "; indices start at 0");
      highest = std::max(highest, index);
      s.ofAtom.push_back(static_cast<int>(index));
    } else {
      throw std::invalid_argument("PairModel: atom " + std::to_string(atom) + "'s species " +
                                  reprOf(item) + " is neither a name nor a 0-based index");
    }
  }
  if (byName && byIndex)
    throw std::invalid_argument(
        "PairModel: species mixes names and indices; give every atom's species one way");
  if (byIndex) {
    if (givenNames.is_none()) {
      for (long long k = 0; k <= highest; ++k) s.names.push_back(letterName(k));
    } else if (highest >= static_cast<long long>(s.names.size())) {
      throw std::invalid_argument("PairModel: species index " + std::to_string(highest) +
                                  " has no name in species_names (" + s.listed() + ")");
    }
  }
  return s;
}

const char* const kParameterNames = "epsilon, sigma (or r0), rho, cutoff, table";

PairParameters parametersFrom(nb::handle value, const std::string& label, TableList& tables) {
  if (nb::isinstance<PairParameters>(value)) return nb::cast<PairParameters>(value);
  if (!nb::isinstance<nb::dict>(value))
    throw std::invalid_argument("PairModel: the parameters of " + label +
                                " must be a PairParameters or a dict of " + kParameterNames +
                                ", not " + reprOf(value));
  PairParameters p;
  bool sigmaGiven = false, r0Given = false;
  for (auto [key, item] : nb::borrow<nb::dict>(value)) {
    const std::string name =
        nb::isinstance<nb::str>(key) ? nb::cast<std::string>(key) : reprOf(key);
    if (name == "table") {
      long long index;
      if (nb::isinstance<PairTable>(item)) {
        p.table = tables.indexOf(item);
      } else if (integerFrom(item, index)) {
        p.table = static_cast<int>(index);
      } else {
        throw std::invalid_argument("PairModel: " + label +
                                    " table must be a PairTable or an index "
                                    "into tables, not " +
                                    reprOf(item));
      }
      continue;
    }
    double number;
    double* field = name == "epsilon"                 ? &p.epsilon
                    : name == "sigma" || name == "r0" ? &p.sigma
                    : name == "rho"                   ? &p.rho
                    : name == "cutoff"                ? &p.cutoff
                                                      : nullptr;
    if (!field)
      throw std::invalid_argument("PairModel: " + label + " has an unknown parameter '" + name +
                                  "' (the parameters: " + kParameterNames + ")");
    if (!numberFrom(item, number))
      throw std::invalid_argument("PairModel: " + label + " " + name + " must be a number, not " +
                                  reprOf(item));
    sigmaGiven = sigmaGiven || name == "sigma";
    r0Given = r0Given || name == "r0";
    *field = number;
  }
  if (sigmaGiven && r0Given)
    throw std::invalid_argument("PairModel: " + label +
                                " gives both sigma and r0, which are one parameter (the Lennard-"
                                "Jones sigma, or the Morse equilibrium distance r0)");
  return p;
}

/// Whether `pairs` is one set of parameters rather than a dict keyed by species pairs.
bool isOneSet(nb::handle pairs) {
  if (nb::isinstance<PairParameters>(pairs)) return true;
  if (!nb::isinstance<nb::dict>(pairs)) return false;
  for (auto [key, item] : nb::borrow<nb::dict>(pairs)) return !nb::isinstance<nb::tuple>(key);
  return false;
}

void setPairs(PairModel& m, const Species& species, nb::handle pairs, TableList& tables) {
  const int types = static_cast<int>(species.names.size());
  m.pairs.assign(static_cast<std::size_t>(types * types), PairParameters{});
  if (isOneSet(pairs)) {
    if (types != 1)
      throw std::invalid_argument(
          "PairModel: " + std::to_string(types) + " species (" + species.listed() +
          ") need pairs as a dict {(a, b): parameters} with an entry for every species pair; "
          "one set of parameters serves a single species");
    m.pairs[0] = parametersFrom(pairs, "pair " + species.names[0] + "-" + species.names[0], tables);
    return;
  }
  if (!nb::isinstance<nb::dict>(pairs))
    throw std::invalid_argument(
        "PairModel: pairs must be a dict {(a, b): PairParameters or dict} "
        "keyed by species pairs (names or 0-based indices), or one "
        "PairParameters for a single species; not " +
        reprOf(pairs));
  std::vector<char> given(static_cast<std::size_t>(types * types), 0);
  for (auto [key, value] : nb::borrow<nb::dict>(pairs)) {
    if (!nb::isinstance<nb::tuple>(key) || nb::len(key) != 2)
      throw std::invalid_argument(
          "PairModel: the keys of pairs are species pairs such as ('A', "
          "'B'); found " +
          reprOf(key));
    const int a = species.resolve(key[0], "PairModel: pairs key " + reprOf(key));
    const int b = species.resolve(key[1], "PairModel: pairs key " + reprOf(key));
    const std::string label = "pair " + species.names[a] + "-" + species.names[b];
    if (given[a * types + b])
      throw std::invalid_argument("PairModel: " + label + " is given twice (as (" +
                                  species.names[a] + ", " + species.names[b] + ") and (" +
                                  species.names[b] + ", " + species.names[a] + ")?)");
    given[a * types + b] = given[b * types + a] = 1;
    m.setPair(a, b, parametersFrom(value, label, tables));
  }
  for (int a = 0; a < types; ++a)
    for (int b = a; b < types; ++b)
      if (!given[a * types + b])
        throw std::invalid_argument("PairModel: pairs has no parameters for the species pair " +
                                    species.names[a] + "-" + species.names[b]);
}

PairModel modelFrom(nb::handle species, nb::handle pairs, const std::string& law,
                    const std::string& convention, nb::handle box, nb::handle tables,
                    nb::handle speciesNames) {
  PairModel m;
  const Species s = speciesFrom(species, speciesNames);
  m.species = s.ofAtom;
  m.speciesNames = s.names;
  m.law = parsePairLaw(law);
  m.cutoff = parsePairCutoff(convention);
  m.box = boxFrom(box, "PairModel");
  TableList list;
  if (!tables.is_none()) {
    if (nb::isinstance<PairTable>(tables) || !nb::hasattr(tables, "__iter__"))
      throw std::invalid_argument(
          "PairModel: tables must be a list of PairTable (pair_table()), "
          "not " +
          reprOf(tables));
    for (nb::handle t : tables) {
      if (!nb::isinstance<PairTable>(t))
        throw std::invalid_argument("PairModel: tables holds " + reprOf(t) +
                                    ", which is not a PairTable (pair_table())");
      list.add(t);
    }
  }
  setPairs(m, s, pairs, list);
  m.tables = std::move(list.tables);
  m.check();
  return m;
}

// ---- the named systems (units of the first species' sigma and epsilon, or r0 for Morse) ----

PairModel checked(PairModel m) {
  m.check();
  return m;
}

/// One species cut at cutoff (units of its sigma or r0), or uncut for 0.
void cutSingleSpecies(PairModel& m, double cutoff, const std::string& convention) {
  if (cutoff < 0.0 || !std::isfinite(cutoff))
    throw std::invalid_argument("cutoff must be >= 0 and finite (0: no cutoff), not " +
                                numberText(cutoff));
  m.cutoff = cutoff > 0.0 ? parsePairCutoff(convention) : PairCutoff::None;
  m.pairs[0].cutoff = cutoff * m.pairs[0].sigma;
}

PairModel lennardJonesOf(long long atoms, double cutoff, const std::string& convention,
                         nb::handle box) {
  PairModel m = lennardJonesModel(atomCount(atoms, "PairModel.lennard_jones"));
  cutSingleSpecies(m, cutoff, convention);
  m.box = boxFrom(box, "PairModel.lennard_jones");
  return checked(std::move(m));
}

PairModel morseOf(long long atoms, double rho, double cutoff, const std::string& convention,
                  nb::handle box) {
  PairModel m = morseModel(atomCount(atoms, "morse"), rho);
  cutSingleSpecies(m, cutoff, convention);
  m.box = boxFrom(box, "morse");
  return checked(std::move(m));
}

PairModel binaryOf(long long atoms, long long typeA, double epsilonAB, double epsilonBB,
                   double sigmaAB, double sigmaBB, double cutoff, const std::string& convention,
                   nb::handle box) {
  const std::size_t n = atomCount(atoms, "binary_lennard_jones");
  if (typeA < 0 || typeA > atoms)
    throw std::invalid_argument(
        "binary_lennard_jones: type_a (the first type_a atoms are A) "
        "must lie in 0.." +
        std::to_string(atoms) + ", not " + std::to_string(typeA));
  if (cutoff < 0.0 || !std::isfinite(cutoff))
    throw std::invalid_argument(
        "binary_lennard_jones: cutoff must be >= 0 and finite (0: no "
        "cutoff, GMIN's BINARY), not " +
        numberText(cutoff));
  PairModel m = binaryLennardJonesModel(n, static_cast<std::size_t>(typeA), epsilonAB, epsilonBB,
                                        sigmaAB, sigmaBB, cutoff, parsePairCutoff(convention));
  m.box = boxFrom(box, "binary_lennard_jones");
  return checked(std::move(m));
}

PairModel kobAndersenOf(long long atoms, nb::handle box, double cutoff,
                        const std::string& convention) {
  const std::size_t n = atomCount(atoms, "kob_andersen");
  if (!(cutoff > 0.0) || !std::isfinite(cutoff))
    throw std::invalid_argument(
        "kob_andersen: cutoff must be > 0 (units of each pair's sigma; "
        "Kob and Andersen's is 2.5), not " +
        numberText(cutoff));
  return checked(
      kobAndersenModel(n, cutoff, parsePairCutoff(convention), boxFrom(box, "kob_andersen")));
}

PairModel tabulatedOf(long long atoms, nb::handle table, std::optional<double> cutoff,
                      const std::string& convention, nb::handle box) {
  if (!nb::isinstance<PairTable>(table))
    throw std::invalid_argument(
        "PairModel.tabulated: table must be a PairTable (pair_table()), "
        "not " +
        reprOf(table));
  PairModel m = lennardJonesModel(atomCount(atoms, "PairModel.tabulated"));
  m.law = PairLaw::Tabulated;
  m.tables = {nb::cast<PairTable>(table)};
  m.pairs[0].table = 0;
  m.cutoff = parsePairCutoff(convention);
  m.pairs[0].cutoff = cutoff ? *cutoff : m.tables[0].end();
  m.box = boxFrom(box, "PairModel.tabulated");
  return checked(std::move(m));
}

// ---- potentials ----

nb::object potentialOf(nb::object model, const std::string& backend) {
  const PairModel& m = nb::cast<const PairModel&>(model);
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Pair;
  spec.atoms = m.atoms();
  spec.pairModel = std::make_shared<const PairModel>(m);
  nb::object potential = nb::cast(makePotential(spec, parseBackend(backend)));
  nb::setattr(potential, kModelAttribute, model);
  return potential;
}

nb::object batchedPotentialOf(nb::object model, const std::string& backend, int threads) {
  const PairModel& m = nb::cast<const PairModel&>(model);
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Pair;
  spec.atoms = m.atoms();
  spec.pairModel = std::make_shared<const PairModel>(m);
  BatchedPotentialOptions options;
  options.threads = threads;
  nb::object potential =
      nb::cast(makeBatchedPotentialForSpec(spec, parseBackend(backend), options));
  nb::setattr(potential, kModelAttribute, model);
  return potential;
}

/// The model recorded on a potential's Python object, if any.
const PairModel* recordedModel(nb::handle self) {
  if (!self.is_valid()) return nullptr;
  nb::object recorded = nb::getattr(self, kModelAttribute, nb::none());
  const PairModel* model = nullptr;
  if (!recorded.is_none() && nb::try_cast(recorded, model)) return model;
  return nullptr;
}

nb::tuple boxTuple(const PeriodicBox& box) {
  return nb::make_tuple(box.length[0], box.length[1], box.length[2]);
}

const char* const kUnits =
    "Units: reduced (epsilon and sigma of the first species pair, or epsilon and r0 for Morse) "
    "unless a table is in other units; every length (sigma, r0, cutoffs, box edges) in one unit, "
    "energies in the unit of epsilon.";

void bindPairParameters(nb::module_& m) {
  nb::class_<PairParameters>(
      m, "PairParameters",
      "The parameters of one species pair of a PairModel: epsilon (well depth, energy), sigma "
      "(Lennard-Jones sigma; for Morse the equilibrium distance r0, also named r0 here; length), "
      "rho (Morse range, dimensionless: e^{rho (1 - r / r0)}, GMIN's RHO; pele's and LAMMPS's "
      "a = rho / r0), cutoff (the pair's cutoff distance, absolute length; 0 with convention "
      "'none') and table (tabulated law: index into the model's tables).")
      .def(
          "__init__",
          [](PairParameters* self, double epsilon, std::optional<double> sigma,
             std::optional<double> r0, double rho, double cutoff, int table) {
            if (sigma && r0)
              throw std::invalid_argument(
                  "PairParameters: sigma and r0 are one parameter (the "
                  "Lennard-Jones sigma, or the Morse r0); give one");
            PairParameters p;
            p.epsilon = epsilon;
            p.sigma = sigma ? *sigma : r0 ? *r0 : 1.0;
            p.rho = rho;
            p.cutoff = cutoff;
            p.table = table;
            new (self) PairParameters(p);
          },
          "epsilon"_a = 1.0, "sigma"_a = nb::none(), "r0"_a = nb::none(), "rho"_a = 6.0,
          "cutoff"_a = 0.0, "table"_a = -1,
          "Parameters of one species pair (checked when a PairModel is made of them).")
      .def_rw("epsilon", &PairParameters::epsilon, "well depth (energy)")
      .def_rw("sigma", &PairParameters::sigma, "Lennard-Jones sigma, or Morse r0 (length)")
      .def_prop_rw(
          "r0", [](const PairParameters& p) { return p.sigma; },
          [](PairParameters& p, double r0) { p.sigma = r0; }, "Morse r0: the same field as sigma")
      .def_rw("rho", &PairParameters::rho, "Morse range rho (dimensionless)")
      .def_rw("cutoff", &PairParameters::cutoff, "cutoff distance (length, absolute); 0 = none")
      .def_rw("table", &PairParameters::table, "tabulated law: index into the model's tables")
      .def("__eq__",
           [](const PairParameters& a, const PairParameters& b) {
             return a.epsilon == b.epsilon && a.sigma == b.sigma && a.rho == b.rho &&
                    a.cutoff == b.cutoff && a.table == b.table;
           })
      .def("__repr__", [](const PairParameters& p) {
        return "PairParameters(epsilon=" + numberText(p.epsilon) +
               ", sigma=" + numberText(p.sigma) + ", rho=" + numberText(p.rho) +
               ", cutoff=" + numberText(p.cutoff) + ", table=" + std::to_string(p.table) + ")";
      });
}

void bindPairTable(nb::module_& m) {
  nb::class_<PairTable>(
      m, "PairTable",
      "A pair energy V(r) given as a table, evaluated by quadratic interpolation on pieces of two "
      "rows (Supporting Information A of the MOIL GPU port; docs/pair-potentials.md#tables): the "
      "energy is the interpolant, the gradient its exact derivative. Below the first r the energy "
      "is NaN. Made by landscape.pair_table.")
      .def_ro("start", &PairTable::start, "r of the first row (length)")
      .def_ro("width", &PairTable::width, "width of an interpolation piece: two rows (length)")
      .def_prop_ro(
          "spacing", [](const PairTable& t) { return t.width / 2.0; }, "row spacing (length)")
      .def_prop_ro("pieces", &PairTable::pieces)
      .def_prop_ro("end", &PairTable::end, "r of the last row (length)")
      .def_ro("source", &PairTable::source, "the file, or what the arrays were named")
      .def("__call__", &evaluateTable, "r"_a,
           "(V, dV/dr) at the distances r (arrays shaped like r; energy and energy/length).")
      .def("__repr__", [](const PairTable& t) {
        return "<landscape.PairTable " + t.source + ": " + std::to_string(2 * t.pieces() + 1) +
               " rows, r from " + numberText(t.start) + " to " + numberText(t.end()) + ">";
      });
  m.def(
      "pair_table", [](const std::filesystem::path& path) { return readPairTable(path.string()); },
      "path"_a,
      "A pair table read from a file: one 'r V(r)' pair per line in the potential's units, '#' "
      "starts a comment line, r increasing with a uniform spacing, an odd number of rows (>= 3). "
      "A file that cannot be read or parsed raises RuntimeError naming the file and line.");
  m.def("pair_table", &tableFromArrays, "r"_a, "values"_a, "source"_a = "arrays",
        "A pair table from arrays: V(r) sampled at evenly spaced r (an odd number of samples, "
        ">= 3; length and energy units of the model). Bad samples raise ValueError.");
}

void bindPairModel(nb::module_& m) {
  const std::string doc =
      std::string(
          "A pair system: atoms of one or more species interacting by one pair law, with "
          "parameters per species pair, an optional cutoff convention and an optional "
          "orthorhombic periodic box (potentials/PairModel.h, docs/pair-potentials.md).\n\n"
          "PairModel(species, pairs, law='lennard-jones', convention='none', box=None, "
          "tables=None, species_names=None):\n"
          "  species: one entry per atom, species names ('A', 'B', ...; numbered in order of "
          "first appearance unless species_names orders them) or 0-based indices (named A, B, "
          "... unless species_names names them);\n"
          "  pairs: a dict {(a, b): PairParameters or dict(epsilon=, sigma= or r0=, rho=, "
          "cutoff=, table=)} with one entry per species pair (either order), or one set of "
          "parameters for a single species; cutoff is the pair's absolute cutoff distance;\n"
          "  law: 'lennard-jones' (4 eps [(sigma/r)^12 - (sigma/r)^6]), 'morse' (eps e^{rho(1 - "
          "r/r0)} (e^{rho(1 - r/r0)} - 2), GMIN's MORSE) or 'tabulated' (table= in the pairs, an "
          "index into tables or a PairTable);\n"
          "  convention: 'none' (every pair, clusters only), 'truncated', 'shifted' (V - V(rc): "
          "LAMMPS's shift yes, ASE's LennardJones), 'force-shifted' or 'quadratic-smoothed' "
          "(GMIN's BLJCLUSTER: V and V' zero at rc);\n"
          "  box: None (open space), one edge length (a cube) or (Lx, Ly, Lz) with 0 for an open "
          "axis; pairs are taken at their minimum image, so every cutoff must be at most half of "
          "every periodic edge.\n") +
      kUnits +
      " Invalid models raise ValueError with a sentence naming the problem. Build the potential "
      "with landscape.pair_potential(model, backend).";
  nb::class_<PairModel>(m, "PairModel", doc.c_str())
      .def(
          "__init__",
          [](PairModel* self, nb::handle species, nb::handle pairs, const std::string& law,
             const std::string& convention, nb::handle box, nb::handle tables,
             nb::handle speciesNames) {
            new (self)
                PairModel(modelFrom(species, pairs, law, convention, box, tables, speciesNames));
          },
          "species"_a, "pairs"_a, "law"_a = "lennard-jones", "convention"_a = "none",
          "box"_a = nb::none(), "tables"_a = nb::none(), "species_names"_a = nb::none())
      .def_prop_ro("atoms", &PairModel::atoms)
      .def_prop_ro(
          "law", [](const PairModel& p) { return pairLawName(p.law); },
          "'lennard-jones', 'morse' or 'tabulated'")
      .def_prop_ro(
          "convention", [](const PairModel& p) { return pairCutoffName(p.cutoff); },
          "the cutoff convention: 'none', 'truncated', 'shifted', 'force-shifted' or "
          "'quadratic-smoothed'")
      .def_prop_ro(
          "species", [](const PairModel& p) { return numpyOf<int>(p.species, {p.atoms()}); },
          nb::rv_policy::automatic, "each atom's 0-based species index (a new int32 array)")
      .def_ro("species_names", &PairModel::speciesNames)
      .def_prop_ro(
          "box", [](const PairModel& p) { return boxTuple(p.box); },
          "(Lx, Ly, Lz) in the length unit; 0 for an open axis, all 0 for a cluster")
      .def_prop_ro(
          "periodic", [](const PairModel& p) { return p.box.periodic(); },
          "whether any axis is periodic")
      .def_ro("tables", &PairModel::tables)
      .def(
          "pair",
          [](const PairModel& p, nb::handle a, nb::handle b) {
            Species s;
            s.names = p.speciesNames;
            return p.pair(s.resolve(a, "PairModel.pair"), s.resolve(b, "PairModel.pair"));
          },
          "a"_a, "b"_a, "The parameters of species pair (a, b) (names or 0-based indices).")
      .def_prop_ro(
          "pairs",
          [](const PairModel& p) {
            nb::dict d;
            for (int a = 0; a < p.speciesCount(); ++a)
              for (int b = a; b < p.speciesCount(); ++b)
                d[nb::make_tuple(p.speciesNames[a], p.speciesNames[b])] = p.pair(a, b);
            return d;
          },
          "{(a, b): PairParameters} for every species pair, a before b")
      .def("__repr__",
           [](const PairModel& p) { return "<landscape.PairModel " + p.describe() + ">"; })
      .def_static("lennard_jones", &lennardJonesOf, "atoms"_a, "cutoff"_a = 0.0,
                  "convention"_a = "quadratic-smoothed", "box"_a = nb::none(),
                  "One species of Lennard-Jones atoms (epsilon = sigma = 1), cut at cutoff sigma "
                  "with the convention (0: every pair; a box needs a cutoff).")
      .def_static("morse", &morseOf, "atoms"_a, "rho"_a = 6.0, "cutoff"_a = 0.0,
                  "convention"_a = "quadratic-smoothed", "box"_a = nb::none(),
                  "A Morse system in GMIN's units (epsilon = r0 = 1, range rho), cut at cutoff "
                  "r0 with the convention (0: every pair).")
      .def_static("binary_lennard_jones", &binaryOf, "atoms"_a, "type_a"_a, "epsilon_ab"_a,
                  "epsilon_bb"_a, "sigma_ab"_a, "sigma_bb"_a, "cutoff"_a = 0.0,
                  "convention"_a = "quadratic-smoothed", "box"_a = nb::none(),
                  "GMIN's binary Lennard-Jones (BLJCLUSTER ntypea epsab epsbb sigab sigbb cutoff; "
                  "BINARY without a cutoff): the first type_a atoms are A (epsilon_AA = sigma_AA "
                  "= 1), the rest B; each pair cut at cutoff times its sigma with the convention "
                  "(GMIN's BLJCLUSTER smooths quadratically), 0: every pair.")
      .def_static("kob_andersen", &kobAndersenOf, "atoms"_a, "box"_a, "cutoff"_a = 2.5,
                  "convention"_a = "shifted",
                  "The Kob-Andersen 80:20 mixture (Kob and Andersen, Phys. Rev. E 51, 4626 "
                  "(1995)): the first round(0.8 atoms) atoms A; epsilon_AB = 1.5, sigma_AB = 0.8, "
                  "epsilon_BB = 0.5, sigma_BB = 0.88; each pair cut at cutoff times its sigma, "
                  "truncated and shifted as in the paper (gmin --kob-andersen smooths "
                  "quadratically unless told otherwise). box: an edge (a cube) or three; the "
                  "usual density 1.2 is a cube of edge (atoms / 1.2)^(1/3).")
      .def_static("tabulated", &tabulatedOf, "atoms"_a, "table"_a, "cutoff"_a = nb::none(),
                  "convention"_a = "quadratic-smoothed", "box"_a = nb::none(),
                  "One species interacting by a PairTable, cut at cutoff (absolute; default the "
                  "table's end) with the convention, as gmin --pair-table.");
}

}  // namespace

const PairModel* pairModelOf(const Potential& potential) {
  if (const PairModel* model = recordedModel(nb::find(potential))) return model;
  if (const auto* cpu = dynamic_cast<const PairPotential*>(&potential)) return &cpu->model();
  return nullptr;
}

const PairModel* pairModelOf(const BatchedPotential& potential) {
  return recordedModel(nb::find(potential));
}

void restrictAlignment(const PairModel& model, AlignmentParams& alignment) {
  alignment = pairAlignment(model, alignment);
}

void restrictAlignment(const Potential& potential, AlignmentParams& alignment) {
  if (const PairModel* model = pairModelOf(potential)) restrictAlignment(*model, alignment);
}

void restrictCharacterisation(const Potential& potential, CharacterisationParams& params) {
  const PairModel* model = pairModelOf(potential);
  if (!model) return;
  if (model->box.periodic()) params.translationsOnly = true;
  if (model->speciesCount() > 1 && params.pointGroup.atomTypes.empty())
    params.pointGroup.atomTypes = model->species;
}

void restrictTransitionStateSearch(const Potential& potential,
                                   HybridEigenvectorFollowingParams& params) {
  const PairModel* model = pairModelOf(potential);
  if (model && model->box.periodic()) params.rayleighRitz.translationsOnly = true;
}

void requireBoxBasinHopping(const PairModel& model, const BasinHoppingParams& params,
                            const std::string& what) {
  if (!model.box.periodic() || !params.container) return;
  throw std::invalid_argument(what + ": the pair potential is periodic (" + model.describe() +
                              "): set container=False (the container rejects every structure "
                              "with an atom beyond its radius from the origin, and atoms of a "
                              "box lie everywhere in it)");
}

BasinHoppingParams boxBasinHoppingParams(BasinHoppingParams params) {
  params.centre = false;
  params.container = false;
  params.angularThreshold = 0.0;
  return params;
}

void bindPairPotentials(nb::module_& m) {
  bindPairParameters(m);
  bindPairTable(m);
  bindPairModel(m);
  const std::string backendDoc =
      " backend: 'cpu' (potentials/PairPotential: every pair once at its minimum image) or "
      "'cuda'. The potential's pair_model is the model. ";
  m.def("pair_potential", &potentialOf, "model"_a, "backend"_a = "cpu",
        nb::sig("def pair_potential(model: PairModel, backend: str = 'cpu') -> Potential"),
        (std::string("The potential of a PairModel.") + backendDoc + kUnits).c_str());
  m.def("batched_pair_potential", &batchedPotentialOf, "model"_a, "backend"_a = "cpu",
        "threads"_a = 1,
        nb::sig("def batched_pair_potential(model: PairModel, backend: str = 'cpu', threads: int = "
                "1) -> BatchedPotential"),
        "The batched potential of a PairModel (B structures per call, (B, atoms, 3)): for "
        "batched_minimiser_over and walkers. backend 'cpu': `threads` copies of the CPU potential, "
        "each structure's energy and gradient its bits; 'cuda' where the factories build one.");
  m.def(
      "morse",
      [](long long atoms, double rho, double cutoff, const std::string& convention, nb::handle box,
         const std::string& backend) {
        return potentialOf(nb::cast(morseOf(atoms, rho, cutoff, convention, box)), backend);
      },
      "atoms"_a, "rho"_a = 6.0, "cutoff"_a = 0.0, "convention"_a = "quadratic-smoothed",
      "box"_a = nb::none(), "backend"_a = "cpu",
      nb::sig("def morse(atoms: int, rho: float = 6.0, cutoff: float = 0.0, convention: str = "
              "'quadratic-smoothed', box: object = None, backend: str = 'cpu') -> Potential"),
      (std::string("A Morse cluster in GMIN's reduced units (MORSE rho; Doye and Wales, J. Chem. "
                   "Soc., Faraday Trans. 93, 4233 (1997)): pair energy e^{rho(1 - r)} (e^{rho(1 "
                   "- r)} - 2) in epsilon, lengths in r0; cutoff in r0 (0: every pair) with the "
                   "convention; box as PairModel's.") +
       backendDoc)
          .c_str());
  m.def(
      "binary_lennard_jones",
      [](long long atoms, long long typeA, double epsilonAB, double epsilonBB, double sigmaAB,
         double sigmaBB, double cutoff, const std::string& convention, nb::handle box,
         const std::string& backend) {
        return potentialOf(nb::cast(binaryOf(atoms, typeA, epsilonAB, epsilonBB, sigmaAB, sigmaBB,
                                             cutoff, convention, box)),
                           backend);
      },
      "atoms"_a, "type_a"_a, "epsilon_ab"_a, "epsilon_bb"_a, "sigma_ab"_a, "sigma_bb"_a,
      "cutoff"_a = 0.0, "convention"_a = "quadratic-smoothed", "box"_a = nb::none(),
      "backend"_a = "cpu",
      nb::sig("def binary_lennard_jones(atoms: int, type_a: int, epsilon_ab: float, epsilon_bb: "
              "float, sigma_ab: float, sigma_bb: float, cutoff: float = 0.0, convention: str = "
              "'quadratic-smoothed', box: object = None, backend: str = 'cpu') -> Potential"),
      (std::string("GMIN's binary Lennard-Jones (BLJCLUSTER ntypea epsab epsbb sigab sigbb "
                   "cutoff, BINARY without one) in reduced units of the A-A pair: the first "
                   "type_a atoms are A, the rest B; each pair cut at cutoff times its sigma "
                   "(0: every pair).") +
       backendDoc)
          .c_str());
  m.def(
      "kob_andersen",
      [](long long atoms, nb::handle box, double cutoff, const std::string& convention,
         const std::string& backend) {
        return potentialOf(nb::cast(kobAndersenOf(atoms, box, cutoff, convention)), backend);
      },
      "atoms"_a, "box"_a, "cutoff"_a = 2.5, "convention"_a = "shifted", "backend"_a = "cpu",
      nb::sig("def kob_andersen(atoms: int, box: object, cutoff: float = 2.5, convention: str = "
              "'shifted', backend: str = 'cpu') -> Potential"),
      (std::string("The Kob-Andersen 80:20 Lennard-Jones mixture (Kob and Andersen, Phys. Rev. E "
                   "51, 4626 (1995)) in reduced units of the A-A pair, each pair cut at cutoff "
                   "times its sigma, truncated and shifted as in the paper; box: an edge (a "
                   "cube, (atoms / 1.2)^(1/3) at the usual density 1.2) or three.") +
       backendDoc)
          .c_str());
}

}  // namespace landscape::python
