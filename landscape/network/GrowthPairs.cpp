#include "landscape/network/GrowthPairs.h"

namespace landscape {

bool wasTried(const TriedPairs& tried, int a, int b, bool eitherOrder) {
  for (const std::array<int, 2>& pair : tried) {
    if (pair[0] == a && pair[1] == b) return true;
    if (eitherOrder && pair[0] == b && pair[1] == a) return true;
  }
  return false;
}

}  // namespace landscape
