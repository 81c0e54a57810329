#pragma once
// Many DNEB bands relaxed at once, each whole by one team (landscape/paths/DnebTeamTerms.h):
// the band's images, its nudged gradient, its L-BFGS and its spring constant never leave the team
// until the band has converged or run out of iterations. Implemented by the CPU twin
// (landscape/paths/DnebBandTwin) and the GPU kernel (gpu/BatchedDnebCuda), which give the same
// bits for a band whatever other bands share the call. Dneb::run takes one to relax its band.
#include <cstddef>
#include <string>
#include <vector>

#include "landscape/geometry/BatchedAlignment.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/DnebTeamTerms.h"

namespace landscape {

/// One band: its endpoints (imageSize coordinates each; finish already aligned onto start) and
/// its sizes.
struct DnebBandJob {
  const double* start = nullptr;
  const double* finish = nullptr;
  int images = 0;      ///< interior images >= 1
  int iterations = 0;  ///< L-BFGS iteration cap >= 1
};

/// What Dneb::prepare decides before a band is relaxed.
struct DnebBandStart {
  std::vector<double> finishAligned;  ///< the finish aligned onto the start
  double endpointDistance = 0.0;      ///< |finishAligned - start| (length)
  int images = 0;                     ///< interior images
  int iterations = 0;                 ///< L-BFGS iteration cap
  /// The band's job from `start` (both must outlive it).
  DnebBandJob job(const std::vector<double>& start) const {
    return {start.data(), finishAligned.data(), images, iterations};
  }
};

/// A relaxed band.
struct DnebRelaxedBand {
  std::vector<double> band;      ///< images x imageSize: the interior images
  std::vector<double> energies;  ///< images + 2, endpoints included, at the final band
  std::vector<double> tangents;  ///< images x imageSize: unit tangents at the final band
  DnebTeamOutcome outcome{};
};

class DnebBands {
 public:
  virtual ~DnebBands() = default;
  /// Coordinates of one image.
  virtual std::size_t imageSize() const = 0;
  virtual std::string name() const = 0;
  /// Relaxes every job with the band settings of `params` (spring constant and its adjustment,
  /// nudging, cold fusion, RMS tolerance, step cap, L-BFGS history; not its counts or alignment:
  /// the jobs carry those); out[k] is job k's band. Throws std::invalid_argument for a job of
  /// fewer than one image or iteration.
  virtual void relax(const DnebParams& params, const std::vector<DnebBandJob>& jobs,
                     std::vector<DnebRelaxedBand>& out) = 0;
  /// Where Dneb::run aligns the bands' endpoints (clusters: BatchedAlignment.h), or null:
  /// alignStructures() on the calling thread.
  virtual BatchedAlignment* endpointAlignment() { return nullptr; }
};

/// The team settings of a band of `images` interior images of imageSize coordinates and an
/// iteration cap (the L-BFGS settings of Dneb::run's band).
DnebTeamSettings dnebTeamSettings(const DnebParams& params, int images, int imageSize,
                                  int iterations);

/// Whether two settings relax a band alike (the fields DnebBands::relax reads).
bool sameDnebBandSettings(const DnebParams& a, const DnebParams& b);

/// Throws std::invalid_argument naming the first job that is not a band.
void checkDnebBandJobs(const std::vector<DnebBandJob>& jobs);

}  // namespace landscape
