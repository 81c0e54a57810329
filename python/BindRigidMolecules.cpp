// Rigid molecules from Python: rigid TIP4P water clusters (potentials/WaterCluster, docs/water.md)
// and Gay-Berne ellipsoids as rigid bodies of 4 markers (potentials/GayBerne, docs/gay-berne.md),
// as potentials in rigid coordinates (centres, then angle-axis vectors) that every algorithm taking
// a Potential accepts, with the conversions to GMIN's TIP4P coordinates, site Cartesians, ASE's
// symbols and the ellipsoids' centres and axes. basin_hopping searches them as gmin does
// (rigid-body moves, python/RigidMolecules.h), with the settings recorded here.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/search/RigidBodySearch.h"
#include "potentials/GayBerne.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/WaterCluster.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/RigidMolecules.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

/// Where the constructors below record the search settings on the potential's Python object.
constexpr const char* kSearchAttribute = "_rigid_search";

constexpr const char* kTip4pUnits =
    " Units: kJ/mol and Angstrom (GMIN's and the Cambridge Cluster Database's for TIP4P); rigid "
    "coordinates q (2N rows of 3: the N molecules' centres of geometry of their 4 sites in "
    "Angstrom, then N angle-axis vectors in radians), gradients in kJ/mol/Angstrom and "
    "kJ/mol/radian.";
constexpr const char* kSsdUnits =
    " Units: kcal/mol and Angstrom; rigid coordinates q (2N rows of 3: the centres in Angstrom, "
    "then N angle-axis vectors in radians, p = 0 the dipole along +z), gradients in "
    "kcal/mol/Angstrom and kcal/mol/radian.";
constexpr const char* kGayBerneUnits =
    " Units: reduced (lengths in sigma0, energies in eps0; docs/gay-berne.md); rigid coordinates q "
    "(2n rows of 3: centres, then angle-axis vectors in radians, p = 0 the axis along +z).";

std::size_t countOf(long long n, const std::string& what, const char* noun) {
  if (n < 2)
    throw std::invalid_argument(what + ": a cluster needs at least 2 " + noun + ", not " +
                                std::to_string(n));
  return static_cast<std::size_t>(n);
}

/// n from an array of `rows` x n rows of 3 followed by `trailing` rows (GMIN's TIP4P coordinates:
/// 2 rows per molecule, then one per ion).
std::size_t moleculesOf(const HostIn& a, std::size_t rows, const std::string& what,
                        const std::string& name, const std::string& layout,
                        std::size_t trailing = 0) {
  const std::vector<std::size_t> shape = shapeOf(a);
  const bool shaped = (shape.size() == 2 && shape[1] == 3) || shape.size() == 1;
  const std::size_t all = a.size() / 3;
  if (!shaped || a.size() % 3 != 0 || all <= trailing || (all - trailing) % rows != 0)
    throw std::invalid_argument(
        what + ": " + name + " has shape " + shapeText(shape) + " but needs " + layout +
        " (a multiple of " + std::to_string(rows) + " rows of 3" +
        (trailing > 0 ? ", then one row per ion (" + std::to_string(trailing) + ")"
                      : std::string()) +
        ")");
  return (all - trailing) / rows;
}

std::vector<double> valuesOf(const HostIn& a) { return {a.data(), a.data() + a.size()}; }

void record(nb::object& potential, const RigidSearchDefaults& d) {
  nb::dict search;
  search["params"] = nb::cast(d.params);
  search["translation"] = d.moves.translation;
  search["rotation"] = d.moves.rotation;
  search["probability"] = d.moves.probability;
  search["free_atoms"] = d.moves.freeAtoms;
  search["start_radius"] = d.startRadius;
  search["start"] = nb::cast(d.start);
  nb::setattr(potential, kSearchAttribute, search);
}

// ---- TIP4P ----

std::vector<WaterIon> ionsOf(const std::string& ions, const std::string& what) {
  try {
    return tip4pIonsFromList(ions);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + ": " + e.what());
  }
}

nb::object tip4pPotential(long long molecules, const std::string& backend,
                          const std::string& ions) {
  const WaterCluster water =
      tip4pCluster(countOf(molecules, "tip4p_cluster", "molecules"), ionsOf(ions, "tip4p_cluster"));
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sites;
  spec.atoms = water.model.siteCount();
  spec.siteModel = std::make_shared<const SiteModel>(water.model);
  // cpu: RigidBodyPotential over SitePotential; cuda: RigidBodyCuda over SitePotentialCuda (the
  // factories' single-structure pair, as gmin --water --backend cuda --lbfgs-backend gpu).
  const Backend b = parseBackend(backend);
  nb::object potential =
      nb::cast(makeOwningRigidBodyPotential(makePotential(spec, b), water.rigidSystem(), b));
  RigidSearchDefaults d;
  d.params = gminWaterDefaultParams();  // gmin --water's settings
  d.moves = waterRigidBodyMoves();
  d.moves.freeAtoms = water.ionCount() > 0;  // the ions take the molecules' translations
  d.startRadius = waterStartRadius(water.moleculeCount() + water.ionCount());
  record(potential, d);
  return potential;
}

nb::list tip4pSymbols(long long molecules, const std::string& ions) {
  const WaterCluster water =
      tip4pCluster(countOf(molecules, "tip4p_symbols", "molecules"), ionsOf(ions, "tip4p_symbols"));
  nb::list symbols;
  for (const std::string& s : water.siteLabels()) symbols.append(s);
  return symbols;
}

// The molecules of an array of `rowsPerMolecule` rows of 3 per molecule followed by one row per
// ion of `ions`.
WaterCluster waterOf(const HostIn& a, std::size_t rowsPerMolecule, const std::string& what,
                     const std::string& name, const std::string& layout, const std::string& ions) {
  const std::vector<WaterIon> list = ionsOf(ions, what);
  const std::size_t n = moleculesOf(a, rowsPerMolecule, what, name, layout, list.size());
  return tip4pCluster(countOf(static_cast<long long>(n), what, "molecules"), list);
}

constexpr const char* kGminLayout = "GMIN's layout: N oxygens, then N angle-axis vectors";
constexpr const char* kRigidLayout = "rigid coordinates: N centres, then N angle-axis vectors";
constexpr const char* kSiteLayout = "4 sites per molecule, O H H M";

NumpyArray tip4pFromGmin(HostIn gmin, const std::string& ions) {
  const WaterCluster w = waterOf(gmin, 2, "tip4p_from_gmin", "gmin", kGminLayout, ions);
  return numpyCoordinates(w.gminToRigid(valuesOf(gmin)));
}

NumpyArray tip4pToGmin(HostIn q, const std::string& ions) {
  const WaterCluster w = waterOf(q, 2, "tip4p_to_gmin", "q", kRigidLayout, ions);
  return numpyCoordinates(w.sitesToGmin(w.rigidSystem().toAtoms(valuesOf(q))));
}

NumpyArray tip4pSites(HostIn q, const std::string& ions) {
  const WaterCluster w = waterOf(q, 2, "tip4p_sites", "q", kRigidLayout, ions);
  return numpyCoordinates(w.rigidSystem().toAtoms(valuesOf(q)));
}

NumpyArray tip4pSitesFromGmin(HostIn gmin, const std::string& ions) {
  const WaterCluster w = waterOf(gmin, 2, "tip4p_sites_from_gmin", "gmin", kGminLayout, ions);
  return numpyCoordinates(w.gminToSites(valuesOf(gmin)));
}

NumpyArray tip4pFromSites(HostIn sites, const std::string& ions) {
  const WaterCluster w = waterOf(sites, 4, "tip4p_from_sites", "sites", kSiteLayout, ions);
  return numpyCoordinates(w.rigidSystem().fromAtoms(valuesOf(sites)));
}

// ---- SSD water ----

nb::object ssdWaterPotential(long long molecules, const std::string& backend) {
  const std::size_t n = countOf(molecules, "ssd_water_cluster", "molecules");
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), n);
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::SoftStickyDipole;
  spec.atoms = kSoftStickyDipoleMarkers * n;
  spec.softStickyDipole = cluster.params;
  const Backend b = parseBackend(backend);
  nb::object potential =
      nb::cast(makeOwningRigidBodyPotential(makePotential(spec, b), cluster.rigidSystem(), b));
  RigidSearchDefaults d;
  d.params = gminWaterDefaultParams();  // gmin --water ssd's settings
  d.params.temperature = 1.0;           // kcal/mol
  d.moves = waterRigidBodyMoves();
  d.startRadius = waterStartRadius(n);
  record(potential, d);
  return potential;
}

NumpyArray ssdWaterAtoms(HostIn q) {
  const std::size_t n = moleculesOf(q, 2, "ssd_water_atoms", "q", kRigidLayout);
  countOf(static_cast<long long>(n), "ssd_water_atoms", "molecules");
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), n);
  std::vector<double> atoms = cluster.drawnAtoms(valuesOf(q));
  return numpyFrom(std::move(atoms), {3 * n, 3});
}

// ---- Gay-Berne ----

GayBerneParams gayBerneParams(double sigma0, double eps0, double kappa, double kappaPrime,
                              double mu, double nu, double cutoff) {
  GayBerneParams p;
  p.sigma0 = sigma0;
  p.eps0 = eps0;
  p.kappa = kappa;
  p.kappaPrime = kappaPrime;
  p.mu = mu;
  p.nu = nu;
  p.cutoff = cutoff;
  p.check();
  return p;
}

nb::object gayBernePotential(long long ellipsoids, double sigma0, double eps0, double kappa,
                             double kappaPrime, double mu, double nu, double cutoff,
                             const std::string& backend) {
  const std::size_t n = countOf(ellipsoids, "gay_berne_cluster", "ellipsoids");
  const GayBerneParams params = gayBerneParams(sigma0, eps0, kappa, kappaPrime, mu, nu, cutoff);
  const GayBerneCluster cluster = gayBerneCluster(params, n);
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::GayBerne;
  spec.atoms = kGayBerneMarkers * n;
  spec.gayBerne = params;
  // cpu: RigidBodyPotential over GayBerne; cuda: RigidBodyCuda over GayBerneCuda (as
  // tip4p_cluster).
  const Backend b = parseBackend(backend);
  nb::object potential =
      nb::cast(makeOwningRigidBodyPotential(makePotential(spec, b), cluster.rigidSystem(), b));
  // bench_gay_berne_clusters's search, as gmin --ellipsoids runs it.
  const RigidSearchDefaults d = gayBerneClusterSearch(params, n);
  record(potential, d);
  return potential;
}

/// The rigid system of n ellipsoids (the bodies' shapes do not depend on the parameters).
RigidBodySystem ellipsoidSystem(std::size_t n) {
  return gayBerneCluster(GayBerneParams{}, n).rigidSystem();
}

std::pair<std::vector<double>, std::vector<double>> centresAxesIn(HostIn centres, HostIn axes,
                                                                  const std::string& what) {
  const std::size_t n = moleculesOf(centres, 1, what, "centres", "one centre per ellipsoid");
  requireCoordinates(axes.size(), 3 * n, shapeOf(axes), what, "axes");
  countOf(static_cast<long long>(n), what, "ellipsoids");
  return {valuesOf(centres), valuesOf(axes)};
}

NumpyArray gayBerneCoordinates(HostIn centres, HostIn axes) {
  auto [c, a] = centresAxesIn(centres, axes, "gay_berne_coordinates");
  return numpyCoordinates(gayBerneRigidCoordinates(c, a));
}

NumpyArray gayBerneMarkers(HostIn centres, HostIn axes) {
  auto [c, a] = centresAxesIn(centres, axes, "gay_berne_markers");
  return numpyCoordinates(ellipsoidSystem(c.size() / 3).toAtoms(gayBerneRigidCoordinates(c, a)));
}

nb::tuple gayBerneCentresAxes(HostIn markers) {
  const std::size_t n = moleculesOf(markers, kGayBerneMarkers, "gay_berne_centres_axes", "markers",
                                    "4 markers per ellipsoid");
  std::vector<double> centres(3 * n), axes(3 * n);
  for (std::size_t k = 0; k < n; ++k)
    GayBerne::centreAndAxis(markers.data(), k, &centres[3 * k], &axes[3 * k]);
  return nb::make_tuple(numpyFrom(std::move(centres), {n, 3}), numpyFrom(std::move(axes), {n, 3}));
}

}  // namespace

std::optional<RigidSearchDefaults> rigidSearchDefaultsOf(const Potential& potential) {
  nb::handle self = nb::find(potential);
  if (!self.is_valid()) return std::nullopt;
  nb::object recorded = nb::getattr(self, kSearchAttribute, nb::none());
  if (recorded.is_none()) return std::nullopt;
  nb::dict search = nb::cast<nb::dict>(recorded);
  RigidSearchDefaults d;
  d.params = nb::cast<BasinHoppingParams>(search["params"]);
  d.moves.translation = nb::cast<double>(search["translation"]);
  d.moves.rotation = nb::cast<double>(search["rotation"]);
  d.moves.probability = nb::cast<double>(search["probability"]);
  if (search.contains("free_atoms")) d.moves.freeAtoms = nb::cast<bool>(search["free_atoms"]);
  d.startRadius = nb::cast<double>(search["start_radius"]);
  d.start = nb::cast<std::vector<double>>(search["start"]);
  return d;
}

void bindRigidMolecules(nb::module_& m) {
  m.def("tip4p_cluster", &tip4pPotential, "molecules"_a, "backend"_a = "cpu", "ions"_a = "",
        (std::string(
             "N rigid TIP4P water molecules (Jorgensen et al., J. Chem. Phys. 79, 926 (1983)) as "
             "GMIN defines them (NTIP 4; docs/water.md): sites O, H, H and the charge site M of "
             "every molecule, intramolecular pairs excluded, GMIN's Coulomb constant 1389.354848 "
             "kJ/mol A/e^2, no cutoff, each molecule one rigid body. backend 'cpu': "
             "RigidBodyPotential over SitePotential; 'cuda': the device rigid layer over "
             "SitePotentialCuda (RuntimeError without a device). basin_hopping without params "
             "uses gmin --water's settings (kT 4 kJ/mol, no Cartesian step, SLOPPYCONV 0.1, "
             "MAXBFGS 0.5; a quarter of the molecules moved per step, turned by up to pi and "
             "shifted by up to 0.5 A; random starts in a ball of 2.5 N^(1/3) A). to_atoms(q) gives "
             "the sites. molecules >= 2. "
             "ions: point ions among the molecules, 'NAME[:COUNT],...' (e.g. 'Na+:2,Cl-:2'; "
             "OPLS-AA's Na+ and Cl-, Lennard-Jones cores combined geometrically), free atoms "
             "after the molecules' sites and coordinates (q: 2N + K rows), moved by the "
             "molecules' translations.") +
         kTip4pUnits)
            .c_str());
  m.def("tip4p_symbols", &tip4pSymbols, "molecules"_a, "ions"_a = "",
        "Element symbols of the sites of N molecules for ASE, ['O', 'H', 'H', 'X'] per molecule "
        "(X: ASE's dummy element for the massless charge site M), then each ion's ('Na', 'Cl'): "
        "ase.Atoms(tip4p_symbols(N), tip4p_sites(q)), or with ions "
        "ase.Atoms(tip4p_symbols(N, ions), tip4p_cluster(N, ions=ions).to_atoms(q)).");
  m.def("tip4p_from_gmin", &tip4pFromGmin, "gmin"_a, "ions"_a = "",
        (std::string("Our rigid coordinates (2N, 3) of GMIN's TIP4P coordinates (its coords "
                     "file: N oxygen positions in Angstrom, then N angle-axis vectors p in "
                     "radians; GMIN places the sites at O + R(-p) s0, docs/water.md).") +
         kTip4pUnits)
            .c_str());
  m.def("tip4p_to_gmin", &tip4pToGmin, "q"_a, "ions"_a = "",
        "GMIN's TIP4P coordinates (2N, 3: N oxygens in Angstrom, then N angle-axis vectors in "
        "radians, |p| <= pi) of our rigid coordinates q; the inverse of tip4p_from_gmin.");
  m.def("tip4p_sites", &tip4pSites, "q"_a, "ions"_a = "",
        "Site Cartesians (4N, 3) in Angstrom, O H H M per molecule, of rigid coordinates q "
        "(as tip4p_cluster(N).to_atoms(q)).");
  m.def("tip4p_sites_from_gmin", &tip4pSitesFromGmin, "gmin"_a, "ions"_a = "",
        "Site Cartesians (4N, 3) in Angstrom, O H H M per molecule, of GMIN's TIP4P coordinates "
        "(N oxygens, then N angle-axis vectors).");
  m.def("tip4p_from_sites", &tip4pFromSites, "sites"_a, "ions"_a = "",
        "Rigid coordinates (2N, 3) of site Cartesians (4N, 3; Angstrom; O H H M per molecule), "
        "the best fit of each molecule's TIP4P geometry (exact for rigid molecules). Each of "
        "these conversions takes ions='NAME[:COUNT],...' as tip4p_cluster does: one more row "
        "per ion, after the molecules' rows, in every layout (its position, unchanged).");

  m.def("ssd_water_cluster", &ssdWaterPotential, "molecules"_a, "backend"_a = "cpu",
        (std::string(
             "N soft-sticky-dipole (SSD) water molecules (Liu and Ichiye, J. Phys. Chem. 100, "
             "2723 (1996); the water of BRAHMS; docs/water.md): one centre each with a "
             "Lennard-Jones core, a 2.35 D point dipole and the tetrahedral sticky term, no "
             "cutoff, each molecule a rigid body of 4 markers. backend 'cpu': RigidBodyPotential "
             "over SoftStickyDipole; 'cuda': the device rigid layer over SoftStickyDipoleCuda "
             "(RuntimeError without a device). basin_hopping without params uses gmin --water "
             "ssd's settings (kT 1 kcal/mol, rigid water's moves and random starts). "
             "to_atoms(q) gives the markers, ssd_water_atoms(q) the molecules drawn as O, H, H. "
             "molecules >= 2.") +
         kSsdUnits)
            .c_str());
  m.def("ssd_water_atoms", &ssdWaterAtoms, "q"_a,
        "O, H, H Cartesians (3N, 3; Angstrom) of SSD rigid coordinates q for drawing: O at the "
        "centre, the hydrogens 0.9572 A away at 104.52 degrees in the body y-z plane towards the "
        "dipole (the model itself has one centre). Symbols: ['O', 'H', 'H'] * N.");
  m.def("gay_berne_cluster", &gayBernePotential, "ellipsoids"_a, "sigma0"_a = 1.0, "eps0"_a = 1.0,
        "kappa"_a = 3.0, "kappa_prime"_a = 5.0, "mu"_a = 2.0, "nu"_a = 1.0, "cutoff"_a = 0.0,
        "backend"_a = "cpu",
        (std::string(
             "n uniaxial Gay-Berne ellipsoids (Gay and Berne, J. Chem. Phys. 74, 3316 (1981); "
             "general mu, nu of Berardi, Fava and Zannoni, Chem. Phys. Lett. 236, 462 (1995)) as "
             "rigid bodies of 4 markers (docs/gay-berne.md). sigma0: side-by-side contact "
             "distance (> 0); eps0: cross-configuration well depth (> 0); kappa: length over "
             "breadth (> 0); kappa_prime: side-by-side over end-to-end well depth (> 0); mu > 0, "
             "nu >= 0: the strength exponents; cutoff: centre-centre cutoff (0: none; pairs "
             "beyond it left out unshifted). Defaults: Gay and Berne's set 3, 5, 2, 1. Energy "
             "+inf where surfaces overlap by more than sigma0. backend: 'cpu' (RigidBodyPotential "
             "over GayBerne) or 'cuda' (the device rigid layer over its CUDA twin, GayBerneCuda). "
             "basin_hopping without params: rigid moves of up to 0.5 "
             "sigma0 and 0.6 rad, kT 1 eps0, no Cartesian step, from a lattice of parallel "
             "ellipsoids at the wells' distances (gmin --ellipsoids's start). to_atoms(q) gives "
             "the markers. ellipsoids >= 2.") +
         kGayBerneUnits)
            .c_str());
  m.def("gay_berne_coordinates", &gayBerneCoordinates, "centres"_a, "axes"_a,
        (std::string("Rigid coordinates (2n, 3) of ellipsoids at centres (n, 3) with axes (n, 3; "
                     "any length but 0): each angle-axis vector the shortest rotation taking +z "
                     "to the axis (the spin about the axis is free).") +
         kGayBerneUnits)
            .c_str());
  m.def("gay_berne_markers", &gayBerneMarkers, "centres"_a, "axes"_a,
        "The 4 marker Cartesians per ellipsoid (4n, 3; centre +- u and two markers across it, "
        "one sigma0-unit from the centre) of ellipsoids at centres (n, 3) with axes u (n, 3), "
        "reduced units.");
  m.def("gay_berne_centres_axes", &gayBerneCentresAxes, "markers"_a,
        "(centres, axes), each (n, 3), of marker Cartesians (4n, 3; e.g. potential.to_atoms(q)): "
        "the mean of each ellipsoid's 4 markers and the unit axis (m0 - m1) / |m0 - m1|, reduced "
        "units.");
}

}  // namespace landscape::python
