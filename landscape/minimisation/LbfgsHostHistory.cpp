#include "landscape/minimisation/LbfgsHostHistory.h"

#include <stdexcept>

#include "landscape/core/VectorDispatch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LANDSCAPE_TWO_LOOP_AVX2 1
#endif

namespace landscape {

namespace {

// The recursion's passes over the vectors, each an update of q fused with the dot product that
// follows it: q_i <- (q_i + a u_i) s (q_i s without u), then x . q (none without x). One pass
// instead of two, and in AVX2 where the processor has it (core/VectorDispatch.h).
//
// Bits: the recursion gives the bits of its Eigen form (q.noalias() -= alpha * y, q *= gamma,
// s.dot(q), ... in the release build, baseline x86-64): the updates are elementwise and rounded
// alike (no contraction: CMakeLists.txt compiles this file with -ffp-contract=off; x - a y is
// x + (-a) y and x 1 is x, exactly), and each dot product is summed in the order of Eigen 3.4's
// vectorised reduction over packets of two doubles (Redux.h, LinearVectorizedTraversal): products
// 0-3 start two packets, products 4k..4k+3 add to them, the packets are added, then the pair of
// products left over (if any), then the packet's two lanes, then the last product (odd n).
// LbfgsHostHistoryTest checks these bits against Eigen's for many n, on both loop versions.

// The sum over i < n of the products p[i], in that order; n >= 1.
LANDSCAPE_VECTOR_LOOP double sumInEigenOrder(const double* p, Eigen::Index n) {
  if (n < 2) return p[0];
  const Eigen::Index pairs = n / 2 * 2, quads = n / 4 * 4;
  double low = p[0], high = p[1];
  if (pairs > 2) {
    double low2 = p[2], high2 = p[3];
    for (Eigen::Index i = 4; i < quads; i += 4) {
      low += p[i];
      high += p[i + 1];
      low2 += p[i + 2];
      high2 += p[i + 3];
    }
    low += low2;
    high += high2;
    if (pairs > quads) {
      low += p[quads];
      high += p[quads + 1];
    }
  }
  double sum = low + high;
  if (pairs < n) sum += p[n - 1];
  return sum;
}

// q_i updated as above.
LANDSCAPE_VECTOR_LOOP double updated(double qi, double a, const double* u, Eigen::Index i,
                                     double scale) {
  return (u != nullptr ? qi + a * u[i] : qi) * scale;
}

// The pass in plain C++: the products go through a buffer, summed as above.
double updateThenDotBaseline(double* q, double a, const double* u, double scale, const double* x,
                             Eigen::Index n, double* products) {
  for (Eigen::Index i = 0; i < n; ++i) q[i] = updated(q[i], a, u, i, scale);
  if (x == nullptr) return 0.0;
  for (Eigen::Index i = 0; i < n; ++i) products[i] = x[i] * q[i];
  return sumInEigenOrder(products, n);
}

#ifdef LANDSCAPE_TWO_LOOP_AVX2
// The same pass in AVX2: one register holds the two packets' four lanes (products 4k..4k+3 are
// added lane by lane, as Eigen adds them to its two packets).
LANDSCAPE_TARGET_AVX2 double updateThenDotAvx2(double* q, double a, const double* u, double scale,
                                               const double* x, Eigen::Index n) {
  const __m256d a4 = _mm256_set1_pd(a), scale4 = _mm256_set1_pd(scale);
  const auto update4 = [&](Eigen::Index i) LANDSCAPE_TARGET_AVX2 {
    __m256d next = _mm256_loadu_pd(q + i);
    if (u != nullptr) next = _mm256_add_pd(next, _mm256_mul_pd(a4, _mm256_loadu_pd(u + i)));
    next = _mm256_mul_pd(next, scale4);
    _mm256_storeu_pd(q + i, next);
    return next;
  };
  const auto update1 = [&](Eigen::Index i) { q[i] = updated(q[i], a, u, i, scale); };
  const Eigen::Index pairs = n / 2 * 2, quads = n / 4 * 4;
  if (x == nullptr || n < 4) {
    Eigen::Index i = 0;
    for (; i + 4 <= n; i += 4) update4(i);
    for (; i < n; ++i) update1(i);
    if (x == nullptr) return 0.0;
    double products[3];
    for (Eigen::Index k = 0; k < n; ++k) products[k] = x[k] * q[k];
    return sumInEigenOrder(products, n);
  }
  __m256d sums = _mm256_mul_pd(_mm256_loadu_pd(x), update4(0));
  for (Eigen::Index i = 4; i < quads; i += 4)
    sums = _mm256_add_pd(sums, _mm256_mul_pd(_mm256_loadu_pd(x + i), update4(i)));
  __m128d packet = _mm_add_pd(_mm256_castpd256_pd128(sums), _mm256_extractf128_pd(sums, 1));
  for (Eigen::Index i = quads; i < n; ++i) update1(i);
  if (pairs > quads) {
    const __m128d last = _mm_mul_pd(_mm_loadu_pd(x + quads), _mm_loadu_pd(q + quads));
    packet = _mm_add_pd(packet, last);
  }
  double sum = _mm_cvtsd_f64(packet) + _mm_cvtsd_f64(_mm_unpackhi_pd(packet, packet));
  if (pairs < n) sum += x[n - 1] * q[n - 1];
  return sum;
}
#endif

}  // namespace

LbfgsHostHistory::LbfgsHostHistory(Eigen::Index n, int m) : m_n(n), m_m(m) {
  if (m < 1) throw std::invalid_argument("L-BFGS history size m must be >= 1");
  m_rho.assign(m, 0.0);
  m_alpha.assign(m, 0.0);
}

double LbfgsHostHistory::updateThenDot(double* q, double a, const double* u, double scale,
                                       const double* x) {
#ifdef LANDSCAPE_TWO_LOOP_AVX2
  if (cpuHasAvx2()) return updateThenDotAvx2(q, a, u, scale, x, m_n);
#endif
  m_products.resize(static_cast<std::size_t>(m_n));
  return updateThenDotBaseline(q, a, u, scale, x, m_n, m_products.data());
}

void LbfgsHostHistory::applyInverseHessian(Eigen::VectorXd& q, double initialGuess) {
  const int length = m_order.length;
  double* v = q.data();
  if (length == 0) {
    updateThenDot(v, 0.0, nullptr, initialGuess, nullptr);
    return;
  }
  // First loop, newest pair first: alpha_c = rho_c s_c . q, then q <- q - alpha_c y_c, fused
  // with the next pair's s . q; the last update also scales q by gamma (H0) and takes y . q for
  // the second loop's first pair.
  const auto s = [&](int k) { return m_s.col(m_order.slot(k, m_m)).data(); };
  const auto y = [&](int k) { return m_y.col(m_order.slot(k, m_m)).data(); };
  const auto rho = [&](int k) { return m_rho[m_order.slot(k, m_m)]; };
  double dot = updateThenDot(v, 0.0, nullptr, 1.0, s(length - 1));
  for (int k = length - 1; k >= 0; --k) {
    const double alpha = rho(k) * dot;
    m_alpha[m_order.slot(k, m_m)] = alpha;
    dot = k > 0 ? updateThenDot(v, -alpha, y(k), 1.0, s(k - 1))
                : updateThenDot(v, -alpha, y(k), m_order.gamma, y(0));
  }
  // Second loop, oldest pair first: beta = rho_c y_c . q, then q <- q + (alpha_c - beta) s_c,
  // fused with the next pair's y . q.
  for (int k = 0; k < length; ++k) {
    const double beta = rho(k) * dot;
    dot = updateThenDot(v, m_alpha[m_order.slot(k, m_m)] - beta, s(k), 1.0,
                        k + 1 < length ? y(k + 1) : nullptr);
  }
}

}  // namespace landscape
