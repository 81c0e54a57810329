#pragma once
// Basin-hopping in rigid-body coordinates (potentials/RigidBodySystem.h): the hooks that let the
// cluster search of BasinHopping run on centres and angle-axis vectors (the rigid-body moves after
// the Cartesian step, CENTRE and the container measured on the atoms, random rigid starts), and
// the moves rigid water is searched with by default. gmin (--water, --rigid) and Python's
// basin_hopping share them.
#include <cstddef>
#include <vector>

#include "landscape/search/BasinHopping.h"
#include "landscape/search/BasinHoppingParams.h"
#include "landscape/search/RigidBodyMoves.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

/// Hooks for rigid coordinates q of `system` (which must outlive them): `moves` (then any
/// atomistic move already in hooks.extraMove, on the mapped atoms) after the Cartesian step, with
/// the angle-axis vectors canonicalised; CENTRE translating the atoms' centre of geometry to the
/// origin; the container measured on the atoms; an existing rejectReason applied to the atoms;
/// and, when startRadius > 0 (length), random starts and reseeds with centres uniform in that ball
/// and uniform orientations (randomRigidStructure).
void installRigidBodyHooks(const RigidBodySystem& system, const RigidBodyMoveParams& moves,
                           double startRadius, BasinHoppingHooks& hooks);

/// Rigid water's default moves: a quarter of the molecules per step, each turned by up to pi and
/// shifted by up to 0.5 A. On an H200 these found the TIP4P (H2O)20 global minimum where GMIN's
/// example moves (every molecule turned by up to 1.57 rad, none shifted) did not
/// (docs/benchmarks.md, "Rigid water").
RigidBodyMoveParams waterRigidBodyMoves();

/// Random water starts: centres in a ball of 2.5 N^(1/3) A (liquid water holds a molecule per
/// 30 A^3, a ball of 1.93 N^(1/3) A; the margin spares most overlaps).
double waterStartRadius(std::size_t molecules);

/// How a cluster of rigid bodies is searched by default: the chain's settings, the rigid-body
/// moves, the ball of random starts and reseeds (length; 0: none) and the start when none is given
/// (rigid coordinates; empty: a random start in the ball).
struct RigidClusterSearch {
  BasinHoppingParams params;
  RigidBodyMoveParams moves;
  double startRadius = 0.0;
  std::vector<double> start;
};

/// Gay-Berne ellipsoids (docs/gay-berne.md): rigid-body moves only (0.5 sigma0 and 0.6 rad, every
/// ellipsoid), kT 1 eps0, quenches to RMS 1e-4 and, for the saved minima, 1e-7 eps0/sigma0 (EDIFF
/// 1e-4 eps0), from gayBerneCluster's lattice (parallel axes at the wells' distances; random
/// starts loose enough to spare overlaps leave the first quenches in fragments), reseeds in a ball
/// of 1.5 kappa sigma0 n^(1/3): the settings with which tools/bench_gay_berne_clusters found the
/// same lowest minimum of n = 4 to 13 in 8 of 8 runs each; BasinHoppingParams' defaults otherwise.
RigidClusterSearch gayBerneClusterSearch(const GayBerneParams& params, std::size_t ellipsoids);

}  // namespace landscape
