"""An ASE calculator on landscape's potentials, so that ASE's optimisers and molecular dynamics
run on them.

Units. ASE works in eV and Angstrom (forces in eV/Angstrom). The conversion is explicit:
- AMBER-GB and SOP (kcal/mol, Angstrom): energy_scale = ase.units.kcal / ase.units.mol
  (1 kcal/mol = 0.0433641 eV); lengths are Angstrom on both sides.
- Lennard-Jones (reduced units): the caller chooses epsilon (eV) and sigma (Angstrom), as ASE's
  own LennardJones calculator does; positions are divided by sigma, energies multiplied by epsilon
  and forces by epsilon / sigma. The defaults epsilon = 1 eV, sigma = 1 Angstrom make ASE's
  numbers equal the reduced ones.
Forces are minus the gradient: F = -(energy_scale / length_scale) dU/dx.

    from landscape.ase import Calculator
    atoms.calc = Calculator.amber_gb("sys.prmtop", igb=2)     # kcal/mol -> eV
    atoms.calc = Calculator(landscape.lennard_jones(38), epsilon=0.0104, sigma=3.40)  # argon

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
    Use the constructors amber_gb / lennard_jones / for_potential, which choose them.
    """

    implemented_properties = ["energy", "free_energy", "forces"]

    def __init__(self, potential, energy_scale=None, length_scale=1.0, epsilon=None, sigma=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.potential = potential
        if epsilon is not None or sigma is not None:  # Lennard-Jones in reduced units
            energy_scale, length_scale = (1.0 if epsilon is None else epsilon,
                                          1.0 if sigma is None else sigma)
        if energy_scale is None:
            energy_scale = 1.0 if potential.name.startswith("Lennard-Jones") else \
                KCAL_PER_MOL_IN_EV
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

    def calculate(self, atoms=None, properties=("energy",), system_changes=all_changes):
        super().calculate(atoms, properties, system_changes)
        if np.any(self.atoms.pbc):
            # The potentials have no box: minimum images would be ignored and the energy of a
            # periodic system silently wrong, so such atoms are refused.
            raise ValueError(
                f"landscape.ase.Calculator: atoms with periodic boundaries (pbc="
                f"{self.atoms.pbc.tolist()}) are not supported: {self.potential.name} has no "
                "box; set atoms.pbc = False for a cluster or molecule in vacuum")
        x = np.ascontiguousarray(self.atoms.positions / self.length_scale, dtype=np.float64)
        energy, gradient = self.potential.energy_gradient(x)
        self.results["energy"] = self.results["free_energy"] = energy * self.energy_scale
        self.results["forces"] = -gradient * (self.energy_scale / self.length_scale)


class CalculatorPotential(Potential):
    """An ASE calculator as a landscape.Potential: energies in eV, lengths in Angstrom (ASE's
    units, unconverted), the gradient minus the calculator's forces (eV/Angstrom).

    atoms: the system (its symbols, masses, charges, ...; a copy is kept as ase_atoms, its
    positions replaced by each structure evaluated); calculator: the ASE calculator (default: atoms.calc). Periodic
    atoms are refused, as by Calculator: the algorithms' alignment and moves know no box.
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
