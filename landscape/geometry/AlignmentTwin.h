#pragma once
// The CPU twin of the GPU's batched alignment kernel (gpu/BatchedAlignmentCuda): the same search
// program (landscape/geometry/AlignmentTeamTerms.h) on a host warp that adds every sum in the
// order a GPU warp adds it (landscape/core/TeamTerms.h). A pair's result is the kernel's bit for
// bit; against alignStructures() it agrees to round-off (BatchedAlignment.h). Pairs spread over a
// thread pool.
#include "landscape/core/ThreadPool.h"
#include "landscape/geometry/BatchedAlignment.h"

namespace landscape {

class AlignmentTwin : public BatchedAlignment {
 public:
  /// Clusters of `atoms` (>= 1) atoms; threads >= 1.
  explicit AlignmentTwin(int atoms, int threads = 1);

  std::string name() const override;
  void align(const AlignmentParams& params, const std::vector<AlignmentPair>& pairs,
             std::vector<AlignmentResult>& out) override;

 private:
  int m_atoms;
  ThreadPool m_pool;
};

}  // namespace landscape
