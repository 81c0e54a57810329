"""An ASE calculator on landscape's potentials, so that ASE's optimisers and molecular dynamics
run on them.

Units. ASE works in eV and Angstrom (forces in eV/Angstrom). The conversion is explicit:
- AMBER-GB and SOP (kcal/mol, Angstrom): energy_scale = ase.units.kcal / ase.units.mol
  (1 kcal/mol = 0.0433641 eV); lengths are Angstrom on both sides.
- Lennard-Jones (reduced units): the caller chooses epsilon (eV) and sigma (Angstrom), as ASE's
  own LennardJones calculator does; positions are divided by sigma, energies multiplied by epsilon
  and forces by epsilon / sigma. The defaults epsilon = 1 eV, sigma = 1 Angstrom make ASE's
  numbers equal the reduced ones.
- Pair potentials (landscape.pair_potential, kob_andersen, morse, ...; reduced units of the
  model): epsilon and sigma as for Lennard-Jones (for Morse: the well depth and r0), default 1.
Forces are minus the gradient: F = -(energy_scale / length_scale) dU/dx.

Periodic cells. Only a pair potential has a box (its pair_model.box, in its length unit). Atoms
with any periodic axis are accepted when the potential's box is that cell: an orthorhombic cell
(off-diagonal elements zero) whose edges, divided by length_scale, equal the box's edges to
1e-10 relative, periodic exactly on the axes where atoms.pbc is True (0 in the box elsewhere).
Energies and forces are then those of the minimum image (every cutoff is at most half an edge,
PairModel checks it). Anything else raises ValueError with a sentence: periodic atoms on a
potential without a box (its energy would silently be the cluster's), a box that differs from
the cell, a non-orthorhombic cell, and open atoms on a periodic potential. A cell that changes
(an NPT run, a cell relaxation) is checked at every calculation, so it fails as soon as it no
longer is the potential's box. Stress is not implemented (ASE raises
PropertyNotImplementedError for get_stress): the potentials give no virial.

    from landscape.ase import Calculator
    atoms.calc = Calculator.amber_gb("sys.prmtop", igb=2)     # kcal/mol -> eV
    atoms.calc = Calculator(landscape.lennard_jones(38), epsilon=0.0104, sigma=3.40)  # argon
    atoms.calc = Calculator(landscape.kob_andersen(256, 5.975))  # atoms.cell = 5.975 Angstrom

The other way round, CalculatorPotential makes any ASE calculator (EMT, a DFT code, a
machine-learned model) a landscape.Potential in eV and Angstrom, for minimise, basin_hopping,
connect and characterise:

    from ase.calculators.emt import EMT
    potential = CalculatorPotential(ase.Atoms("Cu13", positions=x), EMT())
"""
import numpy as np
from ase import units
from ase.calculators.calculator import Calculator as AseCalculator
from ase.calculators.calculator import all_changes

from . import _landscape
from ._landscape import Potential

KCAL_PER_MOL_IN_EV = units.kcal / units.mol


class Calculator(AseCalculator):
    """ASE calculator of a landscape.Potential (CPU or CUDA; host arrays).

    energy_scale: eV per energy unit of the potential; length_scale: Angstrom per length unit.
    Use the constructors amber_gb / lennard_jones / pair, which choose them. Energies and forces;
    stress is not implemented. A pair potential with a box takes atoms whose periodic cell is
    that box (times length_scale); other periodic atoms raise ValueError (module docstring).
    """

    implemented_properties = ["energy", "free_energy", "forces"]

    def __init__(self, potential, energy_scale=None, length_scale=1.0, epsilon=None, sigma=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.potential = potential
        if epsilon is not None or sigma is not None:  # Lennard-Jones in reduced units
            energy_scale, length_scale = (1.0 if epsilon is None else epsilon,
                                          1.0 if sigma is None else sigma)
        if energy_scale is None:  # reduced units: Lennard-Jones and pair models
            reduced = (potential.name.startswith("Lennard-Jones")
                       or getattr(potential, "pair_model", None) is not None)
            energy_scale = 1.0 if reduced else KCAL_PER_MOL_IN_EV
        self.energy_scale = float(energy_scale)
        self.length_scale = float(length_scale)

    @classmethod
    def amber_gb(cls, prmtop, **options):
        """AMBER-GB from a prmtop (options as landscape.amber_gb); kcal/mol converted to eV."""
        return cls(_landscape.amber_gb(prmtop, **options), energy_scale=KCAL_PER_MOL_IN_EV)

    @classmethod
    def lennard_jones(cls, atoms, epsilon=1.0, sigma=1.0, backend="cpu"):
        """Lennard-Jones with epsilon in eV and sigma in Angstrom."""
        return cls(_landscape.lennard_jones(atoms, backend), epsilon=epsilon, sigma=sigma)

    @classmethod
    def pair(cls, model, epsilon=1.0, sigma=1.0, backend="cpu"):
        """A pair potential of a landscape.PairModel, its reduced units converted with epsilon
        (eV) and sigma (Angstrom; r0 for Morse). A periodic model needs atoms whose cell is its
        box times sigma (see the module's docstring)."""
        return cls(_landscape.pair_potential(model, backend), epsilon=epsilon, sigma=sigma)

    def _check_cell(self):
        """Refuses atoms whose periodic cell is not the potential's box, with a sentence: ASE
        would otherwise get the energy of another system (a cluster's, or another box's)."""
        pbc = np.asarray(self.atoms.pbc, dtype=bool)
        model = getattr(self.potential, "pair_model", None)
        box = np.zeros(3) if model is None else np.asarray(model.box, dtype=np.float64)
        name = f"landscape.ase.Calculator: {self.potential.name}"
        if not np.any(box > 0):
            if np.any(pbc):
                # Minimum images would be ignored and the energy of a periodic system silently
                # the cluster's, so such atoms are refused.
                raise ValueError(
                    f"{name} has no box, so atoms with periodic boundaries (pbc={pbc.tolist()}) "
                    "would get a cluster's energy; set atoms.pbc = False for a cluster or "
                    "molecule in vacuum, or use a pair potential with a box "
                    "(landscape.PairModel(..., box=...))")
            return
        cell = np.asarray(self.atoms.cell[:], dtype=np.float64) / self.length_scale
        diagonal = np.diag(cell)
        if np.any(np.abs(cell - np.diag(diagonal)) > 1e-12 * np.abs(diagonal).max(initial=1.0)):
            raise ValueError(f"{name} has an orthorhombic box, but atoms.cell is not orthorhombic "
                             f"(off-diagonal elements):\n{self.atoms.cell[:]}")
        wanted = np.where(pbc, diagonal, 0.0)
        if not np.all(np.abs(wanted - box) <= 1e-10 * np.maximum(np.abs(box), np.abs(wanted))):
            raise ValueError(
                f"{name}: atoms.cell / length_scale with pbc={pbc.tolist()} is the box "
                f"{wanted.tolist()}, but the potential's box is {box.tolist()} (0: an open axis); "
                "the cell's periodic edges, divided by length_scale (sigma), must be the box's")

    def calculate(self, atoms=None, properties=("energy",), system_changes=all_changes):
        super().calculate(atoms, properties, system_changes)
        self._check_cell()
        x = np.ascontiguousarray(self.atoms.positions / self.length_scale, dtype=np.float64)
        energy, gradient = self.potential.energy_gradient(x)
        self.results["energy"] = self.results["free_energy"] = energy * self.energy_scale
        self.results["forces"] = -gradient * (self.energy_scale / self.length_scale)


class CalculatorPotential(Potential):
    """An ASE calculator as a landscape.Potential: energies in eV, lengths in Angstrom (ASE's
    units, unconverted), the gradient minus the calculator's forces (eV/Angstrom).

    atoms: the system (its symbols, masses, charges, ...; a copy is kept as ase_atoms, its
    positions replaced by each structure evaluated); calculator: the ASE calculator (default:
    atoms.calc). Periodic atoms are refused: the algorithms would align, compare and move their
    structures as a cluster's (they learn a box only from a pair potential's pair_model; use
    landscape.pair_potential for a periodic pair system).
    """

    def __init__(self, atoms, calculator=None, name=None):
        calculator = atoms.calc if calculator is None else calculator
        if calculator is None:
            raise ValueError("CalculatorPotential: no calculator (pass one, or set atoms.calc)")
        if np.any(atoms.pbc):
            raise ValueError(f"CalculatorPotential: atoms with periodic boundaries (pbc="
                             f"{atoms.pbc.tolist()}) are not supported: the algorithms know no "
                             "box; set atoms.pbc = False for a cluster or molecule in vacuum")
        super().__init__(3 * len(atoms),
                         name or f"ASE {type(calculator).__name__} {atoms.get_chemical_formula()}")
        self.ase_atoms = atoms.copy()
        self.ase_atoms.calc = calculator

    def energy_gradient(self, x):
        self.ase_atoms.positions = np.reshape(x, (-1, 3))
        energy = self.ase_atoms.get_potential_energy()
        gradient = -np.ascontiguousarray(self.ase_atoms.get_forces(), dtype=np.float64)
        return float(energy), gradient
