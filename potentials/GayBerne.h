#pragma once
// Uniaxial Gay-Berne ellipsoids (Gay and Berne, J. Chem. Phys. 74, 3316 (1981); general mu, nu:
// Berardi, Fava and Zannoni, Chem. Phys. Lett. 236, 462 (1995)) as rigid bodies of marker sites,
// CPU reference. Reduced units: lengths in sigma0, energies in eps0 (docs/gay-berne.md).
//
// Each ellipsoid is 4 marker "atoms" at the body-frame points (0,0,+h), (0,0,-h), (+h,0,0),
// (-h,0,0), h = 1 length unit: their centre of geometry is the ellipsoid's centre and
// u = (m0 - m1) / |m0 - m1| its axis. GayBerne is a Potential over the 12 n marker Cartesians
// (pair law in GayBerneTerms.h, gradient by the chain rule through the centre and u), so
// RigidBodyPotential over it (one body of 4 markers per ellipsoid) gives the rigid-body energy
// and its exact gradient in centres and angle-axis vectors, and every rigid-body tool applies.
#include <cstddef>
#include <string>
#include <vector>

#include "potentials/GayBerneTerms.h"
#include "potentials/Potential.h"
#include "potentials/RigidBodyMasses.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

/// The model. Defaults: Gay and Berne's 1981 set kappa = 3, kappa' = 5, mu = 2, nu = 1.
struct GayBerneParams {
  double sigma0 = 1.0;      ///< side-by-side (breadth) contact distance, length unit; > 0
  double eps0 = 1.0;        ///< energy unit (the cross-configuration well depth); > 0
  double kappa = 3.0;       ///< sigma_end / sigma_side (length / breadth); > 0, 1 is a sphere
  double kappaPrime = 5.0;  ///< eps_side / eps_end (side-by-side over end-to-end well depth); > 0
  double mu = 2.0;          ///< exponent of the orientation-position strength term; > 0
  double nu = 1.0;          ///< exponent of the orientation-orientation strength term; >= 0
  double cutoff = 0.0;      ///< centre-centre cutoff (length); 0: none. Pairs beyond it are left
                            ///< out unshifted, so the energy jumps there.

  /// Throws std::invalid_argument with a sentence naming the first bad field (non-finite values
  /// included, and a cutoff too short to reach the side-by-side well).
  void check() const;
  /// chi and chi' of GayBerneTerms.h from kappa, kappa' and mu.
  GayBerneShape shape() const;
};

/// Marker sites per ellipsoid and their body-frame distance h from the centre (length unit).
constexpr std::size_t kGayBerneMarkers = 4;
constexpr double kGayBerneMarkerDistance = 1.0;

class GayBerne : public Potential {
 public:
  /// `ellipsoids` >= 2 bodies of 4 markers (coordinates: 12 x ellipsoids). Checks params.
  GayBerne(GayBerneParams params, std::size_t ellipsoids);

  const GayBerneParams& params() const { return m_params; }
  std::size_t ellipsoidCount() const { return m_count; }
  std::size_t dimension() const override { return 3 * kGayBerneMarkers * m_count; }
  /// "Gay-Berne N ellipsoids (kappa 3, kappa' 5, mu 2, nu 1), 4N markers (cpu)".
  std::string name() const override;
  /// Sum over pairs of ellipsoids; +infinity when a pair has R <= 0 (surfaces overlapping by more
  /// than sigma0, where the formula has a spurious attractive branch), so L-BFGS backtracks.
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// Half of each pair energy to each ellipsoid, split equally over its 4 markers.
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  /// Centre (mean of the 4 markers) and unit axis of ellipsoid k from marker coordinates x.
  static void centreAndAxis(const double* x, std::size_t k, double centre[3], double axis[3]);

 private:
  double evaluate(const double* x, double* g, double* atomEnergies);

  GayBerneParams m_params;
  GayBerneShape m_shape;
  std::size_t m_count;
};

/// n Gay-Berne ellipsoids as rigid bodies: body k holds markers 4k..4k+3; referenceMarkers
/// (12 n) place the ellipsoids with axes along z on a square-prism lattice at the side-by-side
/// (2^(1/6) sigma0 in x and y) and end-to-end ((kappa - 1 + 2^(1/6)) sigma0 in z) well distances,
/// which both defines each body's shape and serves as a start structure.
struct GayBerneCluster {
  GayBerneParams params;
  RigidBodySet bodies;
  std::vector<double> referenceMarkers;

  std::size_t ellipsoidCount() const { return bodies.bodyCount(); }
  /// Each ellipsoid a uniform solid ellipsoid of revolution of unit mass (reduced units m0) and
  /// semi-axes sigma0 / 2, sigma0 / 2 and kappa sigma0 / 2 (along its axis): moments
  /// m (a^2 + c^2) / 5 about the two perpendicular axes and 2 m a^2 / 5 about its own (the last
  /// moves nothing the energy sees: the spin is a zero mode).
  RigidBodyMasses masses() const;
  /// The centre and the two axis tips (markers 0 and 1) of every ellipsoid in `markers` (4 per
  /// ellipsoid), 3 points each: what tells two structures apart, since the side markers follow
  /// the arbitrary spin. (The centre lets an alignment permute the ellipsoids with their tips
  /// following, and swap each one's tips, as nested permutation groups.)
  std::vector<double> centresAndTips(const std::vector<double>& markers) const;
  /// Indices of the axis tips among the markers (0, 1, 4, 5, ...).
  std::vector<std::size_t> axisTipIndices() const;
  /// RigidBodySystem(bodies, referenceMarkers): p = 0 is the axis along +z, which is every
  /// body's spin axis (RigidBodySystem::setSpinAxes).
  RigidBodySystem rigidSystem() const;
};

/// Throws std::invalid_argument for n < 2 or bad params.
GayBerneCluster gayBerneCluster(const GayBerneParams& params, std::size_t n);

/// Rigid coordinates (centres, then angle-axis vectors; RigidBodySystem's layout) of ellipsoids
/// at `centres` (3 n) with unit axes `axes` (3 n): each p is the shortest rotation taking +z to
/// the axis (the spin about the axis is free). Throws std::invalid_argument on size mismatch or a
/// zero axis.
std::vector<double> gayBerneRigidCoordinates(const std::vector<double>& centres,
                                             const std::vector<double>& axes);

}  // namespace landscape
