#include "landscape/geometry/PointGroup.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "landscape/core/Require.h"

namespace landscape {

namespace {

using Vec = Eigen::Vector3d;
using Mat = Eigen::Matrix3d;

constexpr double kPi = 3.14159265358979323846;

// ---- the search ------------------------------------------------------------------------------

struct Cluster {
  std::vector<Vec> q;     // relative to the centroid
  std::vector<double> r;  // |q|
  std::vector<int> type;  // one per atom
  double tolerance;       // final acceptance
  double looseTolerance;  // permutation search before the refit
};

// Maps every atom through R onto its nearest atom of the same type; fails when one lands farther
// than `tolerance` or two land on the same atom.
bool matchAtoms(const Cluster& c, const Mat& R, double tolerance, std::vector<int>& permutation) {
  const std::size_t n = c.q.size();
  permutation.assign(n, -1);
  std::vector<bool> used(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec image = R * c.q[i];
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
      if (c.type[j] != c.type[i]) continue;
      const double d = (image - c.q[j]).norm();
      if (d < bestDistance) {
        bestDistance = d;
        best = static_cast<int>(j);
      }
    }
    if (best < 0 || bestDistance > tolerance || used[best]) return false;
    used[best] = true;
    permutation[i] = best;
  }
  return true;
}

// The orthogonal matrix with determinant `sign` that best maps q_i onto q_permutation[i] (Kabsch
// 1976 with the handedness fixed).
Mat refit(const Cluster& c, const std::vector<int>& permutation, double sign) {
  Mat m = Mat::Zero();
  for (std::size_t i = 0; i < c.q.size(); ++i) m += c.q[permutation[i]] * c.q[i].transpose();
  const Eigen::JacobiSVD<Mat> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Mat u = svd.matrixU(), v = svd.matrixV();
  Mat d = Mat::Identity();
  d(2, 2) = sign * ((u * v.transpose()).determinant() < 0.0 ? -1.0 : 1.0);
  return u * d * v.transpose();
}

double worstDeviation(const Cluster& c, const Mat& R, const std::vector<int>& permutation) {
  double worst = 0.0;
  for (std::size_t i = 0; i < c.q.size(); ++i) {
    worst = std::max(worst, (R * c.q[i] - c.q[permutation[i]]).norm());
  }
  return worst;
}

// Orthonormal right-handed frame from a (first axis) and b (in the plane of the first two).
Mat frame(const Vec& a, const Vec& b) {
  const Vec e1 = a.normalized();
  const Vec e2 = (b - b.dot(e1) * e1).normalized();
  Mat f;
  f.col(0) = e1;
  f.col(1) = e2;
  f.col(2) = e1.cross(e2);
  return f;
}

// Atoms of i's type whose distance from the centroid matches i's.
std::vector<int> shell(const Cluster& c, int i, double tolerance) {
  std::vector<int> members;
  for (std::size_t j = 0; j < c.q.size(); ++j) {
    if (c.type[j] == c.type[i] && std::abs(c.r[j] - c.r[i]) <= tolerance) {
      members.push_back(static_cast<int>(j));
    }
  }
  return members;
}

// Operations are told apart by their permutation and handedness: for a non-planar structure the
// permutation alone fixes the operation, for a planar one it does up to the reflection through
// the plane (which moves no atom).
void addOperation(PointGroup& group, const Mat& R, const std::vector<int>& permutation) {
  const bool proper = R.determinant() > 0.0;
  for (std::size_t k = 0; k < group.permutations.size(); ++k) {
    if (group.permutations[k] == permutation &&
        (group.operations[k].determinant() > 0.0) == proper) {
      return;
    }
  }
  group.operations.push_back(R);
  group.permutations.push_back(permutation);
}

// ---- classification --------------------------------------------------------------------------

// Rotation angle in [0, pi] of a proper orthogonal matrix.
double rotationAngle(const Mat& R) {
  return std::acos(std::clamp((R.trace() - 1.0) / 2.0, -1.0, 1.0));
}

// Smallest k with k theta a multiple of 2 pi (the order of the rotation); 0 if none up to 120.
int rotationOrder(double theta) {
  if (theta < 1e-2) return 1;
  for (int k = 2; k <= 120; ++k) {
    const double turns = k * theta / (2.0 * kPi);
    if (std::abs(turns - std::round(turns)) < 1e-2) return k;
  }
  return 0;
}

// Unit axis of a proper rotation by theta > 0.
Vec rotationAxis(const Mat& R, double theta) {
  if (theta < 0.9 * kPi) {
    return Vec(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1)).normalized();
  }
  // Near pi the antisymmetric part vanishes: the axis is the eigenvector of the symmetric part
  // with eigenvalue 1 (the other two are cos theta, about -1).
  const Eigen::SelfAdjointEigenSolver<Mat> solver(0.5 * (R + R.transpose()));
  return solver.eigenvectors().col(2).normalized();
}

bool parallel(const Vec& a, const Vec& b) { return std::abs(a.dot(b)) > 0.999; }
bool perpendicular(const Vec& a, const Vec& b) { return std::abs(a.dot(b)) < 0.02; }

}  // namespace

void PointGroupParams::check() const {
  require(std::isfinite(distanceTolerance) && distanceTolerance > 0.0,
          "point group distanceTolerance must be > 0 (length)");
}

std::string schoenfliesSymbol(const std::vector<Eigen::Matrix3d>& operations) {
  struct Axis {
    Vec direction;
    int order;
  };
  std::vector<Axis> axes;
  std::vector<Vec> mirrorNormals;
  int proper = 0, improper = 0;
  bool inversion = false;
  for (const Mat& op : operations) {
    const bool isProper = op.determinant() > 0.0;
    const Mat R = isProper ? op : Mat(-op);
    const double theta = rotationAngle(R);
    const int order = rotationOrder(theta);
    if (order == 0) return "?";
    if (!isProper) {
      ++improper;
      if (order == 1) inversion = true;
      if (order == 2) mirrorNormals.push_back(rotationAxis(R, theta));
      continue;
    }
    ++proper;
    if (order == 1) continue;
    const Vec axis = rotationAxis(R, theta);
    auto known = std::find_if(axes.begin(), axes.end(),
                              [&](const Axis& a) { return parallel(a.direction, axis); });
    if (known == axes.end()) {
      axes.push_back({axis, order});
    } else {
      known->order = std::max(known->order, order);
    }
  }

  int highAxes = 0, nmax = 1;
  const Axis* principal = nullptr;
  for (const Axis& a : axes) {
    highAxes += a.order >= 3;
    if (principal == nullptr || a.order > principal->order) principal = &a;
  }
  if (principal != nullptr) nmax = principal->order;

  if (highAxes >= 2) {  // cubic and icosahedral groups
    if (nmax == 5) return improper > 0 ? "Ih" : "I";
    if (nmax == 4) return improper > 0 ? "Oh" : "O";
    if (nmax == 3) return inversion ? "Th" : improper > 0 ? "Td" : "T";
    return "?";
  }
  const int n = nmax;
  bool horizontalMirror = false, verticalMirror = false;
  if (principal != nullptr) {
    for (const Vec& normal : mirrorNormals) {
      horizontalMirror = horizontalMirror || parallel(normal, principal->direction);
      verticalMirror = verticalMirror || perpendicular(normal, principal->direction);
    }
  }
  const std::string nText = std::to_string(n);
  if (n >= 2 && proper == 2 * n) {
    if (horizontalMirror) return "D" + nText + "h";
    return improper > 0 ? "D" + nText + "d" : "D" + nText;
  }
  if (proper != n) return "?";
  if (n == 1) {
    if (improper == 0) return "C1";
    if (improper == 1) return inversion ? "Ci" : mirrorNormals.size() == 1 ? "Cs" : "?";
    return "?";
  }
  if (horizontalMirror) return "C" + nText + "h";
  if (verticalMirror) return "C" + nText + "v";
  if (improper > 0) return "S" + std::to_string(2 * n);
  return "C" + nText;
}

namespace {

// The atoms relative to their centroid, with the tolerances of the search.
Cluster centredCluster(const std::vector<double>& x, const PointGroupParams& params) {
  const std::size_t n = x.size() / 3;
  Cluster c;
  c.tolerance = params.distanceTolerance;
  Vec centroid = Vec::Zero();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec p(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
    if (!p.allFinite()) {
      throw std::invalid_argument("findPointGroup: atom " + std::to_string(i) +
                                  " has a coordinate that is not finite");
    }
    c.q.push_back(p);
    centroid += p;
  }
  centroid /= static_cast<double>(n);
  double closest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    c.q[i] -= centroid;
    c.r.push_back(c.q[i].norm());
    c.type.push_back(params.atomTypes.empty() ? 0 : params.atomTypes[i]);
    for (std::size_t j = 0; j < i; ++j) closest = std::min(closest, (c.q[i] - c.q[j]).norm());
  }
  // Loose enough for the error of an operation built from two atoms, tight enough never to land
  // an atom on a neighbour.
  c.looseTolerance = std::min(10.0 * c.tolerance, 0.25 * closest);
  c.looseTolerance = std::max(c.looseTolerance, c.tolerance);
  return c;
}

// Reference atom a: off the centroid, from the smallest shell, the farthest on ties; -1 when every
// atom sits on the centroid.
int referenceAtom(const Cluster& c) {
  int a = -1;
  std::size_t aShell = 0;
  for (std::size_t i = 0; i < c.q.size(); ++i) {
    if (c.r[i] <= c.tolerance) continue;
    const std::size_t size = shell(c, static_cast<int>(i), 2.0 * c.tolerance).size();
    if (a < 0 || size < aShell || (size == aShell && c.r[i] > c.r[a])) {
      a = static_cast<int>(i);
      aShell = size;
    }
  }
  return a;
}

// Second atom b: well off the line through the centroid and a (offAxis(i) is atom i's distance
// from it, widest the largest), from the smallest shell, the farthest off the line on ties.
template <typename OffAxis>
int secondAtom(const Cluster& c, const OffAxis& offAxis, double widest) {
  int b = -1;
  std::size_t bShell = 0;
  for (std::size_t i = 0; i < c.q.size(); ++i) {
    if (offAxis(i) < 0.25 * widest) continue;
    const std::size_t size = shell(c, static_cast<int>(i), 2.0 * c.tolerance).size();
    if (b < 0 || size < bShell || (size == bShell && offAxis(i) > offAxis(b))) {
      b = static_cast<int>(i);
      bShell = size;
    }
  }
  return b;
}

// A linear (or single-point) cluster: the identity and, when invertible, the inversion.
PointGroup linearGroup(const Cluster& c, PointGroup group, const char* symbol, bool invertible) {
  group.linear = true;
  std::vector<int> permutation;
  if (invertible && matchAtoms(c, -Mat::Identity(), c.tolerance, permutation)) {
    addOperation(group, -Mat::Identity(), permutation);
  }
  group.order = static_cast<int>(group.operations.size());
  group.symbol = group.order == 2 ? "D*h" : symbol;
  return group;
}

// Every operation that maps the frame of atoms a and b onto the frame of a pair of images of the
// same shells (both handednesses), refitted and kept when every atom lands within tolerance.
void addOperationsOfFrames(const Cluster& c, int a, int b, PointGroup& group) {
  const Mat reference = frame(c.q[a], c.q[b]);
  const double dotAB = c.q[a].dot(c.q[b]);
  const std::vector<int> aImages = shell(c, a, c.looseTolerance);
  const std::vector<int> bImages = shell(c, b, c.looseTolerance);
  const double dotTolerance = 2.0 * c.looseTolerance * (c.r[a] + c.r[b]);
  std::vector<int> permutation;
  for (int a2 : aImages) {
    for (int b2 : bImages) {
      if (b2 == a2 || std::abs(c.q[a2].dot(c.q[b2]) - dotAB) > dotTolerance) continue;
      const Vec a2Axis = c.q[a2].normalized();
      if ((c.q[b2] - c.q[b2].dot(a2Axis) * a2Axis).norm() <= c.tolerance) continue;
      const Mat target = frame(c.q[a2], c.q[b2]);
      for (const double sign : {1.0, -1.0}) {
        Mat handed = target;
        handed.col(2) *= sign;
        const Mat first = handed * reference.transpose();
        if (!matchAtoms(c, first, c.looseTolerance, permutation)) continue;
        const Mat fitted = refit(c, permutation, sign);
        if (worstDeviation(c, fitted, permutation) > c.tolerance) continue;
        addOperation(group, fitted, permutation);
      }
    }
  }
}

}  // namespace

PointGroup findPointGroup(const std::vector<double>& x, const PointGroupParams& params) {
  params.check();
  if (x.empty() || x.size() % 3 != 0) {
    throw std::invalid_argument("findPointGroup: " + std::to_string(x.size()) +
                                " coordinates is not a positive multiple of 3");
  }
  const std::size_t n = x.size() / 3;
  if (!params.atomTypes.empty() && params.atomTypes.size() != n) {
    throw std::invalid_argument("findPointGroup: atomTypes has " +
                                std::to_string(params.atomTypes.size()) + " entries for " +
                                std::to_string(n) + " atoms");
  }
  const Cluster c = centredCluster(x, params);
  PointGroup group;
  std::vector<int> identity(n);
  for (std::size_t i = 0; i < n; ++i) identity[i] = static_cast<int>(i);
  group.operations.push_back(Mat::Identity());
  group.permutations.push_back(identity);

  const int a = referenceAtom(c);
  if (a < 0) return linearGroup(c, std::move(group), "Kh", false);
  const Vec axisA = c.q[a].normalized();
  auto offAxis = [&](std::size_t i) { return (c.q[i] - c.q[i].dot(axisA) * axisA).norm(); };
  double widest = 0.0;
  for (std::size_t i = 0; i < n; ++i) widest = std::max(widest, offAxis(i));
  if (widest <= c.tolerance) return linearGroup(c, std::move(group), "C*v", true);
  addOperationsOfFrames(c, a, secondAtom(c, offAxis, widest), group);
  group.order = static_cast<int>(group.operations.size());
  group.symbol = schoenfliesSymbol(group.operations);
  return group;
}

}  // namespace landscape
