#pragma once
// Disconnectivity graphs (Becker and Karplus, J. Chem. Phys. 106, 1495 (1997); Wales, Miller and
// Walsh, Nature 394, 758 (1998)): at a ladder of energy levels, minima joined by transition states
// below the level form one superbasin; each superbasin is a node, joined to the node of the level
// above that contains it, and each minimum's line ends at its own energy. This file computes the
// tree and its line segments in (horizontal position in [0, 1], energy) coordinates;
// landscape.plots (python/landscape/plots.py) draws them with matplotlib.
//
// Layout: the children of a node are ordered by their lowest energy and placed with the lowest in
// the middle, alternating right and left (as disconnectionDPS draws funnels); leaves are spread
// evenly, and a node sits at the mean position of its children.
#include <limits>
#include <vector>

#include "landscape/network/StoredNetwork.h"

namespace landscape {

struct DisconnectivityParams {
  int levels = 20;  ///< energy levels below the top one (>= 1)
  /// Energy of the top level (energy); NaN = just above the highest transition state drawn.
  double topEnergy = std::numeric_limits<double>::quiet_NaN();
  /// Energy between levels (dinfo's DELTA; energy); NaN = (top - lowest minimum) / levels.
  double levelSpacing = std::numeric_limits<double>::quiet_NaN();
  /// Draw only the minima connected to the global minimum (the others cannot join the graph).
  bool connectedToLowestOnly = true;

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

struct DisconnectivitySegment {
  double x0, energy0;  ///< upper end: x in [0, 1], energy in the potential's unit
  double x1, energy1;  ///< lower end
  /// The minima whose lines hang below the lower end (one for a minimum's own line), for
  /// colouring sets of minima (dinfo's TRMIN).
  std::vector<int> minima;
};

struct DisconnectivityGraph {
  std::vector<DisconnectivitySegment> segments;
  std::vector<double> levels;    ///< energies of the levels, top first
  std::vector<int> minima;       ///< indices of the minima drawn
  std::vector<double> minimumX;  ///< x of each minimum drawn (same order as `minima`)
  double lowestEnergy = 0.0;     ///< of the minima drawn
};

/// The graph of `network` (minima and transition states; coordinates are not used). Throws
/// std::invalid_argument when the network has no minima, a transition state names an unknown
/// minimum, or params.check() fails.
DisconnectivityGraph buildDisconnectivityGraph(const StoredTransitionNetwork& network,
                                               const DisconnectivityParams& params = {});

}  // namespace landscape
