#include "landscape/geometry/CsmSymmetrisation.h"

#include <Eigen/Core>
#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/geometry/Hungarian.h"

namespace landscape {

CsmSymmetrisation symmetriseByInversion(const std::vector<double>& x) {
  if (x.size() < 6 || x.size() % 3 != 0)
    throw std::invalid_argument("CSM symmetrisation needs at least two atoms (3N coordinates), got " +
                                std::to_string(x.size()) + " numbers");
  for (double v : x)
    if (!std::isfinite(v))
      throw std::invalid_argument("CSM symmetrisation: the coordinates are not all finite");
  const int n = static_cast<int>(x.size() / 3);
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (int i = 0; i < n; ++i) c += Eigen::Vector3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) / n;
  std::vector<Eigen::Vector3d> r(n);
  double norm = 0.0;
  for (int i = 0; i < n; ++i) {
    r[i] = Eigen::Vector3d(x[3 * i], x[3 * i + 1], x[3 * i + 2]) - c;
    norm += r[i].squaredNorm();
  }
  // Atom i of the cluster against atom j of the inverted cluster (-r_j).
  Eigen::MatrixXd cost(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) cost(i, j) = (r[i] + r[j]).squaredNorm();

  CsmSymmetrisation s;
  s.permutation = solveAssignment(cost);
  s.average.resize(x.size());
  double misfit = 0.0;
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d& partner = r[s.permutation[i]];
    misfit += (r[i] + partner).squaredNorm();
    const Eigen::Vector3d y = c + 0.5 * (r[i] - partner);
    for (int d = 0; d < 3; ++d) s.average[3 * i + d] = y[d];
  }
  s.csm = norm > 0.0 ? misfit / (4.0 * norm) : 0.0;
  return s;
}

}  // namespace landscape
