// The host L-BFGS history's two-loop recursion (landscape/minimisation/LbfgsHostHistory): its fused
// passes give the bits of the recursion written with Eigen (the form the host minimisers were
// measured and tested with), in AVX2 and in baseline x86-64, for every vector length and history
// fill, so that minimisations, bands and searches take the same steps whichever loops run.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "landscape/core/VectorDispatch.h"
#include "landscape/minimisation/LbfgsHistory.h"
#include "landscape/minimisation/LbfgsHostHistory.h"

namespace landscape {
namespace {

// The recursion as Eigen expressions (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016,
// Algorithm 2), over the pairs oldest first.
Eigen::VectorXd eigenTwoLoop(const std::vector<Eigen::VectorXd>& s,
                             const std::vector<Eigen::VectorXd>& y, Eigen::VectorXd q,
                             double initialGuess) {
  const int length = static_cast<int>(s.size());
  std::vector<double> rho(s.size()), alpha(s.size());
  double gamma = 1.0;
  for (int k = 0; k < length; ++k) {
    const LbfgsPairScalars scalars = lbfgsPairScalars(y[k].dot(s[k]), y[k].squaredNorm());
    rho[k] = scalars.rho;
    gamma = scalars.gamma;
  }
  for (int k = length - 1; k >= 0; --k) {
    alpha[k] = rho[k] * s[k].dot(q);
    q.noalias() -= alpha[k] * y[k];
  }
  q *= (length == 0 ? initialGuess : gamma);
  for (int k = 0; k < length; ++k) {
    const double beta = rho[k] * y[k].dot(q);
    q.noalias() += (alpha[k] - beta) * s[k];
  }
  return q;
}

bool sameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

// The release build's Eigen sums a dot product over packets of two doubles (SSE2 on baseline
// x86-64, NEON on aarch64); the recursion follows that order. A build for wider packets (-march
// with AVX) sums Eigen's form in another order, and only the two loop versions are compared there.
TEST(LbfgsHostHistory, TwoLoopRecursionHasTheBitsOfItsEigenFormOnAvx2AndBaseline) {
  const bool eigenPairs = Eigen::internal::packet_traits<double>::size == 2;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto randomVector = [&](Eigen::Index n, double scale) {
    Eigen::VectorXd v(n);
    for (Eigen::Index i = 0; i < n; ++i) v[i] = scale * normal(rng);
    return v;
  };
  std::vector<Eigen::Index> sizes;
  for (Eigen::Index n = 1; n <= 41; ++n) sizes.push_back(n);
  for (Eigen::Index n : {113, 114, 115, 116, 117, 1140, 3423}) sizes.push_back(n);
  int compared = 0;
  std::vector<Eigen::VectorXd> firstVersion;  // the directions of the AVX2 pass, in order
  for (const bool baseline : {false, true}) {
    useBaselineLoops(baseline);
    rng.seed(7);  // the same vectors for both versions
    normal.reset();
    std::size_t next = 0;
    for (const Eigen::Index n : sizes) {
      for (const int m : {1, 4, 7}) {
        LbfgsHostHistory history(n, m);
        std::vector<Eigen::VectorXd> s, y;  // the pairs in the history, oldest first
        // An empty history (H0 = the initial guess), then pairs until the oldest are dropped.
        for (int stored = 0; stored <= m + 2; ++stored) {
          if (stored > 0) {
            // y = s + noise: mostly positive curvature, as in a descent.
            const Eigen::VectorXd step = randomVector(n, 0.1);
            const Eigen::VectorXd change = step + randomVector(n, 0.03);
            history.store(step, change);
            s.push_back(step);
            y.push_back(change);
            if (static_cast<int>(s.size()) > m) {
              s.erase(s.begin());
              y.erase(y.begin());
            }
          }
          const Eigen::VectorXd gradient = randomVector(n, 1.0);
          Eigen::VectorXd direction = gradient;
          history.applyInverseHessian(direction, 0.37);
          const std::string where = "n " + std::to_string(n) + ", m " + std::to_string(m) + ", " +
                                    std::to_string(s.size()) + " pairs stored, " +
                                    (baseline ? "baseline" : "AVX2 where available") + " loops";
          if (eigenPairs) {
            ASSERT_TRUE(sameBits(direction, eigenTwoLoop(s, y, gradient, 0.37))) << where;
          }
          if (!baseline) {
            firstVersion.push_back(direction);
          } else {
            ASSERT_TRUE(sameBits(direction, firstVersion[next++])) << where;
          }
          ++compared;
        }
      }
    }
  }
  useBaselineLoops(false);
  EXPECT_EQ(compared, 2 * 48 * (4 + 7 + 10));
}

}  // namespace
}  // namespace landscape
