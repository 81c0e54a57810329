// Potentials: the Potential interface on numpy arrays and the factories of the library's potentials
// (Lennard-Jones, AMBER-GB with every GB option, SOP from a PDB, local rigid bodies).
#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <limits>
#include <memory>
#include <stdexcept>

#include "backends/PotentialFactory.h"
#include "backends/RigidBodyFactory.h"
#include "potentials/AmberCoordinates.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/DeviceArrays.h"
#include "python/Params.h"
#include "python/PythonPotential.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

double energyOf(Potential& p, HostIn x) {
  requireCoordinates(x.size(), p.dimension(), shapeOf(x), "energy", "x");
  return p.energy(x.data());
}

nb::tuple energyGradientOf(Potential& p, HostIn x, std::optional<HostOut> out) {
  requireCoordinates(x.size(), p.dimension(), shapeOf(x), "energy_gradient", "x");
  if (out) {
    requireCoordinates(out->size(), p.dimension(), shapeOf(*out), "energy_gradient", "out");
    const double e = p.energyGradient(x.data(), out->data());
    return nb::make_tuple(e, *out);
  }
  std::vector<double> g(p.dimension());
  const double e = p.energyGradient(x.data(), g.data());
  return nb::make_tuple(e, numpyFrom(std::move(g), shapeOf(x)));
}

nb::dict componentsOf(Potential& p, HostIn x) {
  requireCoordinates(x.size(), p.dimension(), shapeOf(x), "energy_components", "x");
  nb::dict d;
  for (const EnergyComponent& c : p.energyComponents(x.data())) d[c.name.c_str()] = c.value;
  return d;
}

const RigidBodySystem& rigidSystem(const Potential& p, const char* what) {
  const RigidBodySystem* system = rigidBodySystemOf(p);
  if (!system)
    throw std::invalid_argument(std::string(what) + ": " + p.name() +
                                " is not a rigid-body potential (landscape.rigid_bodies)");
  return *system;
}

std::unique_ptr<Potential> lennardJones(long long atoms, const std::string& backend) {
  if (atoms < 2)
    throw std::invalid_argument("lennard_jones: atoms must be >= 2, not " + std::to_string(atoms));
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::LennardJones;
  spec.atoms = static_cast<std::size_t>(atoms);
  return makePotential(spec, parseBackend(backend));
}

std::unique_ptr<Potential> amberGb(const std::filesystem::path& prmtop, int igb, double saltcon,
                                   double rgbmax, double intdiel, double extdiel,
                                   const std::string& precision, const std::string& backend,
                                   double cut) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::AmberGb;
  spec.amberTopology = std::make_shared<AmberTopology>(readAmberTopology(prmtop.string()));
  spec.amber.igb = igb;
  spec.amber.saltcon = saltcon;
  spec.amber.rgbmax = rgbmax;
  spec.amber.cut = cut;
  spec.amber.dielectricInterior = intdiel;
  spec.amber.dielectricExterior = extdiel;
  spec.amber.check();
  spec.precision = parsePrecision(precision);
  return makePotential(spec, parseBackend(backend));
}

std::unique_ptr<Potential> sop(const std::filesystem::path& pdb, const SopParams& params,
                               const std::string& backend, double skin) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Sop;
  spec.sopTopology = std::make_shared<SopTopology>(readSopTopology(pdb.string(), params));
  spec.sopSkin = skin;
  return makePotential(spec, parseBackend(backend));
}

RigidBodySet bodiesFrom(nb::handle bodies, std::size_t atoms) {
  if (nb::isinstance<nb::str>(bodies) || nb::hasattr(bodies, "__fspath__"))
    return readRigidBodies(nb::cast<std::filesystem::path>(bodies).string(), atoms);
  RigidBodySet set(atoms);
  std::size_t b = 0;
  for (nb::handle body : bodies) {
    set.addBody(nb::cast<std::vector<std::size_t>>(body), "body " + std::to_string(b++));
  }
  return set;
}

std::unique_ptr<Potential> rigidBodies(Potential& atomistic, nb::handle bodies, HostIn reference,
                                       const std::string& backend) {
  requireCoordinates(reference.size(), atomistic.dimension(), shapeOf(reference), "rigid_bodies",
                     "reference");
  const std::vector<double> x(reference.data(), reference.data() + reference.size());
  RigidBodySystem system(bodiesFrom(bodies, atomistic.atomCount()), x);
  return makeRigidBodyPotential(atomistic, std::move(system), parseBackend(backend));
}

void bindPotentialClass(nb::module_& m) {
  // dynamic_attr: the pair potentials' factories record their PairModel on the object
  // (python/BindPairs.cpp), whatever class the backend's factory built.
  nb::class_<Potential, PythonPotential>(
      m, "Potential", nb::dynamic_attr(),
      "An energy function of Cartesian (or rigid-body) coordinates. Energies in the potential's "
      "unit (reduced epsilon for Lennard-Jones, kcal/mol for AMBER-GB and SOP), gradients in "
      "energy/length (length: sigma or Angstrom). Coordinates: float64 arrays of dimension "
      "values, usually shaped (atoms, 3).\n\n"
      "Subclass it to bring an energy function of your own to every algorithm (minimise, "
      "basin_hopping, connect, characterise): call super().__init__(dimension, name) and define "
      "energy_gradient(self, x) -> (energy, gradient), x a new float64 array (atoms, 3), the "
      "gradient a float64 array of that shape (or flat), in your energy and length units. "
      "landscape.FunctionPotential wraps a plain function, landscape.ase.CalculatorPotential "
      "an ASE calculator.")
      .def(nb::init<std::size_t, std::string>(), "dimension"_a, "name"_a = "Python potential",
           "A potential written in Python of `dimension` values per structure (3 x atoms).")
      .def_prop_ro("dimension", &Potential::dimension, "Degrees of freedom (3 x atoms).")
      .def_prop_ro("atoms", &Potential::atomCount, "dimension / 3.")
      .def_prop_ro("name", &Potential::name, "Short description, e.g. 'Lennard-Jones 38 atoms'.")
      .def_prop_ro(
          "backend", [](const Potential& p) { return backendName(p.backend()); },
          "'cpu' or 'cuda'.")
      .def("__repr__",
           [](const Potential& p) {
             return "<landscape.Potential " + p.name() + ", " + std::to_string(p.dimension()) +
                    " values>";
           })
      .def_prop_ro(
          "pair_model",
          [](nb::handle_t<Potential> self) { return nb::getattr(self, "_pair_model", nb::none()); },
          "The PairModel of a pair potential (landscape.pair_potential, kob_andersen, "
          "binary_lennard_jones, morse): its species, cutoff and box; None for other potentials.")
      .def_prop_ro("is_device_resident", &Potential::isDeviceResident,
                   "True when energy_gradient accepts CUDA device arrays without copies.")
      .def("energy", &energyOf, "x"_a, "Energy at x (energy unit).")
      .def("energy", &deviceEnergy, "x"_a, "Energy at a CUDA device array x (float64).")
      .def("energy_gradient", &energyGradientOf, "x"_a, "out"_a.noconvert() = nb::none(),
           "(energy, gradient) at x; the gradient (energy/length, shaped like x) is written into "
           "`out` when given (float64, C order), which avoids an allocation per call.")
      .def("energy_gradient", &deviceEnergyGradient, "x"_a, "out"_a = nb::none(),
           "Device-resident potentials (backend='cuda'): x and out are CUDA device arrays "
           "(DLPack: CuPy, PyTorch, JAX, landscape.cuda), read and written in place without "
           "copies; only the energy comes back to the host. The gradient is a new device array "
           "when out is not given.")
      .def("energy_components", &componentsOf, "x"_a,
           "Energy terms by name (AMBER: sander's BOND, ANGLE, DIHED, VDWAALS, EELEC, 1-4_VDW, "
           "1-4_EEL, EGB in kcal/mol; SOP: FENE, NATIVE, REPULSIVE); they sum to energy(x).")
      .def(
          "to_atoms",
          [](const Potential& p, HostIn q) {
            const RigidBodySystem& s = rigidSystem(p, "to_atoms");
            requireCoordinates(q.size(), s.dimension(), shapeOf(q), "to_atoms", "q");
            std::vector<double> x(3 * s.atomCount());
            s.toAtoms(q.data(), x.data());
            return numpyCoordinates(std::move(x));
          },
          "q"_a, "Rigid bodies: atoms (atoms x 3, Angstrom) of rigid coordinates q.")
      .def(
          "from_atoms",
          [](const Potential& p, HostIn x) {
            const RigidBodySystem& s = rigidSystem(p, "from_atoms");
            requireCoordinates(x.size(), 3 * s.atomCount(), shapeOf(x), "from_atoms", "x");
            return numpyFrom(s.fromAtoms(std::vector<double>(x.data(), x.data() + x.size())),
                             {s.dimension()});
          },
          "x"_a,
          "Rigid bodies: rigid coordinates (flat: centres in Angstrom, angle-axis vectors in "
          "radians, free atoms in Angstrom) of the best fit of every body to the atoms x.");
}

void bindSopParams(nb::module_& m) {
  ParamsClass<SopParams>(
      m, "SopParams", "Parameters of the SOP model (Zhmurov et al., J. Phys. Chem. B 2011, eq B1).")
      .field("fene_k", &SopParams::feneK, "FENE spring k (kcal/mol/A^2)")
      .field("fene_r0", &SopParams::feneR0, "FENE tolerance R0 (A)")
      .field("native_epsilon", &SopParams::nativeEpsilon, "native-contact depth (kcal/mol)")
      .field("repulsive_epsilon", &SopParams::repulsiveEpsilon, "repulsion strength (kcal/mol)")
      .field("sigma", &SopParams::sigma, "repulsion sigma (A)")
      .field("native_cutoff", &SopParams::nativeCutoff, "native pairs closer than this (A)")
      .field("repulsive_cutoff", &SopParams::repulsiveCutoff, "repulsion cutoff (A)")
      .field("chain_break_distance", &SopParams::chainBreakDistance,
             "consecutive C-alpha farther apart start a new chain (A)")
      .done();
}

}  // namespace

void bindPotentials(nb::module_& m) {
  bindPotentialClass(m);
  bindSopParams(m);
  m.def("lennard_jones", &lennardJones, "atoms"_a, "backend"_a = "cpu",
        "Lennard-Jones cluster, all pairs, no cutoff, reduced units: pair energy 4(r^-12 - r^-6) "
        "in epsilon, lengths in sigma. backend: 'cpu' or 'cuda'.");
  m.def("amber_gb", &amberGb, "prmtop"_a, "igb"_a = 2, "saltcon"_a = 0.2, "rgbmax"_a = 12.0,
        "intdiel"_a = 1.0, "extdiel"_a = 78.5, "precision"_a = "double", "backend"_a = "cpu",
        "cut"_a = std::numeric_limits<double>::infinity(),
        "AMBER force field with generalized Born solvent from a prmtop (kcal/mol, Angstrom; "
        "docs/amber-gb.md). igb: 1 (HCT), 2 (OBC I) or 5 (OBC II); saltcon in mol/L; rgbmax "
        "(Born-radius cutoff) in Angstrom; intdiel/extdiel: solute/solvent dielectric; "
        "precision: 'double' or 'mixed' (CUDA pair terms in float); backend: 'cpu' or 'cuda'; "
        "cut: sander's non-bonded cutoff in Angstrom (pairs farther apart have no EELEC, VDWAALS "
        "or GB off-diagonal term; infinity: every pair).");
  m.def(
      "read_inpcrd",
      [](const std::filesystem::path& path) {
        return numpyCoordinates(readAmberCoordinates(path.string()).positions);
      },
      "path"_a, "Coordinates of an AMBER inpcrd/rst7 file, (atoms, 3) in Angstrom.");
  m.def(
      "amber_elements",
      [](const std::filesystem::path& prmtop) {
        const AmberTopology t = readAmberTopology(prmtop.string());
        std::vector<std::string> symbols;
        for (int z : t.atomicNumbers) symbols.push_back(elementSymbol(z));
        return symbols;
      },
      "prmtop"_a, "Element symbols of the prmtop's atoms (from ATOMIC_NUMBER or the masses).");
  m.def("sop", &sop, "pdb"_a, "params"_a = SopParams{}, "backend"_a = "cpu", "skin"_a = 2.0,
        "Self-organized polymer model of the protein in a PDB file (one bead per residue at "
        "C-alpha; kcal/mol, Angstrom). skin: Verlet-list skin of the CUDA backend (Angstrom).");
  m.def(
      "sop_native_coordinates",
      [](const std::filesystem::path& pdb, const SopParams& params) {
        return numpyCoordinates(readSopTopology(pdb.string(), params).nativeCoordinates());
      },
      "pdb"_a, "params"_a = SopParams{}, "The C-alpha beads of a PDB file, (beads, 3) Angstrom.");
  m.def("rigid_bodies", &rigidBodies, "atomistic"_a, "bodies"_a, "reference"_a, "backend"_a = "cpu",
        nb::keep_alive<0, 1>(),
        "Local rigid bodies over an atomistic potential (docs/rigid-bodies.md). bodies: a GMIN "
        "rbodyconfig file path, or a list of lists of 0-based atom indices (>= 3 atoms each); "
        "reference: (atoms, 3) Angstrom defining each body's shape. The result's coordinates are "
        "the rigid coordinates q (flat; see to_atoms/from_atoms), energies as the atomistic "
        "potential's.");
}

}  // namespace landscape::python
