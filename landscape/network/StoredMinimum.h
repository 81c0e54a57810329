#pragma once
// One minimum as the search algorithms report it and the output files store it (docs/database.md).
// Kept apart from Database.h so that algorithm code can build these without the HDF5 layer.
#include <vector>

namespace landscape {

struct StoredMinimum {
  double energy = 0.0;              ///< in the potential's energy unit (reduced epsilon for LJ)
  std::vector<double> coordinates;  ///< 3N Cartesians x1 y1 z1 x2 ..., in its length unit
  long firstFoundStep = 0;          ///< basin-hopping quench number at which it was first found
  long functionCalls = 0;           ///< cumulative energy+gradient evaluations when first found;
                                    ///< -1 when unknown (GMIN `lowest` files older than the
                                    ///< "after ... function calls" field)
};

}  // namespace landscape
