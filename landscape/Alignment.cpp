#include "landscape/Alignment.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "landscape/Hungarian.h"

namespace landscape {

namespace {

void require(bool ok, const std::string &sentence) {
  if (!ok) throw std::invalid_argument(sentence);
}

using Points = Eigen::Matrix3Xd;

constexpr double kPi = 3.14159265358979323846;
// Pairs of atoms of b tried as images of the two reference atoms of a: the
// best-matching ones by radius and separation. A copy of a symmetric cluster
// has many equally good pairs (24 for the octahedral LJ38), almost all of which
// are true images, so a few dozen suffice.
constexpr std::size_t kMaxFramePairs = 32;
// Radii within this fraction of the RMS radius count as one shell when picking
// reference atoms.
constexpr double kShellTolerance = 1e-3;
// Reference atoms should be far from the centroid and far from collinear with
// each other (through the centroid) so that the frame they define is well
// conditioned.
constexpr double kMinFirstRadius = 0.5;    // of the largest radius
constexpr double kMinSecondRadius = 0.25;  // of the largest radius
constexpr double kMinSine = 0.5;
// Starts whose rotations differ by less than this (Frobenius norm, ~ sqrt(2) x
// angle in radians) lead to the same fit; only the better ranked one is
// refined.
double kDistinctRotation = std::getenv("KD") ? std::atof(std::getenv("KD")) : 0.1;

struct Fit {
  double squared = std::numeric_limits<double>::infinity();  // sum of squared deviations
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  std::vector<int> permutation;
  bool inverted = false;
};

struct Candidate {
  double score;  // nearest-neighbour lower bound on the squared distance in this
                 // orientation
  Eigen::Matrix3d rotation;
  bool inverted;
  bool refined;
};

// The proper rotation R minimising sum_i |a_i - R b_perm[i]|^2 for centred
// points (Kabsch 1976): with M = sum_i b_perm[i] a_i^T = U S V^T, R = V diag(1,
// 1, d) U^T and d = det(V U^T) flipping the weakest axis when the best
// orthogonal matrix would be a reflection. Reflections are the inversion
// option's business, not Kabsch's.
Eigen::Matrix3d kabschRotation(const Points &a, const Points &b, const std::vector<int> &perm) {
  Eigen::Matrix3d m = Eigen::Matrix3d::Zero();
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    m.noalias() += b.col(perm[static_cast<std::size_t>(i)]) * a.col(i).transpose();
  }
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
  if ((svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0) d(2, 2) = -1.0;
  return svd.matrixV() * d * svd.matrixU().transpose();
}

double squaredDeviation(const Points &a, const Points &b, const Eigen::Matrix3d &rotation,
                        const std::vector<int> &perm) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    sum += (a.col(i) - rotation * b.col(perm[static_cast<std::size_t>(i)])).squaredNorm();
  }
  return sum;
}

// 53 random bits of the 64-bit Mersenne twister, whose output sequence the
// standard fixes (the standard distributions' algorithms are
// implementation-defined, so they would break determinism across compilers).
double uniform01(std::mt19937_64 &rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

// Uniformly distributed rotation from a uniform unit quaternion (Shoemake,
// Graphics Gems III, 1992).
Eigen::Matrix3d randomRotation(std::mt19937_64 &rng) {
  const double u1 = uniform01(rng);
  const double u2 = uniform01(rng);
  const double u3 = uniform01(rng);
  const double s1 = std::sqrt(1.0 - u1);
  const double s2 = std::sqrt(u1);
  const Eigen::Quaterniond q(s2 * std::cos(2.0 * kPi * u3), s1 * std::sin(2.0 * kPi * u2),
                             s1 * std::cos(2.0 * kPi * u2), s2 * std::sin(2.0 * kPi * u3));
  return q.toRotationMatrix();
}

// Right-handed orthonormal frame (columns) with e1 along x1 and e2 in the (x1,
// x2) plane; false when x1 and x2 are (nearly) parallel and the frame is
// undefined.
bool buildFrame(const Eigen::Vector3d &x1, const Eigen::Vector3d &x2, Eigen::Matrix3d &frame) {
  const double n1 = x1.norm();
  if (n1 == 0.0) return false;
  const Eigen::Vector3d e1 = x1 / n1;
  const Eigen::Vector3d t = x2 - x2.dot(e1) * e1;
  const double nt = t.norm();
  if (!(nt > 1e-8 * x2.norm())) return false;
  frame.col(0) = e1;
  frame.col(1) = t / nt;
  frame.col(2) = e1.cross(frame.col(1));
  return true;
}

// Eigenvectors of the gyration tensor of centred points, as the columns of a
// proper rotation.
Eigen::Matrix3d principalAxes(const Points &x) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(x * x.transpose());
  Eigen::Matrix3d axes = solver.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) *= -1.0;
  return axes;
}

// Alternating permutation/rotation search for centred a and b (b is the one
// moved). A start is an orientation of b (and its chirality); candidates are
// ranked by the cheap bound sum_i min_j |a_i - R b_j|^2 and the best few
// refined by the O(N^3) alternation.
class AlignmentSearch {
 public:
  AlignmentSearch(const Points &a, const Points &b, const AlignmentParams &params)
      : m_a(a), m_params(params), m_rng(params.seed) {
    m_b[0] = b;
    m_b[1] = -b;
    const Eigen::Index n = a.cols();
    m_ax = a.row(0).transpose();
    m_ay = a.row(1).transpose();
    m_az = a.row(2).transpose();
    m_rotated.resize(3, n);
    m_nearest.resize(n);
    m_cost.resize(n, n);
    m_identity.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < m_identity.size(); ++i) m_identity[i] = static_cast<int>(i);
  }

  Fit run() {
    const int chiralities = m_params.inversion ? 2 : 1;
    Eigen::Matrix3d inOrder[2];
    for (int c = 0; c < chiralities; ++c) {
      Fit fit;
      fit.inverted = c == 1;
      fit.permutation = m_identity;
      fit.rotation = kabschRotation(m_a, m_b[c], m_identity);
      fit.squared = squaredDeviation(m_a, m_b[c], fit.rotation, m_identity);
      inOrder[c] = fit.rotation;
      consider(fit);
    }
    if (!m_params.permutations || exact()) return m_best;

    const std::vector<Eigen::Matrix3d> frames = frameRotations();
    const Eigen::Matrix3d axesA = principalAxes(m_a);
    const Eigen::Matrix3d axesB[2] = {principalAxes(m_b[0]), principalAxes(m_b[1])};
    // The four proper sign choices of the principal axes.
    const Eigen::Vector3d signs[4] = {
        Eigen::Vector3d(1.0, 1.0, 1.0), Eigen::Vector3d(1.0, -1.0, -1.0),
        Eigen::Vector3d(-1.0, 1.0, -1.0), Eigen::Vector3d(-1.0, -1.0, 1.0)};
    for (std::size_t k = 0; k < frames.size() && !exact(); ++k) {
      if (k % 2 == 0 || m_params.inversion) addCandidate(frames[k], k % 2 == 1);
    }
    for (int c = 0; c < chiralities && !exact(); ++c) {
      const bool inverted = c == 1;
      addCandidate(Eigen::Matrix3d::Identity(), inverted);
      addCandidate(inOrder[c], inverted);
      for (const Eigen::Vector3d &s : signs) {
        addCandidate(axesA * s.asDiagonal() * axesB[c].transpose(), inverted);
      }
      for (int k = 0; k < m_params.randomOrientations; ++k) {
        addCandidate(randomRotation(m_rng), inverted);
      }
    }
    if (exact()) return m_best;

    std::stable_sort(m_candidates.begin(), m_candidates.end(),
                     [](const Candidate &x, const Candidate &y) { return x.score < y.score; });
    std::vector<const Candidate *> started;
    for (const Candidate &c : m_candidates) {
      if (c.refined) started.push_back(&c);
    }
    int trials = 0;
    for (const Candidate &c : m_candidates) {
      if (trials >= m_params.orientationTrials || exact()) break;
      if (c.refined) continue;
      const bool duplicate = std::any_of(started.begin(), started.end(), [&](const Candidate *s) {
        return s->inverted == c.inverted && (s->rotation - c.rotation).norm() < kDistinctRotation;
      });
      if (duplicate) continue;
      consider(refine(c.rotation, c.inverted));
      started.push_back(&c);
      ++trials;
    }
    return m_best;
  }

 private:
  bool exact() const { return m_best.squared < m_params.convergence * m_params.convergence; }

  void consider(const Fit &fit) {
    if (fit.squared < m_best.squared) m_best = fit;
  }

  // Scores a start; one whose bound is already ~0 is refined at once, so that
  // recognising a copy costs a handful of O(N^2) bounds rather than the whole
  // candidate list.
  void addCandidate(const Eigen::Matrix3d &rotation, bool inverted) {
    if (exact()) return;
    const double score = nearestNeighbourBound(rotation, inverted);
    const bool now = score <= m_params.convergence * m_params.convergence;
    m_candidates.push_back({score, rotation, inverted, now});
    if (now) consider(refine(rotation, inverted));
  }

  // sum_i min_j |a_i - R b_j|^2: a lower bound on the squared distance in this
  // orientation, and the squared distance itself when the nearest neighbours
  // form a permutation.
  double nearestNeighbourBound(const Eigen::Matrix3d &rotation, bool inverted) {
    m_rotated.noalias() = rotation * m_b[inverted ? 1 : 0];
    const Eigen::Index n = m_a.cols();
    m_nearest.setConstant(std::numeric_limits<double>::infinity());
    double *nearest = m_nearest.data();
    for (Eigen::Index j = 0; j < n; ++j) {
      const double bx = m_rotated(0, j), by = m_rotated(1, j), bz = m_rotated(2, j);
      for (Eigen::Index i = 0; i < n; ++i) {
        const double dx = m_ax[i] - bx, dy = m_ay[i] - by, dz = m_az[i] - bz;
        nearest[i] = std::min(nearest[i], dx * dx + dy * dy + dz * dz);
      }
    }
    return m_nearest.sum();
  }

  void fillCost(const Eigen::Matrix3d &rotation, bool inverted) {
    m_rotated.noalias() = rotation * m_b[inverted ? 1 : 0];
    const Eigen::Index n = m_a.cols();
    for (Eigen::Index j = 0; j < n; ++j) {
      const double bx = m_rotated(0, j), by = m_rotated(1, j), bz = m_rotated(2, j);
      double *column = m_cost.col(j).data();
      for (Eigen::Index i = 0; i < n; ++i) {
        const double dx = m_ax[i] - bx, dy = m_ay[i] - by, dz = m_az[i] - bz;
        column[i] = dx * dx + dy * dy + dz * dz;
      }
    }
  }

  // Alternates the optimal permutation for the current rotation with the
  // optimal rotation for that permutation. Neither step can increase the
  // distance, so the sequence descends to a fixed point (the permutation
  // repeats) or stalls below the convergence threshold.
  Fit refine(const Eigen::Matrix3d &start, bool inverted) {
    const Points &b = m_b[inverted ? 1 : 0];
    Fit fit;
    fit.inverted = inverted;
    Eigen::Matrix3d rotation = start;
    std::vector<int> previous;
    Eigen::VectorXd potentials;  // warm start: successive cost matrices differ little
    for (int iteration = 0; iteration < m_params.maxIterations; ++iteration) {
      fillCost(rotation, inverted);
      std::vector<int> perm = solveAssignment(m_cost, potentials);
      if (perm == previous) break;
      const Eigen::Matrix3d next = kabschRotation(m_a, b, perm);
      const double squared = squaredDeviation(m_a, b, next, perm);
      if (!(squared < fit.squared)) break;
      const double gain = std::sqrt(fit.squared) - std::sqrt(squared);
      fit.squared = squared;
      fit.rotation = next;
      fit.permutation = perm;
      if (gain < m_params.convergence || std::sqrt(squared) < m_params.convergence) break;
      rotation = next;
      previous = std::move(perm);
    }
    return fit;
  }

  // Starts that put a well-chosen pair of atoms of a onto each plausible image
  // pair in b. For a moved, permuted copy one of them is exact, which random or
  // principal-axes starts cannot promise (LJ38's inertia tensor is isotropic,
  // so its principal axes are arbitrary). Returns rotations for b and -b
  // interleaved.
  std::vector<Eigen::Matrix3d> frameRotations() const {
    std::vector<Eigen::Matrix3d> rotations;
    const Eigen::Index n = m_a.cols();
    if (n < 3) return rotations;
    const Eigen::VectorXd radiusA = m_a.colwise().norm().transpose();
    const Eigen::VectorXd radiusB = m_b[0].colwise().norm().transpose();
    const double rms = std::sqrt(radiusA.squaredNorm() / static_cast<double>(n));
    const double largest = radiusA.maxCoeff();
    if (!(rms > 0.0)) return rotations;
    const double shell = kShellTolerance * rms;

    // Prefer reference atoms in sparsely populated shells of b: fewer image
    // pairs to try.
    std::vector<double> sortedB(radiusB.data(), radiusB.data() + n);
    std::sort(sortedB.begin(), sortedB.end());
    const auto shellCount = [&](double r) {
      return std::upper_bound(sortedB.begin(), sortedB.end(), r + shell) -
             std::lower_bound(sortedB.begin(), sortedB.end(), r - shell);
    };
    Eigen::Index first = -1;
    std::tuple<std::ptrdiff_t, double> bestFirst{0, 0.0};
    for (Eigen::Index i = 0; i < n; ++i) {
      if (radiusA[i] < kMinFirstRadius * largest) continue;
      const std::tuple<std::ptrdiff_t, double> key{shellCount(radiusA[i]), -radiusA[i]};
      if (first < 0 || key < bestFirst) {
        first = i;
        bestFirst = key;
      }
    }
    const Eigen::Vector3d a1 = m_a.col(first);
    Eigen::Index second = -1;
    std::tuple<std::ptrdiff_t, double> bestSecond{0, 0.0};
    Eigen::Index fallback = -1;
    double fallbackLever = 0.0;
    for (Eigen::Index k = 0; k < n; ++k) {
      if (k == first || radiusA[k] == 0.0) continue;
      const double lever = a1.cross(m_a.col(k)).norm() / radiusA[first];  // r_k sin(angle)
      const double sine = lever / radiusA[k];
      if (lever > fallbackLever) {
        fallback = k;
        fallbackLever = lever;
      }
      if (radiusA[k] < kMinSecondRadius * largest || sine < kMinSine) continue;
      const std::tuple<std::ptrdiff_t, double> key{shellCount(radiusA[k]), -lever};
      if (second < 0 || key < bestSecond) {
        second = k;
        bestSecond = key;
      }
    }
    if (second < 0) second = fallback;
    Eigen::Matrix3d frameA;
    if (second < 0 || !buildFrame(a1, m_a.col(second), frameA)) return rotations;

    // Image pairs (j1, j2) of b ranked by how well their radii and separation
    // match.
    const double r1 = radiusA[first];
    const double r2 = radiusA[second];
    const double d12 = (m_a.col(first) - m_a.col(second)).norm();
    std::vector<std::tuple<double, Eigen::Index, Eigen::Index>> pairs;
    pairs.reserve(static_cast<std::size_t>(n * (n - 1)));
    for (Eigen::Index j1 = 0; j1 < n; ++j1) {
      const double e1 = std::abs(radiusB[j1] - r1);
      for (Eigen::Index j2 = 0; j2 < n; ++j2) {
        if (j2 == j1) continue;
        const double e2 = std::abs(radiusB[j2] - r2);
        const double e3 = std::abs((m_b[0].col(j1) - m_b[0].col(j2)).norm() - d12);
        pairs.emplace_back(e1 + e2 + e3, j1, j2);
      }
    }
    const std::size_t keep = std::min(kMaxFramePairs, pairs.size());
    std::partial_sort(pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(keep),
                      pairs.end());
    for (std::size_t p = 0; p < keep; ++p) {
      const Eigen::Index j1 = std::get<1>(pairs[p]);
      const Eigen::Index j2 = std::get<2>(pairs[p]);
      Eigen::Matrix3d frameB, frameMinusB;
      if (!buildFrame(m_b[0].col(j1), m_b[0].col(j2), frameB) ||
          !buildFrame(m_b[1].col(j1), m_b[1].col(j2), frameMinusB)) {
        continue;
      }
      rotations.push_back(frameA * frameB.transpose());
      rotations.push_back(frameA * frameMinusB.transpose());
    }
    return rotations;
  }

  const Points &m_a;
  Points m_b[2];  // b and its inversion -b
  const AlignmentParams &m_params;
  std::mt19937_64 m_rng;
  Eigen::VectorXd m_ax, m_ay, m_az;  // a split by component for the O(N^2) loops
  Points m_rotated;
  Eigen::VectorXd m_nearest;
  Eigen::MatrixXd m_cost;
  std::vector<int> m_identity;
  std::vector<Candidate> m_candidates;
  Fit m_best;
};

Points centred(const std::vector<double> &x, Eigen::Vector3d &centroid) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.size() / 3);
  Points p = Eigen::Map<const Points>(x.data(), 3, n);
  centroid = p.rowwise().mean();
  p.colwise() -= centroid;
  return p;
}

}  // namespace

void AlignmentParams::check() const {
  require(orientationTrials >= 1,
          "alignment orientationTrials must be >= 1, got " + std::to_string(orientationTrials));
  require(randomOrientations >= 0,
          "alignment randomOrientations must be >= 0, got " + std::to_string(randomOrientations));
  require(maxIterations >= 1,
          "alignment maxIterations must be >= 1, got " + std::to_string(maxIterations));
  require(std::isfinite(convergence) && convergence >= 0.0,
          "alignment convergence must be finite and >= 0 (length)");
}

AlignmentResult alignStructures(const std::vector<double> &a, const std::vector<double> &b,
                                const AlignmentParams &params) {
  params.check();
  require(a.size() == b.size(),
          "alignStructures: both structures must have the same number of "
          "coordinates, got " +
              std::to_string(a.size()) + " and " + std::to_string(b.size()));
  require(a.size() % 3 == 0,
          "alignStructures: the number of coordinates must be a multiple of "
          "3 (x y z per atom), got " +
              std::to_string(a.size()));
  require(!a.empty(), "alignStructures: the structures must contain at least one atom");
  const auto finite = [](double v) { return std::isfinite(v); };
  require(std::all_of(a.begin(), a.end(), finite) && std::all_of(b.begin(), b.end(), finite),
          "alignStructures: every coordinate must be finite");

  // The search is heuristic, so aligning b onto a and a onto b could end in
  // different local minima. Running it in one canonical direction and inverting
  // the transformation when needed makes the distance symmetric by
  // construction, as AVOID lists and connection runs assume.
  const bool swapped = std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end());
  Eigen::Vector3d centroidA, centroidB;
  const Points pa = centred(a, centroidA);
  const Points pb = centred(b, centroidB);
  const Fit fit =
      swapped ? AlignmentSearch(pb, pa, params).run() : AlignmentSearch(pa, pb, params).run();

  AlignmentResult result;
  result.inverted = fit.inverted;
  const std::size_t n = a.size() / 3;
  if (!swapped) {
    result.rotation = fit.rotation;
    result.permutation = fit.permutation;
  } else {
    // The search moved a onto b: s R a_{p[i]} ~ b_i (centred). Hence b_i maps
    // back onto a_{p[i]} under s R^T.
    result.rotation = fit.rotation.transpose();
    result.permutation.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      result.permutation[static_cast<std::size_t>(fit.permutation[i])] = static_cast<int>(i);
    }
  }
  const double sign = result.inverted ? -1.0 : 1.0;
  result.alignedB.resize(a.size());
  double squared = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector3d moved =
        sign * (result.rotation * pb.col(result.permutation[i])) + centroidA;
    for (int k = 0; k < 3; ++k) {
      result.alignedB[3 * i + k] = moved[k];
      const double d = a[3 * i + k] - moved[k];
      squared += d * d;
    }
  }
  result.distance = std::sqrt(squared);
  return result;
}

double minimumDistance(const std::vector<double> &a, const std::vector<double> &b,
                       const AlignmentParams &params) {
  return alignStructures(a, b, params).distance;
}

}  // namespace landscape
