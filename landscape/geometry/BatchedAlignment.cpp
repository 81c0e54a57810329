#include "landscape/geometry/BatchedAlignment.h"

#include <functional>
#include <stdexcept>
#include <string>

namespace landscape {

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

namespace {

// A start's flag keeps its index in 28 bits (alignmentStartFlags).
constexpr int kMaxOwnStarts = (1 << 28) - 1;

// task(k) for every pair k, on the pool's threads if there is one.
void forEachPair(ThreadPool* pool, std::size_t pairs,
                 const std::function<void(std::size_t)>& task) {
  if (pool && pairs > 1)
    pool->forEach(pairs, task);
  else
    for (std::size_t k = 0; k < pairs; ++k) task(k);
}

// One pair's part of a batch, packed on its own (in parallel with the others): its own start
// rotations are numbered from 0 here and moved to their place in the call's list when joined.
struct PackedPair {
  CentredPair centred;
  std::vector<double> ownRotations;
  std::vector<int> flags;
  std::string error;  // a pair alignStructures() refuses
};

void packPair(const AlignmentParams& params, const AlignmentPair& pair, std::size_t k, int atoms,
              int randomsAfter, PackedPair& out) {
  const auto which = [k] { return "batched alignment: pair " + std::to_string(k); };
  if (!pair.a || !pair.b) {
    out.error = which() + " has no structure";
    return;
  }
  if (pair.a->size() != 3 * static_cast<std::size_t>(atoms)) {
    out.error = which() + " holds " + std::to_string(pair.a->size()) +
                " coordinates, this alignment takes " + std::to_string(atoms) + " atoms (" +
                std::to_string(3 * atoms) + ")";
    return;
  }
  try {
    checkAlignmentPair(*pair.a, *pair.b, params);
  } catch (const std::invalid_argument& e) {
    out.error = which() + ": " + e.what();
    return;
  }
  out.centred = centredPair(*pair.a, *pair.b);
  if (!params.permutations) return;
  for (const AlignmentStart& start : alignmentStarts(out.centred, params, randomsAfter)) {
    if (start.random >= 0) {
      out.flags.push_back(alignmentStartFlags(start.inverted, kRandomStart, start.random));
    } else if (start.inOrderOf >= 0) {
      out.flags.push_back(alignmentStartFlags(start.inverted, kInOrderStart, start.inOrderOf));
    } else {
      const int own = static_cast<int>(out.ownRotations.size() / 9);
      for (Eigen::Index row = 0; row < 3; ++row)
        for (Eigen::Index col = 0; col < 3; ++col)
          out.ownRotations.push_back(start.rotation(row, col));
      out.flags.push_back(alignmentStartFlags(start.inverted, kOwnStart, own));
    }
  }
}

}  // namespace

AlignmentTeamBatch::AlignmentTeamBatch(const AlignmentParams& params,
                                       const std::vector<AlignmentPair>& pairs, int atoms,
                                       ThreadPool* pool) {
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
  // The random starts are the same for every pair (a pair whose generator drew otherwise, a
  // degenerate one, gets its random starts as its own).
  const int randomsAfter = usualDrawsBeforeRandomStarts(n);
  if (params.permutations)
    for (const Eigen::Matrix3d& r : randomAlignmentRotations(params, randomsAfter))
      for (Eigen::Index row = 0; row < 3; ++row)
        for (Eigen::Index col = 0; col < 3; ++col) m_randomRotations.push_back(r(row, col));

  std::vector<PackedPair> packed(pairs.size());
  forEachPair(pool, pairs.size(),
              [&](std::size_t k) { packPair(params, pairs[k], k, n, randomsAfter, packed[k]); });

  std::size_t starts = 0, own = 0;
  for (const PackedPair& p : packed) {
    if (!p.error.empty()) throw std::invalid_argument(p.error);  // the first refused pair
    starts += p.flags.size();
    own += p.ownRotations.size() / 9;
  }
  if (own > static_cast<std::size_t>(kMaxOwnStarts))
    throw std::invalid_argument("batched alignment: more than " + std::to_string(kMaxOwnStarts) +
                                " starts in one call; align fewer pairs per call");
  m_pairs.reserve(pairs.size());
  m_coordinates.reserve(pairs.size() * 6 * static_cast<std::size_t>(n));
  m_startRotations.reserve(9 * own);
  m_startFlags.reserve(starts);
  m_firstStart.reserve(pairs.size() + 1);
  m_firstStart.assign(1, 0);
  for (PackedPair& p : packed) {
    for (const Eigen::Matrix3Xd* x : {&p.centred.fixed, &p.centred.moved})
      for (Eigen::Index axis = 0; axis < 3; ++axis)
        for (Eigen::Index i = 0; i < n; ++i) m_coordinates.push_back((*x)(axis, i));
    const int offset = static_cast<int>(m_startRotations.size() / 9);
    for (const int flags : p.flags)
      m_startFlags.push_back(((flags >> 1) & 3) == kOwnStart ? flags + (offset << 3) : flags);
    m_startRotations.insert(m_startRotations.end(), p.ownRotations.begin(), p.ownRotations.end());
    m_firstStart.push_back(static_cast<long long>(m_startFlags.size()));
    m_pairs.push_back(std::move(p.centred));
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
                                 std::vector<AlignmentResult>& out, ThreadPool* pool) const {
  const int n = m_settings.atoms;
  out.assign(m_pairs.size(), AlignmentResult{});
  forEachPair(pool, m_pairs.size(), [&](std::size_t k) {
    const AlignmentTeamOutcome& o = outcomes[k];
    AlignmentFit fit;
    fit.squared = o.squared;
    for (Eigen::Index row = 0; row < 3; ++row)
      for (Eigen::Index col = 0; col < 3; ++col) fit.rotation(row, col) = o.rotation[3 * row + col];
    fit.inverted = o.inverted != 0;
    const int* perm = permutations + static_cast<std::size_t>(n) * k;
    fit.permutation.assign(perm, perm + n);
    out[k] = alignmentResult(m_pairs[k], fit, *pairs[k].a);
  });
}

}  // namespace landscape
