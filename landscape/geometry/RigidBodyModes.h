#pragma once
// The overall translations and rotations of a cluster of atoms as an orthonormal set of vectors
// in the 3N-dimensional coordinate space (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016,
// section 2.2: "unit vectors for infinitesimal translational and rotational displacements ... used
// in a projection procedure"). At a stationary point of an isolated cluster these span the six
// zero-eigenvalue modes of the Hessian (five for a linear molecule, three for a single atom); the
// Rayleigh-Ritz eigenvector search and the finite-difference Hessian project them out so that
// "smallest eigenvalue" means the smallest non-zero one.
//
// Coordinates are flat x1 y1 z1 x2 ... in any length unit; the modes are dimensionless unit
// vectors.
#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace landscape {

class RigidBodyModes {
 public:
  /// Builds the modes at configuration x (3N entries, N >= 1); translations first, then the
  /// rotations about the centroid's x, y and z axes, Gram-Schmidt orthonormalised. A rotation
  /// that is (numerically) a combination of the others, as the one about a linear molecule's axis,
  /// is dropped. Throws std::invalid_argument if the size is not a positive multiple of 3 or a
  /// coordinate is not finite.
  explicit RigidBodyModes(const std::vector<double>& x);
  RigidBodyModes(const double* x, std::size_t dimension);
  /// The modes spanned by the given candidate columns (e.g. Potential::overallMotionModes for
  /// coordinates that are not 3N Cartesians), orthonormalised, dependent ones dropped.
  static RigidBodyModes fromCandidates(const Eigen::MatrixXd& candidates);
  /// The three overall translations alone (unit masses, or sqrt(m_a) e_k with `masses`): the zero
  /// modes of atoms in a periodic box, where rotations are not symmetries. `dimension` is 3N, a
  /// positive multiple of 3; throws std::invalid_argument otherwise or when masses do not fit.
  static RigidBodyModes translations(std::size_t dimension, const std::vector<double>& masses = {});
  /// The modes in mass-weighted coordinates q_i = sqrt(m_a) x_i (a the atom of coordinate i), in
  /// which the Hessian H_ij / sqrt(m_a m_b) gives the normal modes: translations sqrt(m_a) e_k and
  /// rotations sqrt(m_a) e_k x (r_a - centre of mass), orthonormalised. `masses` holds N positive
  /// masses (any unit); equal masses give the modes of the unweighted constructor. Throws
  /// std::invalid_argument when the sizes do not fit or a mass is not positive and finite.
  static RigidBodyModes massWeighted(const std::vector<double>& x,
                                     const std::vector<double>& masses);

  std::size_t dimension() const { return static_cast<std::size_t>(m_basis.rows()); }
  /// Number of modes kept: 6 for a general cluster, 5 for a linear one, 3 for one atom.
  int count() const { return static_cast<int>(m_basis.cols()); }
  /// dimension() x count(), orthonormal columns.
  const Eigen::MatrixXd& basis() const { return m_basis; }

  /// v -= Q Q^T v: removes the components of v along the modes (v has dimension() entries).
  void projectOut(double* v) const;
  void projectOut(Eigen::Ref<Eigen::VectorXd> v) const;

  /// An orthonormal basis (dimension() x (dimension() - count())) of the complement of the modes,
  /// the internal-coordinate subspace in which a Hessian is diagonalised without its zero modes.
  Eigen::MatrixXd complementBasis() const;

 private:
  RigidBodyModes() = default;
  void build(const double* x, std::size_t dimension);
  void orthonormalise(const Eigen::MatrixXd& candidates);
  Eigen::MatrixXd m_basis;
};

}  // namespace landscape
