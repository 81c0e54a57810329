#pragma once
// What a SopDynamics run needs to continue bit for bit from a step (sop --resume; saved by
// landscape/formats/SopCheckpointFile): the step, every replica's coordinates and tip, the random
// streams and, on the CUDA backend, the Verlet list's reference (the coordinates at each replica's
// last list build, from which the same list is rebuilt, and whether a rebuild is due).
// Units: A.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "landscape/dynamics/RandomStreams.h"

namespace landscape {

struct SopDynamicsState {
  long step = 0;                  ///< steps done (time = step x dt)
  std::vector<double> positions;  ///< replicas x 3 x beads (A)
  std::vector<double> tips;       ///< replicas: indentation tip displacement along n (A); 0 if none
  RandomStreamsState random;
  /// CUDA only (empty on the CPU, which searches cells every step): replicas x 3 x beads
  /// coordinates of the last list build (A), and per replica 1 when the next step rebuilds.
  std::vector<double> listPositions;
  std::vector<std::uint8_t> rebuildDue;
  long rebuilds = 0;  ///< neighbour-list rebuilds so far (the summary line's count)
};

/// Throws std::invalid_argument unless `state` has the sizes of `replicas` replicas of `beads`
/// beads (listPositions and rebuildDue: empty or complete) and finite coordinates.
void requireSopStateShape(const SopDynamicsState& state, std::size_t beads, int replicas);

}  // namespace landscape
