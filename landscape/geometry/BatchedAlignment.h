#pragma once
// Many alignments at once (GMIN/OPTIM's MINPERMDIST of clusters, Alignment.h), each searched whole
// by one team (landscape/geometry/AlignmentTeamTerms.h): the candidate starts come from the host,
// as alignStructures() makes them; their bounds, ranking and refinements never leave the team.
// Implemented by the CPU twin (landscape/geometry/AlignmentTwin) and the GPU kernel
// (gpu/BatchedAlignmentCuda), which give the same bits for a pair whatever other pairs share the
// call. Against alignStructures() a result agrees to round-off (the same starts and refinements;
// the rotations from Horn's quaternion instead of an SVD, sums in a warp's order), and where
// several assignments tie the solver may return another of them.
//
// Clusters only: every atom interchangeable (no permutation groups) and no periodic box; those
// alignments stay with alignStructures().
#include <string>
#include <vector>

#include "landscape/core/ThreadPool.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/AlignmentStarts.h"
#include "landscape/geometry/AlignmentTeamTerms.h"

namespace landscape {

/// One pair: b aligned onto a, as alignStructures(*a, *b) (both must outlive the call).
struct AlignmentPair {
  const std::vector<double>* a = nullptr;
  const std::vector<double>* b = nullptr;
};

class BatchedAlignment {
 public:
  virtual ~BatchedAlignment() = default;
  virtual std::string name() const = 0;
  /// out[k] = the alignment of pairs[k]. Every pair must hold `atoms` atoms (the implementation's
  /// own) and pass alignStructures()'s checks; params must be a cluster's (batchedAlignmentFits).
  /// Throws std::invalid_argument naming the first pair or field that does not.
  virtual void align(const AlignmentParams& params, const std::vector<AlignmentPair>& pairs,
                     std::vector<AlignmentResult>& out) = 0;
};

/// Whether params describe an alignment the batched search runs: no permutation groups and no
/// periodic box (permutations may be off: the fits in the given order).
bool batchedAlignmentFits(const AlignmentParams& params);

/// Whether two alignment settings search alike (every field a cluster's batched search reads):
/// requests that may share one batched call.
bool sameAlignmentSettings(const AlignmentParams& a, const AlignmentParams& b);

/// A call's pairs as the team program reads them, in host memory (the GPU driver copies them).
class AlignmentTeamBatch {
 public:
  /// Checks and packs the pairs (atoms each): centred, in the search's direction, with their
  /// starts (AlignmentStarts.h); the pairs spread over the pool if one is given (the same
  /// batch for any pool). Throws std::invalid_argument naming the first pair refused.
  AlignmentTeamBatch(const AlignmentParams& params, const std::vector<AlignmentPair>& pairs,
                     int atoms, ThreadPool* pool = nullptr);

  const AlignmentTeamSettings& settings() const { return m_settings; }
  int pairs() const { return static_cast<int>(m_pairs.size()); }
  long long starts() const { return m_firstStart.back(); }
  const std::vector<double>& coordinates() const { return m_coordinates; }
  const std::vector<double>& startRotations() const { return m_startRotations; }
  const std::vector<double>& randomRotations() const { return m_randomRotations; }
  const std::vector<int>& startFlags() const { return m_startFlags; }
  const std::vector<long long>& firstStart() const { return m_firstStart; }

  /// Element counts of the work and result arrays of AlignmentTeamArrays.
  long long fitDoubles() const;
  long long fitInts() const;
  long long permutationInts() const;

  /// The results from the program's outcomes and permutations (pairs() of each, as the arrays
  /// hold them).
  void results(const AlignmentTeamOutcome* outcomes, const int* permutations,
               const std::vector<AlignmentPair>& pairs, std::vector<AlignmentResult>& out,
               ThreadPool* pool = nullptr) const;

 private:
  AlignmentTeamSettings m_settings{};
  std::vector<CentredPair> m_pairs;
  std::vector<double> m_coordinates;
  std::vector<double> m_startRotations;
  std::vector<double> m_randomRotations;
  std::vector<int> m_startFlags;
  std::vector<long long> m_firstStart;
};

}  // namespace landscape
