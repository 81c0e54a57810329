#pragma once
// Soft-sticky-dipole (SSD) water (Liu and Ichiye, J. Phys. Chem. 100, 2723 (1996)), the water of
// BRAHMS (Shkurti et al., J. Comput. Chem. 34, 803 (2013)): one interaction centre per molecule
// carrying a Lennard-Jones core, a point dipole and a tetrahedral sticky term, as rigid bodies of
// marker sites; CPU reference. Energies in kcal/mol, lengths in Angstrom (docs/water.md).
//
// Each molecule is 4 marker "atoms" at the body-frame points (0,0,+h), (0,0,-h), (+h,0,0),
// (-h,0,0), h = 1 Angstrom (the Gay-Berne construction, potentials/GayBerne.h): their centre of
// geometry is the molecule's centre, ez = (m0 - m1) / |m0 - m1| its dipole axis, ex the unit part
// of m2 - m3 perpendicular to ez, ey = ez x ex. SoftStickyDipole is a Potential over the 12 n
// marker Cartesians (pair law in SoftStickyDipoleTerms.h, gradient by the chain rule through this
// construction), so RigidBodyPotential over it gives the rigid energy and its exact gradient in
// centres and angle-axis vectors. Unlike a Gay-Berne ellipsoid, all three rotations move physics.
#include <cstddef>
#include <string>
#include <vector>

#include "potentials/Potential.h"
#include "potentials/RigidBodyMasses.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"
#include "potentials/SoftStickyDipoleTerms.h"

namespace landscape {

/// The model. Defaults: SSD as published (Liu and Ichiye 1996, Table 1; OpenMD's forceFields/
/// Water.frc has the same numbers).
struct SoftStickyDipoleParams {
  double epsilon = 0.152;                ///< Lennard-Jones well depth, kcal/mol
  double sigma = 3.051;                  ///< Lennard-Jones diameter, Angstrom
  double dipole = 2.35;                  ///< dipole moment, Debye
  double v0 = 3.7284;                    ///< strength of the tetrahedral term w, kcal/mol
  double v0Prime = 3.7284;               ///< strength of the dipole-axis correction w', kcal/mol
  double w0 = 0.07715;                   ///< the offset of w'
  double rL = 2.75, rU = 3.35;           ///< switch of w, Angstrom
  double rLPrime = 2.75, rUPrime = 4.0;  ///< switch of w', Angstrom
  /// Coulomb constant in kcal/mol Angstrom / e^2 (CODATA 2018: 332.0637) and Debye in e Angstrom
  /// (0.2081943).
  double coulomb = 332.0637;
  double debye = 0.2081943;

  /// Throws std::invalid_argument with a sentence naming the first bad field: non-finite values,
  /// epsilon, sigma, coulomb or debye <= 0, dipole, v0 or v0' < 0, a switch with upper <= lower or
  /// lower <= 0.
  void check() const;
  SoftStickyDipoleConstants pairConstants() const;
};

constexpr std::size_t kSoftStickyDipoleMarkers = 4;
constexpr double kSoftStickyDipoleMarkerDistance = 1.0;  ///< Angstrom

class SoftStickyDipole : public Potential {
 public:
  /// `molecules` >= 2 bodies of 4 markers (coordinates: 12 x molecules). Checks params.
  SoftStickyDipole(SoftStickyDipoleParams params, std::size_t molecules);

  const SoftStickyDipoleParams& params() const { return m_params; }
  std::size_t moleculeCount() const { return m_count; }
  std::size_t dimension() const override { return 3 * kSoftStickyDipoleMarkers * m_count; }
  /// "SSD water x N, 4N markers (cpu)".
  std::string name() const override;
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// Half of each pair energy to each molecule, split equally over its 4 markers.
  bool perAtomEnergies(const double* x, double* atomEnergies) override;

  /// Centre (mean of the 4 markers) and frame of molecule k from marker coordinates x
  /// (softStickyDipoleFrameOfMarkers).
  static void centreAndFrame(const double* x, std::size_t k, double centre[3],
                             SoftStickyDipoleFrame& frame);

 private:
  double evaluate(const double* x, double* g, double* atomEnergies);

  SoftStickyDipoleParams m_params;
  SoftStickyDipoleConstants m_constants;
  std::size_t m_count;
};

/// n SSD molecules as rigid bodies: body k holds markers 4k..4k+3; referenceMarkers (12 n) place
/// the molecules with p = 0 (body axes along the lab axes) on a simple cubic lattice of 2.8
/// Angstrom, which defines each body's shape (the start of a search is random: docs/water.md).
struct SoftStickyDipoleCluster {
  SoftStickyDipoleParams params;
  RigidBodySet bodies;
  std::vector<double> referenceMarkers;

  std::size_t moleculeCount() const { return bodies.bodyCount(); }
  RigidBodySystem rigidSystem() const;
  /// The molecules' masses: 18.0153 amu at the centre, principal moments 1.7696, 0.6145 and
  /// 1.1550 amu A^2 about the body x, y and z axes (water's, as OpenMD's SSD atom type has them:
  /// x normal to the molecule's plane, the hydrogens drawn along y); the markers carry no mass.
  RigidBodyMasses masses() const;
  /// O and H positions (3 x 3 n, Angstrom) of rigid coordinates q for drawing: O at the centre,
  /// the hydrogens 0.9572 A away at 104.52 degrees in the body y-z plane towards +z (where the
  /// sticky term attracts and the dipole points); the model itself has no hydrogens.
  std::vector<double> drawnAtoms(const std::vector<double>& q) const;
};

/// Throws std::invalid_argument for n < 2 or bad params.
SoftStickyDipoleCluster softStickyDipoleCluster(const SoftStickyDipoleParams& params,
                                                std::size_t n);

}  // namespace landscape
