#include "landscape/minimisation/BatchedNumericalHessian.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

void BatchedHessianParams::check() const {
  if (!(std::isfinite(step) && step > 0.0))
    throw std::invalid_argument("BatchedHessianParams.step must be > 0 and finite");
}

std::size_t batchedHessianCallSize(const BatchedPotential& potential,
                                   const std::vector<std::vector<double>>& points,
                                   const BatchedHessianParams& params, const char* caller) {
  params.check();
  const std::size_t n = potential.dimension();
  for (std::size_t p = 0; p < points.size(); ++p)
    if (points[p].size() != n)
      throw std::invalid_argument(std::string(caller) + ": point " + std::to_string(p + 1) +
                                  " has " + std::to_string(points[p].size()) +
                                  " coordinates, the potential expects " + std::to_string(n));
  const std::size_t total = 2 * n * points.size();
  // Calls hold whole +/- pairs: an even number of structures, at least one pair.
  const std::size_t chunk = params.maxBatch == 0 ? total : std::min(params.maxBatch, total);
  return std::max<std::size_t>(2, chunk - chunk % 2);
}

std::vector<Eigen::MatrixXd> batchedNumericalHessians(
    BatchedPotential& potential, const std::vector<std::vector<double>>& points,
    const BatchedHessianParams& params) {
  const std::size_t chunk =
      batchedHessianCallSize(potential, points, params, "batchedNumericalHessians");
  const std::size_t n = potential.dimension();
  // Structure s of the whole job: point s / 2n, coordinate (s % 2n) / 2, + step when even.
  const std::size_t perPoint = 2 * n, total = perPoint * points.size();
  const double h = params.step;
  std::vector<Eigen::MatrixXd> hessians(points.size(), Eigen::MatrixXd(n, n));
  std::vector<double> x(chunk * n), g(chunk * n), energy(chunk);
  for (std::size_t first = 0; first < total; first += chunk) {
    const std::size_t count = std::min(chunk, total - first);
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t s = first + k, p = s / perPoint, i = (s % perPoint) / 2;
      double* row = x.data() + k * n;
      std::copy(points[p].begin(), points[p].end(), row);
      row[i] = s % 2 == 0 ? points[p][i] + h : points[p][i] - h;
    }
    potential.energyGradient(count, x.data(), g.data(), energy.data(), nullptr);
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t s = first + k, p = s / perPoint, i = (s % perPoint) / 2;
      // The minus displacement (odd s; its plus is the structure before it in the same call)
      // completes row i: (g+ - g-) / 2h, as numericalHessian forms it.
      if (s % 2 == 0) continue;
      const Eigen::Map<const Eigen::VectorXd> minus(g.data() + k * n, static_cast<Eigen::Index>(n));
      const Eigen::Map<const Eigen::VectorXd> plus(g.data() + (k - 1) * n,
                                                   static_cast<Eigen::Index>(n));
      hessians[p].row(static_cast<Eigen::Index>(i)) = (plus - minus).transpose() / (2.0 * h);
    }
  }
  for (Eigen::MatrixXd& hessian : hessians) {
    const Eigen::MatrixXd symmetric = 0.5 * (hessian + hessian.transpose());  // no aliasing
    hessian = symmetric;
  }
  return hessians;
}

}  // namespace landscape
