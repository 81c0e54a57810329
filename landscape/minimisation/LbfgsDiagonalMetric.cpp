#include "landscape/minimisation/LbfgsDiagonalMetric.h"

#include <cmath>
#include <stdexcept>

namespace landscape {

LbfgsDiagonalMetric lbfgsDiagonalMetric(const std::vector<double>& w, std::size_t n,
                                        const std::string& potentialName) {
  if (w.size() != n)
    throw std::invalid_argument("L-BFGS: the diagonal metric of " + potentialName + " has " +
                                std::to_string(w.size()) + " entries, expected " +
                                std::to_string(n));
  LbfgsDiagonalMetric metric;
  const auto size = static_cast<Eigen::Index>(n);
  metric.sqrtW.resize(size);
  metric.invSqrtW.resize(size);
  for (Eigen::Index i = 0; i < size; ++i) {
    if (!(w[i] > 0.0) || !std::isfinite(w[i]))
      throw std::invalid_argument("L-BFGS: the diagonal metric of " + potentialName +
                                  " must be finite and > 0 (entry " + std::to_string(i) + ")");
    metric.sqrtW[i] = std::sqrt(w[i]);
    metric.invSqrtW[i] = 1.0 / metric.sqrtW[i];
  }
  return metric;
}

}  // namespace landscape
