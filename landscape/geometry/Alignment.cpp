#include "landscape/geometry/Alignment.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "landscape/core/Require.h"
#include "landscape/core/VectorDispatch.h"
#include "landscape/geometry/AlignmentStarts.h"
#include "landscape/geometry/Hungarian.h"
#include "landscape/geometry/PeriodicAlignment.h"

namespace landscape {

namespace {

using Points = Eigen::Matrix3Xd;

constexpr double kPi = 3.14159265358979323846;
// Frame starts (see addFrameCandidates): reference pairs of atoms of a, each with its best-matching
// image pairs in b. Several disjoint reference pairs keep the method working when a few atoms have
// moved (a rearranged minimum), since one displaced reference atom spoils only its own pair.
constexpr int kReferencePairs = 3;
constexpr std::size_t kImagePairs = 12;
// Image pairs that match to within kExactMatch x RMS radius are all kept (up to kMaxExactImages):
// a copy of a symmetric cluster has many (24 for the octahedral LJ38), and any one may be the
// true image.
constexpr double kExactMatch = 1e-6;
constexpr std::size_t kMaxExactImages = 64;
// Radii within this fraction of the RMS radius count as one shell when picking reference atoms.
constexpr double kShellTolerance = 1e-3;
// Reference atoms should be far from the centroid and far from collinear with each other (through
// the centroid) so that the frame they define is well conditioned.
constexpr double kMinFirstRadius = 0.5;    // of the largest radius
constexpr double kMinSecondRadius = 0.25;  // of the largest radius
constexpr double kMinSine = 0.5;

// The O(N^2) loops of the search, compiled for AVX2 and for baseline x86-64
// (core/VectorDispatch.h): elementwise arithmetic and min only, so both give the same bits.

// nearest[i] = min_j |a_i - b_j|^2 for a split by component and b as 3 x n columns.
LANDSCAPE_VECTOR_LOOP void nearestSquaredLoop(const double* ax, const double* ay, const double* az,
                                              const double* b, Eigen::Index n, double* nearest) {
  for (Eigen::Index i = 0; i < n; ++i) nearest[i] = std::numeric_limits<double>::infinity();
  for (Eigen::Index j = 0; j < n; ++j) {
    const double bx = b[3 * j], by = b[3 * j + 1], bz = b[3 * j + 2];
    for (Eigen::Index i = 0; i < n; ++i) {
      const double dx = ax[i] - bx, dy = ay[i] - by, dz = az[i] - bz;
      nearest[i] = std::min(nearest[i], dx * dx + dy * dy + dz * dz);
    }
  }
}
LANDSCAPE_TARGET_AVX2 void nearestSquaredAvx2(const double* ax, const double* ay, const double* az,
                                              const double* b, Eigen::Index n, double* nearest) {
  nearestSquaredLoop(ax, ay, az, b, n, nearest);
}
void nearestSquared(const double* ax, const double* ay, const double* az, const double* b,
                    Eigen::Index n, double* nearest) {
  if (cpuHasAvx2())
    nearestSquaredAvx2(ax, ay, az, b, n, nearest);
  else
    nearestSquaredLoop(ax, ay, az, b, n, nearest);
}

// cost(i, j) = |a_i - b_j|^2, row-major, for a and b split by component.
LANDSCAPE_VECTOR_LOOP void squaredDistancesLoop(const double* ax, const double* ay,
                                                const double* az, const double* bx,
                                                const double* by, const double* bz, Eigen::Index n,
                                                double* cost) {
  for (Eigen::Index i = 0; i < n; ++i) {
    double* row = cost + i * n;
    for (Eigen::Index j = 0; j < n; ++j) {
      const double dx = ax[i] - bx[j], dy = ay[i] - by[j], dz = az[i] - bz[j];
      row[j] = dx * dx + dy * dy + dz * dz;
    }
  }
}
LANDSCAPE_TARGET_AVX2 void squaredDistancesAvx2(const double* ax, const double* ay,
                                                const double* az, const double* bx,
                                                const double* by, const double* bz, Eigen::Index n,
                                                double* cost) {
  squaredDistancesLoop(ax, ay, az, bx, by, bz, n, cost);
}
void squaredDistances(const double* ax, const double* ay, const double* az, const double* bx,
                      const double* by, const double* bz, Eigen::Index n, double* cost) {
  if (cpuHasAvx2())
    squaredDistancesAvx2(ax, ay, az, bx, by, bz, n, cost);
  else
    squaredDistancesLoop(ax, ay, az, bx, by, bz, n, cost);
}

using Fit = AlignmentFit;

struct Candidate {
  double score;  // nearest-neighbour lower bound on the squared distance in this orientation
  Eigen::Matrix3d rotation;
  bool inverted;
  bool refined;
};

// The proper rotation R minimising sum_i |a_i - R b_perm[i]|^2 for centred points (Kabsch 1976):
// with M = sum_i b_perm[i] a_i^T = U S V^T, R = V diag(1, 1, d) U^T and d = det(V U^T) flipping
// the weakest axis when the best orthogonal matrix would be a reflection. Reflections are the
// inversion option's business, not Kabsch's.
Eigen::Matrix3d kabschRotation(const Points& a, const Points& b, const std::vector<int>& perm) {
  Eigen::Matrix3d m = Eigen::Matrix3d::Zero();
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    m.noalias() += b.col(perm[static_cast<std::size_t>(i)]) * a.col(i).transpose();
  }
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
  if ((svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0) d(2, 2) = -1.0;
  return svd.matrixV() * d * svd.matrixU().transpose();
}

// The same over a subset of the atoms of a, each matched to the same atom of b.
Eigen::Matrix3d kabschRotationOfSubset(const Points& a, const Points& b,
                                       const std::vector<int>& atoms) {
  Eigen::Matrix3d m = Eigen::Matrix3d::Zero();
  for (int i : atoms) m.noalias() += b.col(i) * a.col(i).transpose();
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
  if ((svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0) d(2, 2) = -1.0;
  return svd.matrixV() * d * svd.matrixU().transpose();
}

double squaredDeviation(const Points& a, const Points& b, const Eigen::Matrix3d& rotation,
                        const std::vector<int>& perm) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    sum += (a.col(i) - rotation * b.col(perm[static_cast<std::size_t>(i)])).squaredNorm();
  }
  return sum;
}

// 53 random bits of the 64-bit Mersenne twister, whose output sequence the standard fixes (the
// standard distributions' algorithms are implementation-defined and would break determinism
// across compilers).
double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

// Uniformly distributed rotation from a uniform unit quaternion (Shoemake, Graphics Gems III).
Eigen::Matrix3d randomRotation(std::mt19937_64& rng) {
  const double u1 = uniform01(rng);
  const double u2 = uniform01(rng);
  const double u3 = uniform01(rng);
  const double s1 = std::sqrt(1.0 - u1);
  const double s2 = std::sqrt(u1);
  const Eigen::Quaterniond q(s2 * std::cos(2.0 * kPi * u3), s1 * std::sin(2.0 * kPi * u2),
                             s1 * std::cos(2.0 * kPi * u2), s2 * std::sin(2.0 * kPi * u3));
  return q.toRotationMatrix();
}

// Right-handed orthonormal frame (columns) with e1 along x1 and e2 in the (x1, x2) plane; false
// when x1 and x2 are (nearly) parallel and the frame is undefined.
bool buildFrame(const Eigen::Vector3d& x1, const Eigen::Vector3d& x2, Eigen::Matrix3d& frame) {
  const double n1 = x1.norm();
  if (!(n1 > 0.0)) return false;
  const Eigen::Vector3d e1 = x1 / n1;
  const Eigen::Vector3d t = x2 - x2.dot(e1) * e1;
  const double nt = t.norm();
  if (!(nt > 1e-8 * x2.norm())) return false;
  frame.col(0) = e1;
  frame.col(1) = t / nt;
  frame.col(2) = e1.cross(frame.col(1));
  return true;
}

// Eigenvectors of the gyration tensor of centred points, as the columns of a proper rotation.
Eigen::Matrix3d principalAxes(const Points& x) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(x * x.transpose());
  Eigen::Matrix3d axes = solver.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) *= -1.0;
  return axes;
}

// Frame starts put a reference pair of atoms of a onto each plausible image pair in b (same
// distances from the centroid, same separation), in the spirit of OPTIM's MINPERMDIST orbits:
// R = frame(a1, a2) frame(b1, b2)^T. For a moved, permuted copy one of them is exact, which
// random or principal-axes starts cannot promise (LJ38's gyration tensor is isotropic, so its
// principal axes are arbitrary). Several disjoint reference pairs keep this working when a few
// atoms have moved (a rearranged minimum): a displaced reference atom spoils only its own pair.
// The candidate starts of the search, in the order it scores them: the frame starts, then per
// chirality the identity, the fit in the given order, the principal-axes alignments and the random
// rotations. emit(rotation, inverted, inOrderOf, random) receives each (inOrderOf: the chirality
// whose fit in the given order this start is, else -1; random: see numberRandomsAfter); stop() is
// asked where the search may end early (a copy found: its later starts are never needed).
class StartGenerator {
 public:
  /// numberRandomsAfter >= 0: when the random rotations start after exactly that many draws of
  /// params.seed's generator, they are emitted by their number in randomAlignmentRotations()
  /// (rotation left as the identity) instead of drawn; they do not depend on the pair then.
  StartGenerator(const Points& a, const Points (&b)[2], const AlignmentParams& params,
                 int numberRandomsAfter = -1)
      : m_a(a),
        m_b(b),
        m_params(params),
        m_rng(params.seed),
        m_numberRandomsAfter(numberRandomsAfter) {}

  template <class Emit, class Stop>
  void frames(Emit emit, Stop stop) {
    const Eigen::Index n = m_a.cols();
    if (n < 3) return;
    m_radiusA = m_a.colwise().norm().transpose();
    m_radiusB = m_b[0].colwise().norm().transpose();
    m_byRadiusB.resize(static_cast<std::size_t>(n));
    for (Eigen::Index j = 0; j < n; ++j) m_byRadiusB[static_cast<std::size_t>(j)] = j;
    std::sort(m_byRadiusB.begin(), m_byRadiusB.end(), [&](Eigen::Index x, Eigen::Index y) {
      return m_radiusB[x] < m_radiusB[y] || (m_radiusB[x] == m_radiusB[y] && x < y);
    });
    m_rms = std::sqrt(m_radiusA.squaredNorm() / static_cast<double>(n));
    if (!(m_rms > 0.0)) return;
    for (const auto& [first, second] : referencePairs()) {
      Eigen::Matrix3d frameA;
      if (!buildFrame(m_a.col(first), m_a.col(second), frameA)) continue;
      for (const auto& [j1, j2] : imagePairs(first, second)) {
        Eigen::Matrix3d frameB;
        for (int c = 0; c < (m_params.inversion ? 2 : 1); ++c) {
          if (buildFrame(m_b[c].col(j1), m_b[c].col(j2), frameB)) {
            emit(frameA * frameB.transpose(), c == 1, -1, -1);
          }
        }
        if (stop()) return;
      }
    }
  }

  /// inOrder: the fits in the given order of each chirality, or null (the identity stands in).
  template <class Emit, class Stop>
  void others(const Eigen::Matrix3d* inOrder, Emit emit, Stop stop) {
    const Eigen::Matrix3d axesA = principalAxes(m_a);
    const Eigen::Matrix3d axesB[2] = {principalAxes(m_b[0]), principalAxes(m_b[1])};
    const Eigen::Vector3d signs[4] = {
        Eigen::Vector3d(1.0, 1.0, 1.0), Eigen::Vector3d(1.0, -1.0, -1.0),
        Eigen::Vector3d(-1.0, 1.0, -1.0), Eigen::Vector3d(-1.0, -1.0, 1.0)};  // proper sign choices
    const int chiralities = m_params.inversion ? 2 : 1;
    const bool numbered = m_numberRandomsAfter >= 0 && m_draws == m_numberRandomsAfter;
    for (int c = 0; c < chiralities && !stop(); ++c) {
      const bool inverted = c == 1;
      emit(Eigen::Matrix3d::Identity(), inverted, -1, -1);
      emit(inOrder ? inOrder[c] : Eigen::Matrix3d::Identity(), inverted, c, -1);
      for (const Eigen::Vector3d& s : signs) {
        emit(axesA * s.asDiagonal() * axesB[c].transpose(), inverted, -1, -1);
      }
      for (int k = 0; k < m_params.randomOrientations; ++k) {
        if (numbered)
          emit(Eigen::Matrix3d::Identity(), inverted, -1, c * m_params.randomOrientations + k);
        else
          emit(randomRotation(m_rng), inverted, -1, -1);
      }
    }
  }

 private:
  // Up to kReferencePairs disjoint pairs of atoms of a, preferring atoms in sparsely populated
  // shells of b (few image pairs to try). The first pair takes the outermost such atom and, as
  // its partner, the one with the longest lever arm about the axis through it: the best
  // conditioned frame. Atoms that moved in a rearrangement tend to be exactly those (outermost,
  // alone in their shell), so later pairs pick at random among the eligible atoms instead.
  std::vector<std::pair<Eigen::Index, Eigen::Index>> referencePairs() {
    const Eigen::Index n = m_a.cols();
    const std::size_t count = static_cast<std::size_t>(n);
    const double largest = m_radiusA.maxCoeff();
    std::vector<double> sortedB(m_radiusB.data(), m_radiusB.data() + n);
    std::sort(sortedB.begin(), sortedB.end());
    const double shell = kShellTolerance * m_rms;
    std::vector<std::ptrdiff_t> shellCount(count);
    std::vector<double> lottery(count);
    for (std::size_t i = 0; i < count; ++i) {
      const double r = m_radiusA[static_cast<Eigen::Index>(i)];
      shellCount[i] = std::upper_bound(sortedB.begin(), sortedB.end(), r + shell) -
                      std::lower_bound(sortedB.begin(), sortedB.end(), r - shell);
      lottery[i] = uniform01(m_rng);
    }
    m_draws += static_cast<int>(count);

    std::vector<std::pair<Eigen::Index, Eigen::Index>> pairs;
    std::vector<char> taken(count, 0);
    while (static_cast<int>(pairs.size()) < kReferencePairs) {
      const bool best = pairs.empty();
      // Smaller key wins: (shell population, -radius or lottery ticket).
      using Key = std::tuple<std::ptrdiff_t, double>;
      Eigen::Index first = -1;
      Key firstKey{0, 0.0};
      for (std::size_t i = 0; i < count; ++i) {
        const double r = m_radiusA[static_cast<Eigen::Index>(i)];
        if (taken[i] || r < kMinFirstRadius * largest) continue;
        const Key key{shellCount[i], best ? -r : lottery[i]};
        if (first < 0 || key < firstKey) {
          first = static_cast<Eigen::Index>(i);
          firstKey = key;
        }
      }
      if (first < 0) break;
      taken[static_cast<std::size_t>(first)] = 1;
      // Partner off the axis through a1 (sin(angle) >= kMinSine) and not too close to the
      // centroid; failing that, the atom with the longest lever arm about that axis.
      const Eigen::Vector3d a1 = m_a.col(first);
      Eigen::Index second = -1, fallback = -1;
      Key secondKey{0, 0.0};
      double fallbackLever = 0.0;
      for (std::size_t k = 0; k < count; ++k) {
        const double r = m_radiusA[static_cast<Eigen::Index>(k)];
        if (taken[k] || !(r > 0.0)) continue;
        const double lever = a1.cross(m_a.col(static_cast<Eigen::Index>(k))).norm() /
                             m_radiusA[first];  // r_k sin(angle)
        if (lever > fallbackLever) {
          fallback = static_cast<Eigen::Index>(k);
          fallbackLever = lever;
        }
        if (r < kMinSecondRadius * largest || lever < kMinSine * r) continue;
        const Key key{shellCount[k], best ? -lever : lottery[k]};
        if (second < 0 || key < secondKey) {
          second = static_cast<Eigen::Index>(k);
          secondKey = key;
        }
      }
      if (second < 0) second = fallback;
      if (second < 0) continue;  // every atom left is on the axis: try another first atom
      taken[static_cast<std::size_t>(second)] = 1;
      pairs.emplace_back(first, second);
    }
    return pairs;
  }

  // Image pairs (j1, j2) in b of the reference pair (first, second), ranked by the mismatch
  // |r_j1 - r_first| + |r_j2 - r_second| + ||b_j1 - b_j2| - |a_first - a_second||: all that
  // match to rounding (up to kMaxExactImages), else the kImagePairs best.
  std::vector<std::pair<Eigen::Index, Eigen::Index>> imagePairs(Eigen::Index first,
                                                                Eigen::Index second) const {
    const double r1 = m_radiusA[first];
    const double r2 = m_radiusA[second];
    const std::vector<Eigen::Index> order1 = byRadiusMismatch(r1), order2 = byRadiusMismatch(r2);
    // The kImagePairs best first: unless even the last of them matches to rounding (a copy of a
    // symmetric cluster), they are the answer, and their tighter bound ends the search early.
    std::vector<ImageMatch> best = bestImagePairs(first, second, order1, order2, kImagePairs);
    const double exact = kExactMatch * m_rms;
    if (best.size() == kImagePairs && std::get<0>(best.back()) <= exact) {
      best = bestImagePairs(first, second, order1, order2, kMaxExactImages);
      std::size_t exactImages = 0;
      while (exactImages < best.size() && std::get<0>(best[exactImages]) <= exact) ++exactImages;
      best.resize(std::min(best.size(), std::max(exactImages, kImagePairs)));
    }
    std::vector<std::pair<Eigen::Index, Eigen::Index>> images;
    for (const ImageMatch& match : best)
      images.emplace_back(std::get<1>(match), std::get<2>(match));
    return images;
  }

  // The atoms of b in ascending |r_j - r|, merged outwards from r through the atoms sorted by
  // radius. Atoms tied in mismatch may come in any order: bestImagePairs' answer does not depend
  // on it.
  std::vector<Eigen::Index> byRadiusMismatch(double r) const {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(m_byRadiusB.size());
    std::ptrdiff_t right =
        std::lower_bound(m_byRadiusB.begin(), m_byRadiusB.end(), r,
                         [&](Eigen::Index j, double value) { return m_radiusB[j] < value; }) -
        m_byRadiusB.begin();
    std::ptrdiff_t left = right - 1;
    std::vector<Eigen::Index> order;
    order.reserve(m_byRadiusB.size());
    const auto mismatch = [&](std::ptrdiff_t k) {
      return std::abs(m_radiusB[m_byRadiusB[static_cast<std::size_t>(k)]] - r);
    };
    while (left >= 0 || right < n) {
      if (right >= n || (left >= 0 && mismatch(left) <= mismatch(right)))
        order.push_back(m_byRadiusB[static_cast<std::size_t>(left--)]);
      else
        order.push_back(m_byRadiusB[static_cast<std::size_t>(right++)]);
    }
    return order;
  }

  // (mismatch, j1, j2) of an image pair; the tuple's order ranks them, ties by index.
  using ImageMatch = std::tuple<double, Eigen::Index, Eigen::Index>;

  // The `count` least image pairs in the tuple order, ascending. Atoms of b are visited in order
  // of their radius mismatch (order1 for j1, order2 for j2), so a loop stops as soon as no pair
  // it has left can rank among those kept.
  std::vector<ImageMatch> bestImagePairs(Eigen::Index first, Eigen::Index second,
                                         const std::vector<Eigen::Index>& order1,
                                         const std::vector<Eigen::Index>& order2,
                                         std::size_t count) const {
    const double r1 = m_radiusA[first];
    const double r2 = m_radiusA[second];
    const double d12 = (m_a.col(first) - m_a.col(second)).norm();
    std::vector<ImageMatch> best;  // max-heap, at most count entries
    // A pair whose mismatch is above the worst kept cannot enter; one equal to it may (by index).
    const auto beyond = [&](double mismatch) {
      return best.size() == count && mismatch > std::get<0>(best.front());
    };
    for (const Eigen::Index j1 : order1) {
      const double e1 = std::abs(m_radiusB[j1] - r1);
      if (beyond(e1)) break;
      for (const Eigen::Index j2 : order2) {
        const double e12 = e1 + std::abs(m_radiusB[j2] - r2);
        if (beyond(e12)) break;
        if (j2 == j1) continue;
        const double mismatch = e12 + std::abs((m_b[0].col(j1) - m_b[0].col(j2)).norm() - d12);
        const ImageMatch match{mismatch, j1, j2};
        if (best.size() == count) {
          if (!(match < best.front())) continue;
          std::pop_heap(best.begin(), best.end());
          best.pop_back();
        }
        best.push_back(match);
        std::push_heap(best.begin(), best.end());
      }
    }
    std::sort_heap(best.begin(), best.end());
    return best;
  }

  const Points& m_a;
  const Points (&m_b)[2];  // b and its inversion -b
  const AlignmentParams& m_params;
  std::mt19937_64 m_rng;                 // the reference pairs' lottery, then the random starts
  int m_draws = 0;                       // of m_rng so far
  int m_numberRandomsAfter;
  Eigen::VectorXd m_radiusA, m_radiusB;  // distances from the centroids
  std::vector<Eigen::Index> m_byRadiusB;  // the atoms of b by radius
  double m_rms = 0.0;                    // RMS radius of a
};

// The permutation/rotation search for centred a and b (b is the one moved). A start is an
// orientation of b or of -b; candidate starts are ranked by the cheap bound
// sum_i min_j |a_i - R b_j|^2 and the best few refined by the O(N^3) alternation.
class AlignmentSearch {
 public:
  AlignmentSearch(const Points& a, const Points& b, const AlignmentParams& params)
      : m_a(a), m_b{b, -b}, m_params(params), m_starts(a, m_b, params) {
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
  // Holds references to its inputs: one search, used in place.
  AlignmentSearch(const AlignmentSearch&) = delete;
  AlignmentSearch& operator=(const AlignmentSearch&) = delete;

  Fit run() {
    // The best fit in the given atom order comes first, so the result can never be worse.
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
    if (!m_params.permutationGroups.empty()) {
      // Two starts per chirality: the fit in the given order, and the fit of the atoms that no
      // group moves (about the centroid of all atoms, which no permutation changes), which is
      // exact for a moved, permuted copy however large the groups are.
      const std::vector<int> fixed = atomsOutsideGroups();
      for (int c = 0; c < chiralities && !exact(); ++c) {
        consider(refineGroups(inOrder[c], c == 1));
        if (fixed.size() >= 3 && !exact()) {
          consider(refineGroups(kabschRotationOfSubset(m_a, m_b[c], fixed), c == 1));
        }
      }
      // Atoms that no group moves fix the frame (a molecule with perm.allow groups). Without
      // them (a cluster of molecules, every one in a group) the given order says nothing about
      // the orientation, so the candidate orientations below are searched too, each refined
      // within the groups.
      if (fixed.size() >= 3 || exact()) return m_best;
      m_withinGroups = true;
    }

    // Frame starts first: for a copy one of them is exact and ends the search.
    const auto add = [&](const Eigen::Matrix3d& rotation, bool inverted, int, int) {
      addCandidate(rotation, inverted);
    };
    const auto stop = [&] { return exact(); };
    m_starts.frames(add, stop);
    m_starts.others(inOrder, add, stop);
    if (exact()) return m_best;

    std::stable_sort(m_candidates.begin(), m_candidates.end(),
                     [](const Candidate& x, const Candidate& y) { return x.score < y.score; });
    std::vector<const Candidate*> started;
    for (const Candidate& c : m_candidates) {
      if (c.refined) started.push_back(&c);
    }
    int trials = 0;
    for (const Candidate& c : m_candidates) {
      if (trials >= m_params.orientationTrials || exact()) break;
      if (c.refined) continue;
      const bool duplicate = std::any_of(started.begin(), started.end(), [&](const Candidate* s) {
        return s->inverted == c.inverted && (s->rotation - c.rotation).norm() < kDistinctRotation;
      });
      if (duplicate) continue;
      consider(refineStart(c.rotation, c.inverted));
      started.push_back(&c);
      ++trials;
    }
    return m_best;
  }

 private:
  bool exact() const { return m_best.squared < m_params.convergence * m_params.convergence; }

  void consider(const Fit& fit) {
    if (fit.squared < m_best.squared) m_best = fit;
  }

  // Scores a start; one whose bound is already ~0 is refined at once, so that recognising a copy
  // costs a handful of O(N^2) bounds rather than the whole candidate list.
  void addCandidate(const Eigen::Matrix3d& rotation, bool inverted) {
    if (exact()) return;
    const double score = nearestNeighbourBound(rotation, inverted);
    const bool now = score <= m_params.convergence * m_params.convergence;
    m_candidates.push_back({score, rotation, inverted, now});
    if (now) consider(refineStart(rotation, inverted));
  }

  // sum_i min_j |a_i - R b_j|^2: a lower bound on the squared distance in this orientation, and
  // the squared distance itself when the nearest neighbours form a permutation.
  double nearestNeighbourBound(const Eigen::Matrix3d& rotation, bool inverted) {
    m_rotated.noalias() = rotation * m_b[inverted ? 1 : 0];
    nearestSquared(m_ax.data(), m_ay.data(), m_az.data(), m_rotated.data(), m_a.cols(),
                   m_nearest.data());
    return m_nearest.sum();
  }

  void fillCost(const Eigen::Matrix3d& rotation, bool inverted) {
    m_rotated.noalias() = rotation * m_b[inverted ? 1 : 0];
    m_bx = m_rotated.row(0).transpose();
    m_by = m_rotated.row(1).transpose();
    m_bz = m_rotated.row(2).transpose();
    squaredDistances(m_ax.data(), m_ay.data(), m_az.data(), m_bx.data(), m_by.data(), m_bz.data(),
                     m_a.cols(), m_cost.data());
  }

  // Alternates the optimal permutation for the current rotation with the optimal rotation for
  // that permutation. Neither step can increase the distance, so the sequence descends to a fixed
  // point (the permutation repeats) or stalls below the convergence threshold. `permutationFor`
  // is the permutation step: all atoms (refine) or within the declared groups (refineGroups).
  template <typename PermutationFor>
  Fit descend(const Eigen::Matrix3d& start, bool inverted, PermutationFor permutationFor) {
    const Points& b = m_b[inverted ? 1 : 0];
    Fit fit;
    fit.inverted = inverted;
    Eigen::Matrix3d rotation = start;
    std::vector<int> previous;
    for (int iteration = 0; iteration < m_params.maxIterations; ++iteration) {
      std::vector<int> perm = permutationFor(rotation);
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

  Fit refine(const Eigen::Matrix3d& start, bool inverted) {
    Eigen::VectorXd potentials;  // warm start: successive cost matrices differ little
    return descend(start, inverted, [&](const Eigen::Matrix3d& rotation) {
      fillCost(rotation, inverted);
      // The first solve starts from each column's least cost (the column reduction of Jonker &
      // Volgenant 1987) rather than from zero: many atoms of a rotated b share their nearest atom
      // of a, and the row reduction then leaves fewer of them to the shortest-path searches (the
      // endpoint alignments of LJ38's DNEB 1.2x faster; the same optimal permutations).
      if (potentials.size() == 0) potentials = m_cost.colwise().minCoeff().transpose();
      return solveAssignment(m_cost, potentials);
    });
  }

  // The best permutation within the declared groups for a fixed orientation of b, built as
  // OPTIM's MINPERMDIST does: groups in order, each an assignment problem over its atoms whose
  // cost includes the swap sets that move with them, the permutation updated after each group so
  // that a later (nested) group permutes what an earlier one moved there.
  std::vector<int> groupPermutation(const Eigen::Matrix3d& rotation, bool inverted) {
    m_rotated.noalias() = rotation * m_b[inverted ? 1 : 0];
    std::vector<int> perm = m_identity;
    Eigen::MatrixXd cost;
    for (const PermutationGroup& group : m_params.permutationGroups) {
      const Eigen::Index size = static_cast<Eigen::Index>(group.atoms.size());
      cost.resize(size, size);
      for (Eigen::Index i = 0; i < size; ++i) {
        for (Eigen::Index j = 0; j < size; ++j) {
          const std::size_t si = static_cast<std::size_t>(i), sj = static_cast<std::size_t>(j);
          double c =
              (m_a.col(group.atoms[si]) - m_rotated.col(perm[group.atoms[sj]])).squaredNorm();
          for (const std::vector<int>& set : group.swapSets) {
            c += (m_a.col(set[si]) - m_rotated.col(perm[set[sj]])).squaredNorm();
          }
          cost(i, j) = c;
        }
      }
      const std::vector<int> assignment = solveAssignment(cost);
      std::vector<int> next = perm;
      for (std::size_t i = 0; i < group.atoms.size(); ++i) {
        const std::size_t j = static_cast<std::size_t>(assignment[i]);
        next[group.atoms[i]] = perm[group.atoms[j]];
        for (const std::vector<int>& set : group.swapSets) next[set[i]] = perm[set[j]];
      }
      perm = std::move(next);
    }
    return perm;
  }

  // Atoms neither in a group nor in a swap set, as a list of indices.
  std::vector<int> atomsOutsideGroups() const {
    std::vector<char> moved(m_identity.size(), 0);
    for (const PermutationGroup& group : m_params.permutationGroups) {
      for (int atom : group.atoms) moved[static_cast<std::size_t>(atom)] = 1;
      for (const std::vector<int>& set : group.swapSets) {
        for (int atom : set) moved[static_cast<std::size_t>(atom)] = 1;
      }
    }
    std::vector<int> fixed;
    for (std::size_t i = 0; i < moved.size(); ++i) {
      if (!moved[i]) fixed.push_back(static_cast<int>(i));
    }
    return fixed;
  }

  // A candidate orientation refined as the search requires: all atoms, or within the groups.
  Fit refineStart(const Eigen::Matrix3d& start, bool inverted) {
    return m_withinGroups ? refineGroups(start, inverted) : refine(start, inverted);
  }

  // refine() with the permutation restricted to the groups.
  Fit refineGroups(const Eigen::Matrix3d& start, bool inverted) {
    return descend(start, inverted, [&](const Eigen::Matrix3d& rotation) {
      return groupPermutation(rotation, inverted);
    });
  }

  const Points& m_a;
  Points m_b[2];  // b and its inversion -b
  const AlignmentParams& m_params;
  StartGenerator m_starts;
  Eigen::VectorXd m_ax, m_ay, m_az;  // a split by component for the O(N^2) loops
  Points m_rotated;
  Eigen::VectorXd m_bx, m_by, m_bz;  // m_rotated split by component
  Eigen::VectorXd m_nearest;
  AssignmentCost m_cost;  // row i: atom i of a
  std::vector<int> m_identity;
  std::vector<Candidate> m_candidates;
  bool m_withinGroups = false;  // the candidates are refined within the permutation groups
  Fit m_best;
};

Points centred(const std::vector<double>& x, Eigen::Vector3d& centroid) {
  const Eigen::Index n = static_cast<Eigen::Index>(x.size() / 3);
  Points p = Eigen::Map<const Points>(x.data(), 3, n);
  // Eigen evaluates rowwise().mean() by packets where the destination is 16-byte aligned and
  // coefficient by coefficient elsewhere, which round differently: an aligned destination fixes
  // the bits whatever the caller's address.
  alignas(16) Eigen::Vector3d mean;
  mean = p.rowwise().mean();
  centroid = mean;
  p.colwise() -= centroid;
  return p;
}

}  // namespace

void AlignmentParams::check() const {
  // Checked for every pair aligned: the sentences are made only when a check fails.
  require(orientationTrials >= 1, [&] {
    return "alignment orientationTrials must be >= 1, got " + std::to_string(orientationTrials);
  });
  require(randomOrientations >= 0, [&] {
    return "alignment randomOrientations must be >= 0, got " + std::to_string(randomOrientations);
  });
  require(maxIterations >= 1, [&] {
    return "alignment maxIterations must be >= 1, got " + std::to_string(maxIterations);
  });
  require(std::isfinite(convergence) && convergence >= 0.0,
          [] { return std::string("alignment convergence must be finite and >= 0 (length)"); });
  for (int k = 0; k < 3; ++k) {
    require(std::isfinite(box.length[k]) && box.length[k] >= 0.0, [&] {
      std::ostringstream got;
      got << box.length[k];
      return "alignment box.length[" + std::to_string(k) +
             "] must be finite and >= 0 (0 = open axis), got " + got.str();
    });
  }
  std::vector<int> groupOf;  // atom -> 1 + the group that permutes it, 0 for none
  for (std::size_t g = 0; g < permutationGroups.size(); ++g) {
    const PermutationGroup& group = permutationGroups[g];
    const auto name = [g] { return "alignment permutationGroups[" + std::to_string(g) + "]"; };
    require(group.atoms.size() >= 2, [&] {
      return name() + " must hold at least 2 atoms, got " + std::to_string(group.atoms.size());
    });
    std::vector<int> members = group.atoms;
    for (const std::vector<int>& set : group.swapSets) {
      require(set.size() == group.atoms.size(), [&] {
        return name() + ": every swap set must have one atom per group atom (" +
               std::to_string(group.atoms.size()) + "), got " + std::to_string(set.size());
      });
      members.insert(members.end(), set.begin(), set.end());
    }
    for (int atom : members) {
      require(atom >= 0,
              [&] { return name() + ": atom indices must be >= 0, got " + std::to_string(atom); });
    }
    std::vector<int> sorted = members;
    std::sort(sorted.begin(), sorted.end());
    const auto repeated = std::adjacent_find(sorted.begin(), sorted.end());
    require(repeated == sorted.end(), [&] {
      return name() + ": atom " + std::to_string(*repeated) +
             " appears twice (atoms and swap sets must all differ)";
    });
    for (int atom : group.atoms) {
      const std::size_t a = static_cast<std::size_t>(atom);
      if (a >= groupOf.size()) groupOf.resize(a + 1, 0);
      require(groupOf[a] == 0, [&] {
        return name() + ": atom " + std::to_string(atom) + " is already permuted by group " +
               std::to_string(groupOf[a] - 1) + " (groups may not overlap)";
      });
      groupOf[a] = static_cast<int>(g) + 1;
    }
  }
}

void checkAlignmentPair(const std::vector<double>& a, const std::vector<double>& b,
                        const AlignmentParams& params) {
  params.check();
  require(a.size() == b.size(), [&] {
    return "alignStructures: both structures must have the same number of coordinates, got " +
           std::to_string(a.size()) + " and " + std::to_string(b.size());
  });
  require(a.size() % 3 == 0, [&] {
    return "alignStructures: the number of coordinates must be a multiple of 3 (x y z per atom), "
           "got " +
           std::to_string(a.size());
  });
  require(!a.empty(), [] {
    return std::string("alignStructures: the structures must contain at least one atom");
  });
  const auto finite = [](double v) { return std::isfinite(v); };
  require(std::all_of(a.begin(), a.end(), finite) && std::all_of(b.begin(), b.end(), finite),
          [] { return std::string("alignStructures: every coordinate must be finite"); });
  const int atoms = static_cast<int>(a.size() / 3);
  for (std::size_t g = 0; g < params.permutationGroups.size(); ++g) {
    const PermutationGroup& group = params.permutationGroups[g];
    const auto outside = [atoms](int atom) { return atom >= atoms; };
    bool bad = std::any_of(group.atoms.begin(), group.atoms.end(), outside);
    for (const std::vector<int>& set : group.swapSets)
      bad = bad || std::any_of(set.begin(), set.end(), outside);
    require(!bad, [&] {
      return "alignStructures: permutation group " + std::to_string(g) +
             " names an atom beyond the last of the " + std::to_string(atoms) +
             " atoms (0-based indices)";
    });
  }
}

CentredPair centredPair(const std::vector<double>& a, const std::vector<double>& b) {
  // The search is heuristic, so aligning b onto a and a onto b could end in different local
  // minima. Running it in one canonical direction and inverting the transformation when needed
  // makes the distance symmetric by construction, as AVOID lists and connection runs assume.
  CentredPair pair;
  pair.swapped = std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end());
  const Points pa = centred(a, pair.centroidA);
  const Points pb = centred(b, pair.centroidB);
  pair.fixed = pair.swapped ? pb : pa;
  pair.moved = pair.swapped ? pa : pb;
  return pair;
}

std::vector<AlignmentStart> alignmentStarts(const CentredPair& pair, const AlignmentParams& params,
                                            int numberRandomsAfter) {
  const Points moved[2] = {pair.moved, -pair.moved};
  StartGenerator generator(pair.fixed, moved, params, numberRandomsAfter);
  std::vector<AlignmentStart> starts;
  starts.reserve(static_cast<std::size_t>(
      2 * (kReferencePairs * kImagePairs + 6 + params.randomOrientations)));
  const auto add = [&](const Eigen::Matrix3d& rotation, bool inverted, int inOrderOf, int random) {
    starts.push_back({rotation, inverted, inOrderOf, random});
  };
  const auto never = [] { return false; };
  generator.frames(add, never);
  generator.others(nullptr, add, never);
  return starts;
}

int usualDrawsBeforeRandomStarts(int atoms) {
  return atoms >= 3 ? atoms : 0;  // the frame starts' lottery: a ticket per atom
}

std::vector<Eigen::Matrix3d> randomAlignmentRotations(const AlignmentParams& params, int draws) {
  std::mt19937_64 rng(params.seed);
  rng.discard(static_cast<unsigned long long>(draws));
  const int count = (params.inversion ? 2 : 1) * params.randomOrientations;
  std::vector<Eigen::Matrix3d> rotations;
  rotations.reserve(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) rotations.push_back(randomRotation(rng));
  return rotations;
}

AlignmentResult alignmentResult(const CentredPair& pair, const AlignmentFit& fit,
                                const std::vector<double>& a) {
  AlignmentResult result;
  result.inverted = fit.inverted;
  const std::size_t n = a.size() / 3;
  if (!pair.swapped) {
    result.rotation = fit.rotation;
    result.permutation = fit.permutation;
  } else {
    // The search moved a onto b: s R a_{p[i]} ~ b_i (centred), so b_i maps back onto a_{p[i]}
    // under s R^T.
    result.rotation = fit.rotation.transpose();
    result.permutation.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      result.permutation[static_cast<std::size_t>(fit.permutation[i])] = static_cast<int>(i);
    }
  }
  const Points& pb = pair.swapped ? pair.fixed : pair.moved;  // b, centred
  const double sign = result.inverted ? -1.0 : 1.0;
  result.alignedB.resize(a.size());
  double squared = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector3d moved =
        sign * (result.rotation * pb.col(result.permutation[i])) + pair.centroidA;
    for (std::size_t k = 0; k < 3; ++k) {
      result.alignedB[3 * i + k] = moved[static_cast<Eigen::Index>(k)];
      const double d = a[3 * i + k] - moved[static_cast<Eigen::Index>(k)];
      squared += d * d;
    }
  }
  result.distance = std::sqrt(squared);
  result.translation = pair.centroidA - sign * (result.rotation * pair.centroidB);
  return result;
}

AlignmentResult alignStructures(const std::vector<double>& a, const std::vector<double>& b,
                                const AlignmentParams& params) {
  checkAlignmentPair(a, b, params);
  if (params.box.periodic()) return alignPeriodicStructures(a, b, params);
  const CentredPair pair = centredPair(a, b);
  return alignmentResult(pair, AlignmentSearch(pair.fixed, pair.moved, params).run(), a);
}

double minimumDistance(const std::vector<double>& a, const std::vector<double>& b,
                       const AlignmentParams& params) {
  return alignStructures(a, b, params).distance;
}

}  // namespace landscape
