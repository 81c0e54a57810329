#include "landscape/search/ClusterStepTaker.h"

#include <cmath>
#include <stdexcept>

namespace landscape {

namespace {
constexpr double kPi = 3.14159265358979323846;

// Pulls a point outside the container back to just inside it (GMIN: radius sqrt(0.99) R).
void pullInside(double* p, double radius) {
  const double r2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  if (r2 > radius * radius) {
    const double scale = std::sqrt(0.99 * radius * radius / r2);
    for (int k = 0; k < 3; ++k) p[k] *= scale;
  }
}
}  // namespace

ClusterStepTaker::ClusterStepTaker(double containerRadius, double angularThreshold)
    : m_radius(containerRadius), m_angularThreshold(angularThreshold) {
  if (!(containerRadius > 0.0)) throw std::invalid_argument("container radius must be > 0");
}

ClusterStepSummary ClusterStepTaker::takeStep(std::vector<double>& x, double stepSize,
                                              const std::vector<double>& atomEnergies,
                                              Random& random) const {
  const std::size_t n = x.size() / 3;
  ClusterStepSummary summary;
  if (m_angularThreshold > 0.0 && atomEnergies.size() == n && n > 1) {
    std::size_t weakest = 0;
    double lowest = atomEnergies[0];
    for (std::size_t i = 1; i < n; ++i) {
      if (atomEnergies[i] > atomEnergies[weakest]) weakest = i;
      lowest = std::min(lowest, atomEnergies[i]);
    }
    if (atomEnergies[weakest] > m_angularThreshold * lowest) {
      double com[3] = {0.0, 0.0, 0.0};
      for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) com[k] += x[3 * i + k] / static_cast<double>(n);
      double maxDist2 = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k) d2 += (x[3 * i + k] - com[k]) * (x[3 * i + k] - com[k]);
        maxDist2 = std::max(maxDist2, d2);
      }
      // GMIN draws theta uniformly in [0, pi] (not uniform on the sphere); we keep its choice.
      const double theta = random.uniform() * kPi;
      const double phi = random.uniform() * 2.0 * kPi;
      const double r = std::sqrt(maxDist2) + 1.0;
      double* p = &x[3 * weakest];
      p[0] = com[0] + r * std::sin(theta) * std::cos(phi);
      p[1] = com[1] + r * std::sin(theta) * std::sin(phi);
      p[2] = com[2] + r * std::cos(theta);
      pullInside(p, m_radius);
      summary.angularMovedAtom = static_cast<int>(weakest);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<int>(i) == summary.angularMovedAtom) continue;
    double* p = &x[3 * i];
    if (stepSize == 0.0) {  // no displacement to draw (rigid water's default): only the container
      pullInside(p, m_radius);
      continue;
    }
    const double old[3] = {p[0], p[1], p[2]};
    // Redraw a displacement that would leave the container; after many tries pull the atom in.
    for (int tries = 0;; ++tries) {
      for (int k = 0; k < 3; ++k) p[k] = old[k] + stepSize * random.symmetric();
      if (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] <= m_radius * m_radius) break;
      if (tries == 100) {
        pullInside(p, m_radius);
        break;
      }
    }
  }
  return summary;
}

}  // namespace landscape
