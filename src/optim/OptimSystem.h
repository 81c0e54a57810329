#pragma once
// What an optim run connects on: the AMBER molecule (read once) or a Lennard-Jones cluster, the
// potential on --backend, its CPU twin for the finite-difference characterisation (on the device
// instead with --backend cuda in double precision: settings.characterisation.backend), the
// rigid-body potential of --rigid and the L-BFGS workspaces of --lbfgs-backend. Building it also
// adjusts the settings that depend on the system (atom types, masses, perm.allow groups, rigid-body
// alignment).
#include <memory>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "landscape/network/Database.h"
#include "potentials/AmberTopology.h"
#include "potentials/GayBerne.h"
#include "potentials/PairModel.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/SoftStickyDipole.h"
#include "potentials/WaterCluster.h"
#include "src/optim/OptimConfig.h"

namespace landscape {

/// The units of the system, as the database stores them (gmin writes the same strings).
struct Units {
  const char* energy;
  const char* length;
};
constexpr Units kLennardJonesUnits = {"reduced (epsilon)", "reduced (sigma)"};
constexpr Units kAmberUnits = {"kcal/mol", "Angstrom"};
constexpr Units kWaterUnits = {"kJ/mol", "Angstrom"};
constexpr Units kSsdWaterUnits = {"kcal/mol", "Angstrom"};
constexpr Units kGayBerneUnits = {"reduced (eps0)", "reduced (sigma0)"};

struct OptimSystem {
  std::shared_ptr<const AmberTopology> amber;  ///< --prmtop: the molecule; null for clusters
  std::shared_ptr<const PairModel> pair;       ///< a pair system (--morse, --box, BULK, ...)
  std::shared_ptr<const WaterCluster> water;   ///< --water tip4p: the molecules and their sites
  /// --water ssd: the molecules and their markers
  std::shared_ptr<const SoftStickyDipoleCluster> ssdWater;
  /// --ellipsoids: the Gay-Berne ellipsoids and their markers
  std::shared_ptr<const GayBerneCluster> ellipsoids;
  PotentialSpec spec;                          ///< what atomistic was built from (for copies)
  Units units = kLennardJonesUnits;
  std::unique_ptr<Potential> atomistic;       ///< on --backend
  std::unique_ptr<Potential> cpuPotential;    ///< the CPU twin, when --backend is not cpu
  std::unique_ptr<Potential> rigidPotential;  ///< --rigid: rigid coordinates over atomistic
  const RigidBodySystem* rigid = nullptr;     ///< the system of rigidPotential
  /// Rigid bodies: the rigid potential over a CPU copy of the atomistic one, whose metric and
  /// overall motions answer views that evaluate elsewhere (SharedBatchedPotential::Options::
  /// geometry); water's normal modes evaluate it (RigidBodyVibrations).
  std::shared_ptr<Potential> geometry;
  LbfgsWorkspaceFactory workspace;            ///< --lbfgs-backend gpu; empty: the CPU L-BFGS

  /// The potential DNEB and the transition-state searches run on.
  Potential& searched() const { return rigidPotential ? *rigidPotential : *atomistic; }
  /// The finite-difference Hessian needs double-precision gradients: the CPU reference, unless
  /// settings.characterisation.backend computes it on the device (--backend cuda, double).
  Potential& characterisation() const { return cpuPotential ? *cpuPotential : *atomistic; }
  /// The masses of the Hessian-derived fields: amu for a molecule (the topology's) and for water
  /// (the molecules' normal modes), else unit.
  const char* hessianMasses() const {
    return amber || water || ssdWater ? kAtomicMassesAmu : kUnitMasses;
  }
  /// Cartesian atoms of coordinates x of the search (rigid coordinates when rigid is set).
  std::vector<double> atoms(const std::vector<double>& x) const {
    return rigid ? rigid->toAtoms(x) : x;
  }
};

/// --prmtop read once, or null for a Lennard-Jones run.
std::shared_ptr<const AmberTopology> readOptimTopology(const OptimConfig& config);

/// The potentials of an atoms-atom system (without rigid bodies yet); for molecules the atom
/// types and perm.allow groups enter settings; for a pair system the species (one permutation
/// group each, the point group's atom types) and the box (minimum-image alignment of the network
/// and of the DNEB endpoints, translations as the only zero modes of the eigenvector search and
/// the Hessians).
OptimSystem makeOptimSystem(const OptimConfig& config, std::shared_ptr<const AmberTopology> amber,
                            std::size_t atoms, OptimSettings& settings);

/// --rigid FILE: the start fixes the body shapes; both endpoints (search coordinates, in and out)
/// move to rigid coordinates and the alignment settings to those that keep bodies intact.
/// --water: each molecule a body; the finish is first aligned onto the start over rotations,
/// translations, inversion and permutations of the molecules and of their hydrogens (SSD: of the
/// two side markers, the molecule's turn by pi about its dipole), which the network's duplicate
/// checks then also use. --ellipsoids: each ellipsoid a body; the finish aligned onto the start by
/// the centres and axis tips (useRigidEllipsoids), every spin then the shortest turn from z.
void useRigidBodies(const OptimConfig& config, OptimSystem& system, std::vector<double>& start,
                    std::vector<double>& finish, OptimSettings& settings);

/// --ellipsoids: each ellipsoid a rigid body of the search (rigidPotential, rigid, geometry) with
/// its spin projected out; minima compared by their centres and axis tips over rotations,
/// translations, inversion, permutations of the ellipsoids and their head-to-tail turns; the
/// stationary points characterised by the normal modes of uniform solid ellipsoids, their point
/// group that of the axis tips.
void useRigidEllipsoids(const OptimConfig& config, OptimSystem& system, OptimSettings& settings);

/// --water without endpoints (network growth): each molecule a rigid body of the search
/// (rigidPotential, rigid, geometry); minima compared over rotations, translations, inversion and
/// permutations of the molecules and of their hydrogens (SSD: of the two side markers); the
/// stationary points characterised by the molecules' normal modes
/// (landscape/paths/RigidBodyNormalModes.h).
void useRigidWater(const OptimConfig& config, OptimSystem& system, OptimSettings& settings);

/// --lbfgs-backend gpu: every L-BFGS but the DNEB band's keeps its vectors on the device.
void useGpuLbfgs(const OptimConfig& config, OptimSystem& system, OptimSettings& settings);

}  // namespace landscape
