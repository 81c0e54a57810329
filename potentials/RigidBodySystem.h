#pragma once
// The geometry of a local-rigid-body system (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016,
// section 2.1): reference atoms of each body relative to its centre of geometry, and the CPU
// reference of every transform the CUDA twin (gpu/RigidBodyCuda) performs.
//
// Rigid coordinates q (GMIN's layout): the B centres of geometry r_I (Angstrom), then the B
// angle-axis vectors p_I (radians), then the 3F Cartesians of the free atoms:
//   q = r_1 .. r_B | p_1 .. p_B | x_f1 .. x_fF,   dimension 6B + 3F.
// Atoms: r_i = r_I + R(p_I) r0_i (eq 5), R by Rodrigues' formula (eqs 3-4, RigidBodyTerms.h).
// Gradients: dU/dr_I = sum_i dU/dr_i (eq 6); dU/dp_I^k = sum_i dU/dr_i . (R^k r0_i) (eqs 7-10).
#include <cstddef>
#include <string>
#include <vector>

#include "potentials/RigidBodySet.h"

namespace landscape {

class RigidBodySystem {
 public:
  /// `reference` holds 3 x set.atomCount() Cartesians (Angstrom) that define each body's shape.
  /// Throws std::invalid_argument when the sizes disagree or a body is collinear (no rotation
  /// about its axis can be defined).
  RigidBodySystem(const RigidBodySet& set, const std::vector<double>& reference);

  std::size_t atomCount() const { return m_atomCount; }
  std::size_t bodyCount() const { return m_bodyStart.size() - 1; }
  std::size_t freeAtomCount() const { return m_freeAtoms.size(); }
  /// 6B + 3F.
  std::size_t dimension() const { return 6 * bodyCount() + 3 * freeAtomCount(); }
  std::size_t bodySize(std::size_t b) const { return m_bodyStart[b + 1] - m_bodyStart[b]; }
  std::size_t largestBody() const;

  /// Flat arrays (body order) that the CUDA twin uploads.
  const std::vector<std::size_t>& bodyStart() const { return m_bodyStart; }    ///< B + 1 offsets
  const std::vector<std::size_t>& bodyAtoms() const { return m_bodyAtoms; }    ///< atom indices
  const std::vector<double>& referenceOffsets() const { return m_reference; }  ///< r0, 3 per entry
  const std::vector<double>& secondMoments() const { return m_secondMoment; }  ///< S, 9 per body
  const std::vector<std::size_t>& freeAtoms() const { return m_freeAtoms; }

  /// Atoms (3N) from rigid coordinates q (eq 5).
  void toAtoms(const double* q, double* x) const;
  std::vector<double> toAtoms(const std::vector<double>& q) const;

  /// Rigid coordinates of the best fit (least squares, Kabsch) of each body to the atoms x, with
  /// |p| <= pi. Exact when x came from toAtoms().
  std::vector<double> fromAtoms(const std::vector<double>& x) const;

  /// Rigid gradient (dimension()) from the atomistic gradient gAtoms (3N) at q (eqs 6-10).
  void projectGradient(const double* q, const double* gAtoms, double* gRigid) const;

  /// RMS gradient in the angle-axis metric (Ruehle, Kusumaatmaja, Chakrabarti and Wales, J. Chem.
  /// Theory Comput. 2013):
  ///   sqrt( (sum_I |g_rI|^2 / N_I + g_pI^T M_I^-1 g_pI + sum_f |g_f|^2) / (3 N) ),
  /// the norm of the smallest atomistic gradient that projects onto gRigid, so it equals the
  /// plain Cartesian RMS of an all-atom system and is invariant to overall translation and
  /// rotation (M_I from RigidBodyTerms.h angleAxisMetric).
  double rmsGradient(const double* q, const double* gRigid) const;

  /// Diagonal metric for L-BFGS preconditioning (Potential::diagonalMetric), dimension() entries:
  /// N_I for each centre component (moving r_I by d moves N_I atoms by d), tr(M_I(0)) / 3 =
  /// (2/3) sum_i |r0_i|^2 for each angle-axis component (the isotropic part of the angle-axis
  /// metric at p = 0, the inertia tensor of unit masses; Angstrom^2 per radian^2) and 1 for free
  /// atoms. Then sum_i w_i dq_i^2 approximates the squared Cartesian displacement of all atoms, the
  /// norm whose dual is the convergence metric rmsGradient(), so a rotation of a body of radius
  /// ~R no longer looks R times shorter than the atom displacements it causes.
  std::vector<double> diagonalMetric() const;

  /// Translates every atom by (dx, dy, dz): the centres and the free atoms move, p does not.
  void translate(std::vector<double>& q, double dx, double dy, double dz) const;

  /// Bodies whose potential is symmetric about an axis through their centre (uniaxial
  /// ellipsoids: the markers off the axis exist only to define the rotation): axes[b] is body
  /// b's axis in its reference frame (a unit vector), or zero for a body without one. A spin about
  /// such an axis changes no energy, so it is a zero mode of the Hessian beside the overall
  /// motions, and overallMotionModes() adds it. Throws std::invalid_argument when there is not one
  /// entry per body or an entry is neither zero nor of unit length.
  void setSpinAxes(const std::vector<double>& axes);
  /// Bodies with a spin axis.
  std::size_t spinAxisCount() const;

  /// Overall translations (x, y, z) then rotations about the atoms' centroid (x, y, z), then the
  /// spin of each body with a spin axis (setSpinAxes, in body order), as 6 + spinAxisCount()
  /// vectors of rigid coordinates at q: modes[k * dimension() + i]. A rotation w moves centres and
  /// free atoms by w x (r - c) and p by dp with sum_l vee(R^l R^T) dp_l = w; a spin moves only
  /// its body's p, by the dp of w = R(p) a (the axis in the world frame).
  void overallMotionModes(const double* q, std::vector<double>& modes) const;

  /// Replaces every p_I with |p_I| > pi by the equivalent p_I (1 - 2 pi / |p_I|) (same rotation),
  /// keeping the angle-axis chart away from its singularity at |p| = 2 pi.
  void canonicalise(std::vector<double>& q) const;

 private:
  std::size_t m_atomCount;
  std::vector<std::size_t> m_bodyStart;
  std::vector<std::size_t> m_bodyAtoms;
  std::vector<double> m_reference;
  std::vector<double> m_secondMoment;
  std::vector<std::size_t> m_freeAtoms;
  std::vector<double> m_spinAxes;  // 3 per body (zero: none), or empty
};

/// Rotation vector p (|p| <= pi) of the row-major rotation matrix R, accurate near 0 and pi.
void rotationVectorOf(const double R[9], double p[3]);

/// p becomes the rotation vector (|p| <= pi) of R(turn) R(p): the rotation p followed by the
/// rotation turn (both rotation vectors, radians). Composed as unit quaternions, so it needs no
/// rotation matrix and no special case near pi.
void turnRotationVector(const double turn[3], double p[3]);

}  // namespace landscape
