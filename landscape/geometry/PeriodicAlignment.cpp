#include "landscape/geometry/PeriodicAlignment.h"

#include "landscape/geometry/Hungarian.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>

namespace landscape {

namespace {

using Points = Eigen::Matrix3Xd;

// Reference atoms of a whose images in b seed the translation starts (see addReferenceStarts).
// Several keep the method working when a few atoms have moved (a rearranged minimum).
constexpr std::size_t kReferenceAtoms = 3;
// Neighbours in an atom's environment: enough to tell the atoms of a glass apart.
constexpr std::size_t kEnvironmentNeighbours = 12;
// Images of a reference atom tried: all whose environment matches to within kExactMatch x the
// neighbour spacing (up to kMaxExactImages: in a crystal every atom matches), else the best
// kImageAtoms.
constexpr std::size_t kImageAtoms = 8;
constexpr double kExactMatch = 1e-6;
constexpr std::size_t kMaxExactImages = 64;
// Starts whose translations differ by less than this fraction of the neighbour spacing (modulo
// the box) lead to the same fit, so only the better ranked one is refined.
constexpr double kDistinctTranslation = 0.1;

struct Fit {
  double squared = std::numeric_limits<double>::infinity();  // sum of squared deviations
  Eigen::Vector3d translation = Eigen::Vector3d::Zero();
  std::vector<int> permutation;
};

struct Candidate {
  double score;  // nearest-neighbour lower bound on the squared distance for this translation
  Eigen::Vector3d translation;
  bool refined;
};

// sum_i w(x_i - t)^2 for the minimum image w along an axis of length `length` (> 0).
double periodicSquares(const std::vector<double>& x, double t, double length) {
  double sum = 0.0;
  for (double v : x) {
    const double d = (v - t) - length * std::round((v - t) / length);
    sum += d * d;
  }
  return sum;
}

// The shift t minimising sum_i w(d_i - t)^2, w the minimum image along an axis of length
// `length` (0: open axis, the plain mean), found exactly as described above
// alignPeriodicStructures(). `x` is scratch.
double optimalShift(const std::vector<double>& d, double length, std::vector<double>& x) {
  const std::size_t n = d.size();
  if (!(length > 0.0)) {
    // Relative to d[0], so that a copy's shift comes out to the last bit.
    double sum = 0.0;
    for (double v : d) sum += v - d[0];
    return d[0] + sum / static_cast<double>(n);
  }
  // Work relative to d[0], reduced to [0, L): values of one box at most.
  const double origin = d[0];
  x.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = d[i] - origin;
    double u = v - length * std::floor(v / length);
    if (u >= length) u -= length;
    x[i] = u;
  }
  // For t in [0, L), atom i's nearest image is e_i = u_i (u_i < L/2) or u_i - L until t passes
  // c_i = e_i + L/2, and e_i + L after it. Between consecutive breakpoints the images are fixed
  // and the sum is Q - 2 t S + n t^2 (S, Q: sum and sum of squares of the e_i), minimal at the
  // mean S / n clamped to the piece.
  std::vector<std::pair<double, double>> breaks(n);  // (c_i, e_i at t = 0)
  double s = 0.0, q = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = x[i] < 0.5 * length ? x[i] : x[i] - length;
    breaks[i] = {e + 0.5 * length, e};
    s += e;
    q += e * e;
  }
  std::sort(breaks.begin(), breaks.end());
  const double count = static_cast<double>(n);
  double bestT = 0.0, bestValue = std::numeric_limits<double>::infinity();
  double lo = 0.0;
  for (std::size_t k = 0; k <= n; ++k) {
    const double hi = k < n ? breaks[k].first : length;
    const double t = std::clamp(s / count, lo, std::max(lo, hi));
    const double value = q - 2.0 * t * s + count * t * t;
    if (value < bestValue) {
      bestValue = value;
      bestT = t;
    }
    if (k == n) break;
    const double e = breaks[k].second;
    s += length;
    q += 2.0 * e * length + length * length;
    lo = hi;
  }
  // The piece's sums suffer cancellation; a mean-shift step from its minimum (images fixed, so
  // never worse) recovers the last bits, which matter for recognising a copy.
  double bestSquares = periodicSquares(x, bestT, length);
  for (int polish = 0; polish < 3; ++polish) {
    double shift = 0.0;
    for (double v : x) shift += (v - bestT) - length * std::round((v - bestT) / length);
    const double t = bestT + shift / count;
    const double squares = periodicSquares(x, t, length);
    if (!(squares < bestSquares)) break;
    bestT = t;
    bestSquares = squares;
  }
  return origin + bestT;
}

// The permutation/translation search for a and b in a periodic box (b is the one moved).
class PeriodicAlignmentSearch {
 public:
  PeriodicAlignmentSearch(const Points& a, const Points& b, const AlignmentParams& params)
      : m_a(a), m_b(b), m_params(params), m_box(params.box) {
    const std::size_t n = static_cast<std::size_t>(a.cols());
    m_identity.resize(n);
    std::iota(m_identity.begin(), m_identity.end(), 0);
    m_shifted.resize(3, a.cols());
  }
  // Holds references to its inputs: one search, used in place.
  PeriodicAlignmentSearch(const PeriodicAlignmentSearch&) = delete;
  PeriodicAlignmentSearch& operator=(const PeriodicAlignmentSearch&) = delete;

  Fit run() {
    // The fit in the given atom order comes first, so the result can never be worse.
    Fit inOrder;
    inOrder.permutation = m_identity;
    inOrder.translation = optimalTranslation(m_identity);
    inOrder.squared = squaredDeviation(inOrder.translation, m_identity);
    consider(inOrder);
    if (!m_params.permutations || exact()) return m_best;

    // Reference starts first: for a copy one of them is exact and ends the search.
    buildClasses();
    addReferenceStarts();
    if (exact()) return m_best;
    // Minima of one run usually keep their labels, so the given order is always refined too.
    consider(refine(inOrder.translation));
    m_candidates.push_back({0.0, inOrder.translation, true});
    if (exact()) return m_best;

    std::stable_sort(m_candidates.begin(), m_candidates.end(),
                     [](const Candidate& x, const Candidate& y) { return x.score < y.score; });
    std::vector<Eigen::Vector3d> started;
    for (const Candidate& c : m_candidates) {
      if (c.refined) started.push_back(c.translation);
    }
    int trials = 0;
    for (const Candidate& c : m_candidates) {
      if (trials >= m_params.orientationTrials || exact()) break;
      if (c.refined) continue;
      const bool duplicate =
          std::any_of(started.begin(), started.end(), [&](const Eigen::Vector3d& t) {
            return imageOf(c.translation - t).norm() < kDistinctTranslation * m_spacing;
          });
      if (duplicate) continue;
      consider(refine(c.translation));
      started.push_back(c.translation);
      ++trials;
    }
    return m_best;
  }

 private:
  bool exact() const { return m_best.squared < m_params.convergence * m_params.convergence; }

  void consider(const Fit& fit) {
    if (fit.squared < m_best.squared) m_best = fit;
  }

  Eigen::Vector3d imageOf(Eigen::Vector3d d) const {
    m_box.minimumImage(d.data());
    return d;
  }

  // |a_i - (b_j + t)|^2 to the nearest image, with m_shifted = b + t.
  double imageSquared(Eigen::Index i, Eigen::Index j) const {
    double d[3] = {m_a(0, i) - m_shifted(0, j), m_a(1, i) - m_shifted(1, j),
                   m_a(2, i) - m_shifted(2, j)};
    m_box.minimumImage(d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  }

  void shiftB(const Eigen::Vector3d& translation) { m_shifted = m_b.colwise() + translation; }

  double squaredDeviation(const Eigen::Vector3d& translation, const std::vector<int>& perm) {
    shiftB(translation);
    double sum = 0.0;
    for (Eigen::Index i = 0; i < m_a.cols(); ++i) {
      sum += imageSquared(i, perm[static_cast<std::size_t>(i)]);
    }
    return sum;
  }

  // The exact optimal translation for a fixed permutation, axis by axis.
  Eigen::Vector3d optimalTranslation(const std::vector<int>& perm) {
    const Eigen::Index n = m_a.cols();
    Eigen::Vector3d t;
    m_axis.resize(static_cast<std::size_t>(n));
    for (int k = 0; k < 3; ++k) {
      for (Eigen::Index i = 0; i < n; ++i) {
        m_axis[static_cast<std::size_t>(i)] = m_a(k, i) - m_b(k, perm[static_cast<std::size_t>(i)]);
      }
      t[k] = optimalShift(m_axis, m_box.length[k], m_scratch);
    }
    return imageOf(t);
  }

  // Atoms that some allowed permutation may exchange, as classes (union-find over the groups'
  // atoms and each swap set; all atoms when no groups are given). An atom of a can only become an
  // atom of b of its own class, which bounds and candidate images respect.
  void buildClasses() {
    const std::size_t n = m_identity.size();
    std::vector<int> parent = m_identity;
    const auto root = [&parent](int x) {
      while (parent[static_cast<std::size_t>(x)] != x) {
        x = parent[static_cast<std::size_t>(x)] =
            parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
      }
      return x;
    };
    const auto join = [&](const std::vector<int>& atoms) {
      for (std::size_t k = 1; k < atoms.size(); ++k) {
        const int x = root(atoms[0]), y = root(atoms[k]);
        if (x != y) parent[static_cast<std::size_t>(std::max(x, y))] = std::min(x, y);
      }
    };
    if (m_params.permutationGroups.empty()) {
      join(m_identity);
    } else {
      for (const PermutationGroup& group : m_params.permutationGroups) {
        join(group.atoms);
        for (const std::vector<int>& set : group.swapSets) join(set);
      }
    }
    std::vector<int> classOfRoot(n, -1);
    m_classOf.assign(n, 0);
    m_classes.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t r = static_cast<std::size_t>(root(static_cast<int>(i)));
      if (classOfRoot[r] < 0) {
        classOfRoot[r] = static_cast<int>(m_classes.size());
        m_classes.emplace_back();
      }
      m_classOf[i] = classOfRoot[r];
      m_classes[static_cast<std::size_t>(classOfRoot[r])].push_back(static_cast<int>(i));
    }
  }

  // Per atom, the sorted minimum-image distances to its nearest neighbours (all atoms).
  std::vector<std::vector<double>> environments(const Points& x) const {
    const Eigen::Index n = x.cols();
    const std::size_t keep =
        std::min(kEnvironmentNeighbours, static_cast<std::size_t>(n > 0 ? n - 1 : 0));
    std::vector<std::vector<double>> result(static_cast<std::size_t>(n));
    std::vector<double> distances;
    for (Eigen::Index i = 0; i < n; ++i) {
      distances.clear();
      for (Eigen::Index j = 0; j < n; ++j) {
        if (j == i) continue;
        double d[3] = {x(0, i) - x(0, j), x(1, i) - x(1, j), x(2, i) - x(2, j)};
        m_box.minimumImage(d);
        distances.push_back(std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
      }
      std::partial_sort(distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(keep),
                        distances.end());
      result[static_cast<std::size_t>(i)].assign(
          distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(keep));
    }
    return result;
  }

  static double mismatch(const std::vector<double>& x, const std::vector<double>& y) {
    double sum = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) sum += std::abs(x[k] - y[k]);
    return sum;
  }

  // Reference starts: t = a_r - b_j puts reference atom r of a onto atom j of b. The reference
  // atoms are those whose environment has the closest match in b (an unmoved atom of a
  // rearranged minimum, any atom of a copy), preferring few exact matches (a distinctive atom);
  // their images are the atoms of b of the same class with the most similar environments.
  void addReferenceStarts() {
    const std::vector<std::vector<double>> envA = environments(m_a);
    const std::vector<std::vector<double>> envB = environments(m_b);
    const std::size_t n = m_identity.size();
    double nearest = 0.0;
    for (const std::vector<double>& e : envA) nearest += e.empty() ? 0.0 : e[0];
    m_spacing = nearest / static_cast<double>(n);
    const double exactMismatch = kExactMatch * m_spacing;

    // Per atom of a: (inexact, exact images, best mismatch, index); smaller is better.
    using Key = std::tuple<int, std::size_t, double, std::size_t>;
    std::vector<Key> keys;
    keys.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      double best = std::numeric_limits<double>::infinity();
      std::size_t exactImages = 0;
      for (int j : m_classes[static_cast<std::size_t>(m_classOf[i])]) {
        const double m = mismatch(envA[i], envB[static_cast<std::size_t>(j)]);
        best = std::min(best, m);
        if (m <= exactMismatch) ++exactImages;
      }
      const bool isExact = best <= exactMismatch;
      keys.emplace_back(isExact ? 0 : 1, isExact ? exactImages : 0, best, i);
    }
    const std::size_t references = std::min(kReferenceAtoms, n);
    std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(references),
                      keys.end());

    for (std::size_t k = 0; k < references && !exact(); ++k) {
      const std::size_t r = std::get<3>(keys[k]);
      std::vector<std::pair<double, int>> images;
      for (int j : m_classes[static_cast<std::size_t>(m_classOf[r])]) {
        images.emplace_back(mismatch(envA[r], envB[static_cast<std::size_t>(j)]), j);
      }
      std::sort(images.begin(), images.end());
      std::size_t exactImages = 0;
      while (exactImages < images.size() && exactImages < kMaxExactImages &&
             images[exactImages].first <= exactMismatch) {
        ++exactImages;
      }
      images.resize(std::min(images.size(), std::max(exactImages, kImageAtoms)));
      for (const auto& image : images) {
        addCandidate(imageOf(m_a.col(static_cast<Eigen::Index>(r)) - m_b.col(image.second)));
        if (exact()) return;
      }
    }
  }

  // Scores a start; one whose bound is already ~0 is refined at once, so that recognising a copy
  // costs a handful of O(N^2) bounds rather than the whole candidate list.
  void addCandidate(const Eigen::Vector3d& translation) {
    if (exact()) return;
    const double score = nearestNeighbourBound(translation);
    const bool now = score <= m_params.convergence * m_params.convergence;
    m_candidates.push_back({score, translation, now});
    if (now) consider(refine(translation));
  }

  // sum_i min_j |a_i - (b_j + t)|^2 over the atoms j of i's class, to the nearest image: a lower
  // bound on the squared distance for this translation.
  double nearestNeighbourBound(const Eigen::Vector3d& translation) {
    shiftB(translation);
    double sum = 0.0;
    for (std::size_t i = 0; i < m_identity.size(); ++i) {
      double nearest = std::numeric_limits<double>::infinity();
      for (int j : m_classes[static_cast<std::size_t>(m_classOf[i])]) {
        nearest = std::min(nearest, imageSquared(static_cast<Eigen::Index>(i), j));
      }
      sum += nearest;
    }
    return sum;
  }

  // Alternates the optimal permutation for the current translation with the optimal translation
  // for that permutation. Neither step can increase the distance, so the sequence descends to a
  // fixed point (the permutation repeats) or stalls below the convergence threshold.
  Fit refine(const Eigen::Vector3d& start) {
    Fit fit;
    Eigen::Vector3d translation = start;
    std::vector<int> previous;
    Eigen::VectorXd potentials;  // Hungarian warm start: successive cost matrices differ little
    for (int iteration = 0; iteration < m_params.maxIterations; ++iteration) {
      std::vector<int> perm = permutationFor(translation, potentials);
      if (perm == previous) break;
      const Eigen::Vector3d next = optimalTranslation(perm);
      const double squared = squaredDeviation(next, perm);
      if (!(squared < fit.squared)) break;
      const double gain = std::sqrt(fit.squared) - std::sqrt(squared);
      fit.squared = squared;
      fit.translation = next;
      fit.permutation = perm;
      if (gain < m_params.convergence || std::sqrt(squared) < m_params.convergence) break;
      translation = next;
      previous = std::move(perm);
    }
    return fit;
  }

  // The optimal permutation for a fixed translation: one assignment over all atoms, or, with
  // groups, OPTIM's MINPERMDIST construction (groups in order, each an assignment over its atoms
  // whose cost includes the swap sets that move with them, the permutation updated after each
  // group so that a later, nested group permutes what an earlier one moved there).
  std::vector<int> permutationFor(const Eigen::Vector3d& translation, Eigen::VectorXd& potentials) {
    shiftB(translation);
    const Eigen::Index n = m_a.cols();
    if (m_params.permutationGroups.empty()) {
      m_cost.resize(n, n);
      for (Eigen::Index j = 0; j < n; ++j) {
        for (Eigen::Index i = 0; i < n; ++i) m_cost(i, j) = imageSquared(i, j);
      }
      return solveAssignment(m_cost, potentials);
    }
    std::vector<int> perm = m_identity;
    Eigen::MatrixXd cost;
    for (const PermutationGroup& group : m_params.permutationGroups) {
      const Eigen::Index size = static_cast<Eigen::Index>(group.atoms.size());
      cost.resize(size, size);
      for (Eigen::Index i = 0; i < size; ++i) {
        for (Eigen::Index j = 0; j < size; ++j) {
          const std::size_t si = static_cast<std::size_t>(i), sj = static_cast<std::size_t>(j);
          double c = imageSquared(group.atoms[si], perm[static_cast<std::size_t>(group.atoms[sj])]);
          for (const std::vector<int>& set : group.swapSets) {
            c += imageSquared(set[si], perm[static_cast<std::size_t>(set[sj])]);
          }
          cost(i, j) = c;
        }
      }
      const std::vector<int> assignment = solveAssignment(cost);
      std::vector<int> next = perm;
      for (std::size_t i = 0; i < group.atoms.size(); ++i) {
        const std::size_t j = static_cast<std::size_t>(assignment[i]);
        next[static_cast<std::size_t>(group.atoms[i])] =
            perm[static_cast<std::size_t>(group.atoms[j])];
        for (const std::vector<int>& set : group.swapSets) {
          next[static_cast<std::size_t>(set[i])] = perm[static_cast<std::size_t>(set[j])];
        }
      }
      perm = std::move(next);
    }
    return perm;
  }

  const Points& m_a;
  const Points& m_b;
  const AlignmentParams& m_params;
  const PeriodicBox m_box;
  std::vector<int> m_identity;
  std::vector<int> m_classOf;               // atom -> its class
  std::vector<std::vector<int>> m_classes;  // atoms a permutation may exchange
  double m_spacing = 0.0;                   // mean nearest-neighbour distance in a
  Points m_shifted;                         // b + the translation being tried
  Eigen::MatrixXd m_cost;
  std::vector<double> m_axis, m_scratch;
  std::vector<Candidate> m_candidates;
  Fit m_best;
};

}  // namespace

AlignmentResult alignPeriodicStructures(const std::vector<double>& a, const std::vector<double>& b,
                                        const AlignmentParams& params) {
  const std::size_t n = a.size() / 3;
  const Points pa = Eigen::Map<const Points>(a.data(), 3, static_cast<Eigen::Index>(n));
  const Points pb = Eigen::Map<const Points>(b.data(), 3, static_cast<Eigen::Index>(n));
  // One canonical direction, as for clusters: the distance is symmetric by construction.
  const bool swapped = std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end());
  const Fit fit = swapped ? PeriodicAlignmentSearch(pb, pa, params).run()
                          : PeriodicAlignmentSearch(pa, pb, params).run();

  AlignmentResult result;
  Eigen::Vector3d translation = fit.translation;
  if (!swapped) {
    result.permutation = fit.permutation;
  } else {
    // The search moved a onto b: a_{p[i]} + t ~ b_i, so b_i - t ~ a_{p[i]}.
    translation = -translation;
    result.permutation.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      result.permutation[static_cast<std::size_t>(fit.permutation[i])] = static_cast<int>(i);
    }
  }
  params.box.minimumImage(translation.data());
  result.translation = translation;
  result.alignedB.resize(a.size());
  double squared = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = static_cast<std::size_t>(result.permutation[i]);
    double d[3];
    for (std::size_t k = 0; k < 3; ++k) {
      d[k] = a[3 * i + k] - (b[3 * j + k] + translation[static_cast<Eigen::Index>(k)]);
    }
    params.box.minimumImage(d);
    for (std::size_t k = 0; k < 3; ++k) {
      result.alignedB[3 * i + k] = a[3 * i + k] - d[k];
      const double e = a[3 * i + k] - result.alignedB[3 * i + k];
      squared += e * e;
    }
  }
  result.distance = std::sqrt(squared);
  return result;
}

}  // namespace landscape
