#include "landscape/geometry/BatchedAlignment.h"

#include <stdexcept>
#include <string>

namespace landscape {

namespace {
// A start's flag keeps its index in 28 bits (alignmentStartFlags).
constexpr int kMaxOwnStarts = (1 << 28) - 1;
}  // namespace

bool batchedAlignmentFits(const AlignmentParams& params) {
  return params.permutationGroups.empty() && !params.box.periodic();
}

bool sameAlignmentSettings(const AlignmentParams& a, const AlignmentParams& b) {
  return a.permutations == b.permutations && a.inversion == b.inversion &&
         a.orientationTrials == b.orientationTrials &&
         a.randomOrientations == b.randomOrientations && a.maxIterations == b.maxIterations &&
         a.convergence == b.convergence && a.seed == b.seed && a.permutationGroups.empty() &&
         b.permutationGroups.empty() && !a.box.periodic() && !b.box.periodic();
}

AlignmentTeamBatch::AlignmentTeamBatch(const AlignmentParams& params,
                                       const std::vector<AlignmentPair>& pairs, int atoms) {
  params.check();
  if (!batchedAlignmentFits(params))
    throw std::invalid_argument(
        "batched alignment: clusters only (no permutation groups, no periodic box); align "
        "molecules and boxes with alignStructures");
  if (atoms < 1)
    throw std::invalid_argument("batched alignment: at least one atom, got " +
                                std::to_string(atoms));
  const int n = atoms;
  m_settings = {n,
                params.inversion ? 2 : 1,
                params.permutations ? 1 : 0,
                params.orientationTrials,
                params.maxIterations,
                params.convergence};
  m_pairs.reserve(pairs.size());
  m_coordinates.reserve(pairs.size() * 6 * static_cast<std::size_t>(n));
  m_firstStart.assign(1, 0);
  // The random starts are the same for every pair (a pair whose generator drew otherwise, a
  // degenerate one, gets its random starts as its own).
  const int randomsAfter = usualDrawsBeforeRandomStarts(n);
  if (params.permutations)
    for (const Eigen::Matrix3d& r : randomAlignmentRotations(params, randomsAfter))
      for (Eigen::Index row = 0; row < 3; ++row)
        for (Eigen::Index col = 0; col < 3; ++col) m_randomRotations.push_back(r(row, col));
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const AlignmentPair& pair = pairs[k];
    const std::string which = "batched alignment: pair " + std::to_string(k);
    if (!pair.a || !pair.b) throw std::invalid_argument(which + " has no structure");
    if (pair.a->size() != 3 * static_cast<std::size_t>(n))
      throw std::invalid_argument(which + " holds " + std::to_string(pair.a->size()) +
                                  " coordinates, this alignment takes " + std::to_string(n) +
                                  " atoms (" + std::to_string(3 * n) + ")");
    try {
      checkAlignmentPair(*pair.a, *pair.b, params);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(which + ": " + e.what());
    }
    m_pairs.push_back(centredPair(*pair.a, *pair.b));
    const CentredPair& centred = m_pairs.back();
    for (const Eigen::Matrix3Xd* x : {&centred.fixed, &centred.moved})
      for (Eigen::Index axis = 0; axis < 3; ++axis)
        for (Eigen::Index i = 0; i < n; ++i) m_coordinates.push_back((*x)(axis, i));
    if (params.permutations) {
      for (const AlignmentStart& start : alignmentStarts(centred, params, randomsAfter)) {
        if (start.random >= 0) {
          m_startFlags.push_back(alignmentStartFlags(start.inverted, kRandomStart, start.random));
        } else if (start.inOrderOf >= 0) {
          m_startFlags.push_back(
              alignmentStartFlags(start.inverted, kInOrderStart, start.inOrderOf));
        } else {
          const std::size_t own = m_startRotations.size() / 9;
          if (own > static_cast<std::size_t>(kMaxOwnStarts))
            throw std::invalid_argument("batched alignment: more than " +
                                        std::to_string(kMaxOwnStarts) +
                                        " starts in one call; align fewer pairs per call");
          for (Eigen::Index row = 0; row < 3; ++row)
            for (Eigen::Index col = 0; col < 3; ++col)
              m_startRotations.push_back(start.rotation(row, col));
          m_startFlags.push_back(
              alignmentStartFlags(start.inverted, kOwnStart, static_cast<int>(own)));
        }
      }
    }
    m_firstStart.push_back(static_cast<long long>(m_startFlags.size()));
  }
}

long long AlignmentTeamBatch::fitDoubles() const {
  return 10LL * (m_settings.orientationTrials + 1) * pairs();
}
long long AlignmentTeamBatch::fitInts() const {
  return static_cast<long long>(m_settings.atoms) * (m_settings.orientationTrials + 1) * pairs();
}
long long AlignmentTeamBatch::permutationInts() const {
  return static_cast<long long>(m_settings.atoms) * pairs();
}

void AlignmentTeamBatch::results(const AlignmentTeamOutcome* outcomes, const int* permutations,
                                 const std::vector<AlignmentPair>& pairs,
                                 std::vector<AlignmentResult>& out) const {
  const int n = m_settings.atoms;
  out.assign(m_pairs.size(), AlignmentResult{});
  for (std::size_t k = 0; k < m_pairs.size(); ++k) {
    const AlignmentTeamOutcome& o = outcomes[k];
    AlignmentFit fit;
    fit.squared = o.squared;
    for (Eigen::Index row = 0; row < 3; ++row)
      for (Eigen::Index col = 0; col < 3; ++col) fit.rotation(row, col) = o.rotation[3 * row + col];
    fit.inverted = o.inverted != 0;
    const int* perm = permutations + static_cast<std::size_t>(n) * k;
    fit.permutation.assign(perm, perm + n);
    out[k] = alignmentResult(m_pairs[k], fit, *pairs[k].a);
  }
}

}  // namespace landscape
