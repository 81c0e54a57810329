// Compiled with -ffp-contract=off (CMakeLists.txt): the GPU kernel adds and multiplies separately.
#include "landscape/geometry/AlignmentTwin.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/TeamTerms.h"
#include "landscape/geometry/AlignmentTeamTerms.h"

namespace landscape {
namespace {

// One GPU warp as the twin plays it: lanes one after the other, sums in the warp's order.
class HostAlignmentWarp {
 public:
  explicit HostAlignmentWarp(AlignmentWarpWork work) : m_work(work) {}
  template <class F>
  void forLanes(int count, F f) const {
    for (int c = 0; c < count; ++c) f(c);
  }
  void sync() const {}
  bool isLeader() const { return true; }
  template <int R, class F>
  TeamSum<R> sum(int count, F term) const {
    return warpSumMirror<R>(count, term);
  }
  template <class F>
  int least(int count, F key) const {
    int best = -1;
    AlignmentKey bestKey{0.0, 0};
    for (int c = 0; c < count; ++c) {
      const AlignmentKey k = key(c);
      if (best < 0 || alignmentBefore(k, c, bestKey, best)) {
        best = c;
        bestKey = k;
      }
    }
    return best;
  }
  template <class F>
  bool any(int count, F pred) const {
    for (int c = 0; c < count; ++c)
      if (pred(c)) return true;
    return false;
  }
  AlignmentWarpWork& work() { return m_work; }

 private:
  AlignmentWarpWork m_work;
};

// A block as the twin plays it: its warps' items one after the other on one warp (each item
// sets up the warp state it reads, so which warp takes it does not matter).
class HostAlignmentBlock {
 public:
  explicit HostAlignmentBlock(HostAlignmentWarp& warp) : m_warp(warp) {}
  template <class F>
  void forWarpItems(int count, F f) {
    for (int i = 0; i < count; ++i) f(i, m_warp);
  }
  template <class F>
  void withLeaderWarp(F f) {
    f(m_warp);
  }
  template <class F>
  void forThreads(int count, F f) {
    for (int k = 0; k < count; ++k) f(k);
  }

 private:
  HostAlignmentWarp& m_warp;
};

}  // namespace

AlignmentTwin::AlignmentTwin(int atoms, int threads) : m_atoms(atoms), m_pool(threads) {
  if (atoms < 1)
    throw std::invalid_argument("alignment twin: at least one atom, got " + std::to_string(atoms));
}

std::string AlignmentTwin::name() const {
  return "batched alignment (cpu twin of the cuda kernel, " + std::to_string(m_pool.threads()) +
         " threads) of " + std::to_string(m_atoms) + "-atom clusters";
}

void AlignmentTwin::align(const AlignmentParams& params, const std::vector<AlignmentPair>& pairs,
                          std::vector<AlignmentResult>& out) {
  const AlignmentTeamBatch batch(params, pairs, m_atoms, &m_pool);
  const std::size_t starts = static_cast<std::size_t>(batch.starts());
  std::vector<double> scores(starts), fits(static_cast<std::size_t>(batch.fitDoubles())),
      inOrder(18 * pairs.size());
  std::vector<int> order(starts), started(starts),
      fitPermutations(static_cast<std::size_t>(batch.fitInts())),
      permutations(static_cast<std::size_t>(batch.permutationInts()));
  std::vector<AlignmentTeamOutcome> outcomes(pairs.size());
  const AlignmentTeamArrays arrays{batch.coordinates().data(),
                                   batch.startRotations().data(),
                                   batch.randomRotations().data(),
                                   batch.startFlags().data(),
                                   batch.firstStart().data(),
                                   scores.data(),
                                   order.data(),
                                   started.data(),
                                   fits.data(),
                                   fitPermutations.data(),
                                   inOrder.data(),
                                   outcomes.data(),
                                   permutations.data()};
  const AlignmentTeamSettings settings = batch.settings();
  const int n = m_atoms;
  m_pool.forEach(pairs.size(), [&](std::size_t k) {
    std::vector<double> doubles(static_cast<std::size_t>(alignmentWarpDoubles(n)));
    std::vector<int> ints(static_cast<std::size_t>(alignmentWarpInts(n)));
    HostAlignmentWarp warp(alignmentWarpWork(doubles.data(), ints.data(), n));
    HostAlignmentBlock block(warp);
    alignmentTeamRun(block, settings, alignmentTeamJob(arrays, settings, static_cast<int>(k)),
                     kDistinctRotation);
  });
  batch.results(outcomes.data(), permutations.data(), pairs, out, &m_pool);
}

}  // namespace landscape
