#include "potentials/RigidBodySystem.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "potentials/RigidBodyTerms.h"

namespace landscape {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

RigidBodySystem::RigidBodySystem(const RigidBodySet& set, const std::vector<double>& reference)
    : m_atomCount(set.atomCount()), m_freeAtoms(set.freeAtoms()) {
  if (reference.size() != 3 * m_atomCount)
    throw std::invalid_argument("rigid bodies: the reference structure has " +
                                std::to_string(reference.size() / 3) +
                                " atoms, the rigid-body "
                                "set " +
                                std::to_string(m_atomCount));
  m_bodyStart.push_back(0);
  for (std::size_t b = 0; b < set.bodyCount(); ++b) {
    const std::vector<std::size_t>& atoms = set.body(b);
    double c[3] = {0.0, 0.0, 0.0};
    for (std::size_t a : atoms)
      for (int k = 0; k < 3; ++k) c[k] += reference[3 * a + k];
    for (double& v : c) v /= static_cast<double>(atoms.size());
    Eigen::Matrix3d S = Eigen::Matrix3d::Zero();
    for (std::size_t a : atoms) {
      const Eigen::Vector3d r(reference[3 * a] - c[0], reference[3 * a + 1] - c[1],
                              reference[3 * a + 2] - c[2]);
      S += r * r.transpose();
      m_bodyAtoms.push_back(a);
      for (int k = 0; k < 3; ++k) m_reference.push_back(r[k]);
    }
    // A rotation about the body's own line cannot be seen in its atoms: the metric (and the
    // Hessian in p) would be singular. Demand two non-negligible principal second moments.
    const Eigen::Vector3d ev = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(S).eigenvalues();
    if (!(ev[1] > 1e-6 * std::max(ev[2], 1e-300)) || !(ev[1] > 1e-10))
      throw std::invalid_argument("rigid body " + std::to_string(b + 1) + " (first atom " +
                                  std::to_string(atoms.front() + 1) +
                                  ") is collinear in the reference structure, so its rotation "
                                  "is undefined; add an off-axis atom or leave it atomistic");
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m_secondMoment.push_back(S(i, j));
    m_bodyStart.push_back(m_bodyAtoms.size());
  }
}

std::size_t RigidBodySystem::largestBody() const {
  std::size_t n = 0;
  for (std::size_t b = 0; b < bodyCount(); ++b) n = std::max(n, bodySize(b));
  return n;
}

void RigidBodySystem::toAtoms(const double* q, double* x) const {
  const std::size_t B = bodyCount();
  for (std::size_t b = 0; b < B; ++b) {
    double R[9];
    rotationMatrix(q + 3 * B + 3 * b, R);
    for (std::size_t e = m_bodyStart[b]; e < m_bodyStart[b + 1]; ++e) {
      double r[3];
      matVec3(R, &m_reference[3 * e], r);
      const std::size_t a = m_bodyAtoms[e];
      for (int k = 0; k < 3; ++k) x[3 * a + k] = q[3 * b + k] + r[k];
    }
  }
  const double* free = q + 6 * B;
  for (std::size_t f = 0; f < m_freeAtoms.size(); ++f)
    for (int k = 0; k < 3; ++k) x[3 * m_freeAtoms[f] + k] = free[3 * f + k];
}

std::vector<double> RigidBodySystem::toAtoms(const std::vector<double>& q) const {
  if (q.size() != dimension())
    throw std::invalid_argument("rigid coordinates have " + std::to_string(q.size()) +
                                " entries, the system " + std::to_string(dimension()));
  std::vector<double> x(3 * m_atomCount);
  toAtoms(q.data(), x.data());
  return x;
}

void rotationVectorOf(const double R[9], double p[3]) {
  const double tr = R[0] + R[4] + R[8];
  const double cosT = std::clamp(0.5 * (tr - 1.0), -1.0, 1.0);
  const double theta = std::acos(cosT);
  // vee(R - R^T) = 2 sin(theta) n.
  const double v[3] = {R[7] - R[5], R[2] - R[6], R[3] - R[1]};
  if (theta < 1e-6) {
    for (int k = 0; k < 3; ++k) p[k] = 0.5 * v[k];  // sin(t)/t = 1 to 1e-13
    return;
  }
  if (theta < kPi - 1e-3) {
    const double f = theta / (2.0 * std::sin(theta));
    for (int k = 0; k < 3; ++k) p[k] = f * v[k];
    return;
  }
  // Near pi, sin(theta) vanishes: take n from (R + R^T)/2 - cos(theta) I = (1 - cos) n n^T.
  double B[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      B[3 * i + j] = 0.5 * (R[3 * i + j] + R[3 * j + i]) - (i == j ? cosT : 0.0);
  int col = 0;
  if (B[4] > B[3 * col + col]) col = 1;
  if (B[8] > B[3 * col + col]) col = 2;
  double n[3] = {B[col], B[3 + col], B[6 + col]};
  const double norm = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (double& c : n) c /= norm;
  if (n[0] * v[0] + n[1] * v[1] + n[2] * v[2] < 0.0)
    for (double& c : n) c = -c;
  for (int k = 0; k < 3; ++k) p[k] = theta * n[k];
}

namespace {
// The unit quaternion (w, v) of rotation vector p: (cos(t/2), sin(t/2) p / t), t = |p|.
void quaternionOf(const double p[3], double& w, double v[3]) {
  const double t = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  const double half = 0.5 * t;
  const double s = std::sin(half);
  w = std::cos(half);
  const double f = t > 0.0 ? s / t : 0.5;
  for (int k = 0; k < 3; ++k) v[k] = f * p[k];
}
}  // namespace

void turnRotationVector(const double turn[3], double p[3]) {
  double wt, vt[3], wp, vp[3];
  quaternionOf(turn, wt, vt);
  quaternionOf(p, wp, vp);
  // (wt, vt)(wp, vp) = (wt wp - vt.vp, wt vp + wp vt + vt x vp).
  double w = wt * wp - (vt[0] * vp[0] + vt[1] * vp[1] + vt[2] * vp[2]);
  double v[3] = {wt * vp[0] + wp * vt[0] + vt[1] * vp[2] - vt[2] * vp[1],
                 wt * vp[1] + wp * vt[1] + vt[2] * vp[0] - vt[0] * vp[2],
                 wt * vp[2] + wp * vt[2] + vt[0] * vp[1] - vt[1] * vp[0]};
  if (w < 0.0) {  // q and -q are one rotation; w >= 0 gives the angle in [0, pi]
    w = -w;
    for (double& c : v) c = -c;
  }
  const double s = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const double f = s > 0.0 ? 2.0 * std::atan2(s, w) / s : 2.0 / w;
  for (int k = 0; k < 3; ++k) p[k] = f * v[k];
}

std::vector<double> RigidBodySystem::fromAtoms(const std::vector<double>& x) const {
  if (x.size() != 3 * m_atomCount)
    throw std::invalid_argument("rigid bodies: atomistic coordinates have " +
                                std::to_string(x.size()) + " entries, expected " +
                                std::to_string(3 * m_atomCount));
  const std::size_t B = bodyCount();
  std::vector<double> q(dimension());
  for (std::size_t b = 0; b < B; ++b) {
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (std::size_t e = m_bodyStart[b]; e < m_bodyStart[b + 1]; ++e)
      c += Eigen::Vector3d(&x[3 * m_bodyAtoms[e]]);
    c /= static_cast<double>(bodySize(b));
    // Kabsch: H = sum r0 (x - c)^T = U S V^T, R = V diag(1, 1, d) U^T.
    Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
    for (std::size_t e = m_bodyStart[b]; e < m_bodyStart[b + 1]; ++e)
      H += Eigen::Vector3d(&m_reference[3 * e]) *
           (Eigen::Vector3d(&x[3 * m_bodyAtoms[e]]) - c).transpose();
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const double d = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
    const Eigen::Matrix3d R =
        svd.matrixV() * Eigen::Vector3d(1.0, 1.0, d).asDiagonal() * svd.matrixU().transpose();
    double Rm[9];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Rm[3 * i + j] = R(i, j);
    for (int k = 0; k < 3; ++k) q[3 * b + k] = c[k];
    rotationVectorOf(Rm, &q[3 * B + 3 * b]);
  }
  for (std::size_t f = 0; f < m_freeAtoms.size(); ++f)
    for (int k = 0; k < 3; ++k) q[6 * B + 3 * f + k] = x[3 * m_freeAtoms[f] + k];
  return q;
}

void RigidBodySystem::projectGradient(const double* q, const double* gAtoms, double* gRigid) const {
  const std::size_t B = bodyCount();
  for (std::size_t b = 0; b < B; ++b) {
    double R[9], D1[9], D2[9], D3[9];
    rotationMatrixAndDerivatives(q + 3 * B + 3 * b, R, D1, D2, D3);
    double gt[3] = {0.0, 0.0, 0.0}, gp[3] = {0.0, 0.0, 0.0};
    for (std::size_t e = m_bodyStart[b]; e < m_bodyStart[b + 1]; ++e) {
      const double* g = gAtoms + 3 * m_bodyAtoms[e];
      const double* r0 = &m_reference[3 * e];
      double d1[3], d2[3], d3[3];
      matVec3(D1, r0, d1);
      matVec3(D2, r0, d2);
      matVec3(D3, r0, d3);
      for (int k = 0; k < 3; ++k) gt[k] += g[k];            // eq 6
      gp[0] += g[0] * d1[0] + g[1] * d1[1] + g[2] * d1[2];  // eq 7
      gp[1] += g[0] * d2[0] + g[1] * d2[1] + g[2] * d2[2];
      gp[2] += g[0] * d3[0] + g[1] * d3[1] + g[2] * d3[2];
    }
    for (int k = 0; k < 3; ++k) {
      gRigid[3 * b + k] = gt[k];
      gRigid[3 * B + 3 * b + k] = gp[k];
    }
  }
  double* gFree = gRigid + 6 * B;
  for (std::size_t f = 0; f < m_freeAtoms.size(); ++f)
    for (int k = 0; k < 3; ++k) gFree[3 * f + k] = gAtoms[3 * m_freeAtoms[f] + k];
}

double RigidBodySystem::rmsGradient(const double* q, const double* gRigid) const {
  const std::size_t B = bodyCount();
  double sum = 0.0;
  for (std::size_t b = 0; b < B; ++b) {
    const double* gt = gRigid + 3 * b;
    sum += (gt[0] * gt[0] + gt[1] * gt[1] + gt[2] * gt[2]) / static_cast<double>(bodySize(b));
    double R[9], D1[9], D2[9], D3[9], M[6];
    rotationMatrixAndDerivatives(q + 3 * B + 3 * b, R, D1, D2, D3);
    angleAxisMetric(D1, D2, D3, &m_secondMoment[9 * b], M);
    sum += inverseMetricNormSquared(M, gRigid + 3 * B + 3 * b);
  }
  for (std::size_t i = 6 * B; i < dimension(); ++i) sum += gRigid[i] * gRigid[i];
  return std::sqrt(sum / static_cast<double>(3 * m_atomCount));
}

std::vector<double> RigidBodySystem::diagonalMetric() const {
  const std::size_t B = bodyCount();
  std::vector<double> w(dimension(), 1.0);
  for (std::size_t b = 0; b < B; ++b) {
    const double* S = &m_secondMoment[9 * b];
    const double rotation = (2.0 / 3.0) * (S[0] + S[4] + S[8]);  // tr(tr(S) I - S) / 3
    for (int k = 0; k < 3; ++k) {
      w[3 * b + k] = static_cast<double>(bodySize(b));
      w[3 * B + 3 * b + k] = rotation;
    }
  }
  return w;
}

void RigidBodySystem::translate(std::vector<double>& q, double dx, double dy, double dz) const {
  const double d[3] = {dx, dy, dz};
  const std::size_t B = bodyCount();
  for (std::size_t b = 0; b < B; ++b)
    for (int k = 0; k < 3; ++k) q[3 * b + k] += d[k];
  for (std::size_t f = 0; f < m_freeAtoms.size(); ++f)
    for (int k = 0; k < 3; ++k) q[6 * B + 3 * f + k] += d[k];
}

void RigidBodySystem::setSpinAxes(const std::vector<double>& axes) {
  if (axes.size() != 3 * bodyCount())
    throw std::invalid_argument("rigid bodies: " + std::to_string(axes.size()) +
                                " spin-axis components for " + std::to_string(bodyCount()) +
                                " bodies (3 each)");
  for (std::size_t b = 0; b < bodyCount(); ++b) {
    const double norm = Eigen::Vector3d(&axes[3 * b]).norm();
    if (!(norm == 0.0 || std::fabs(norm - 1.0) < 1e-12))
      throw std::invalid_argument("rigid body " + std::to_string(b + 1) +
                                  ": its spin-axis entry must be a unit vector or zero");
  }
  m_spinAxes = axes;
}

std::size_t RigidBodySystem::spinAxisCount() const {
  std::size_t count = 0;
  for (std::size_t b = 0; b < m_spinAxes.size() / 3; ++b)
    if (Eigen::Vector3d(&m_spinAxes[3 * b]).squaredNorm() > 0.0) ++count;
  return count;
}

void RigidBodySystem::overallMotionModes(const double* q, std::vector<double>& modes) const {
  const std::size_t n = dimension(), B = bodyCount();
  modes.assign((6 + spinAxisCount()) * n, 0.0);
  std::vector<double> x(3 * m_atomCount);
  toAtoms(q, x.data());
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  for (std::size_t a = 0; a < m_atomCount; ++a) c += Eigen::Vector3d(&x[3 * a]);
  c /= static_cast<double>(std::max<std::size_t>(m_atomCount, 1));
  // Points that move as positions: centres (slots 0..B-1) and free atoms.
  auto positionSlot = [&](std::size_t s) { return s < B ? 3 * s : 6 * B + 3 * (s - B); };
  for (std::size_t s = 0; s < B + m_freeAtoms.size(); ++s) {
    const std::size_t o = positionSlot(s);
    const Eigen::Vector3d r = Eigen::Vector3d(q + o) - c;
    for (int k = 0; k < 3; ++k) {
      modes[k * n + o + k] = 1.0;
      const Eigen::Vector3d w = Eigen::Vector3d::Unit(k).cross(r);
      for (int j = 0; j < 3; ++j) modes[(3 + k) * n + o + j] = w[j];
    }
  }
  std::size_t spin = 6;  // the next spin mode
  for (std::size_t b = 0; b < B; ++b) {
    double R[9], D[3][9];
    rotationMatrixAndDerivatives(q + 3 * B + 3 * b, R, D[0], D[1], D[2]);
    const Eigen::Matrix3d Rt =
        Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(R).transpose();
    Eigen::Matrix3d T;
    for (int l = 0; l < 3; ++l) {
      const Eigen::Matrix3d A =
          Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(D[l]) * Rt;
      T.col(l) = 0.5 * Eigen::Vector3d(A(2, 1) - A(1, 2), A(0, 2) - A(2, 0), A(1, 0) - A(0, 1));
    }
    const Eigen::FullPivLU<Eigen::Matrix3d> lu(T);
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d dp = lu.solve(Eigen::Vector3d::Unit(k));
      for (int j = 0; j < 3; ++j) modes[(3 + k) * n + 3 * B + 3 * b + j] = dp[j];
    }
    if (m_spinAxes.empty()) continue;
    const Eigen::Vector3d axis(&m_spinAxes[3 * b]);
    if (axis.squaredNorm() == 0.0) continue;
    const Eigen::Vector3d dp = lu.solve(Rt.transpose() * axis);  // w = R a
    for (int j = 0; j < 3; ++j) modes[spin * n + 3 * B + 3 * b + j] = dp[j];
    ++spin;
  }
}

void RigidBodySystem::canonicalise(std::vector<double>& q) const {
  const std::size_t B = bodyCount();
  for (std::size_t b = 0; b < B; ++b) {
    double* p = &q[3 * B + 3 * b];
    double t = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    while (t > kPi) {
      const double f = 1.0 - 2.0 * kPi / t;
      for (int k = 0; k < 3; ++k) p[k] *= f;
      t = std::fabs(t - 2.0 * kPi);
    }
  }
}

}  // namespace landscape
