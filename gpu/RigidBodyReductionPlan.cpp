#include "gpu/RigidBodyReductionPlan.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace landscape {

RigidReductionPlan makeRigidReductionPlan(const RigidBodySystem& s) {
  if (s.bodyAtoms().size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("rigid bodies: too many body atoms for 32-bit indices");
  RigidReductionPlan plan;
  struct Segment {
    int body, begin, count;
  };
  std::vector<Segment> segments;
  for (std::size_t b = 0; b < s.bodyCount(); ++b) {
    if (s.bodySize(b) <= static_cast<std::size_t>(kRigidWarpBodyLimit))
      plan.warpBodies.push_back(static_cast<int>(b));
    else
      segments.push_back({static_cast<int>(b), static_cast<int>(s.bodyStart()[b]),
                          static_cast<int>(s.bodySize(b))});
  }
  while (!segments.empty()) {
    std::vector<RigidPassBlock> blocks;
    std::vector<Segment> next;
    int outputs = 0;
    for (const Segment& seg : segments) {
      const int chunks = (seg.count + kRigidBlockSize - 1) / kRigidBlockSize;
      if (chunks == 1) {
        blocks.push_back({seg.body, seg.begin, seg.count, -1});
        continue;
      }
      for (int c = 0; c < chunks; ++c)
        blocks.push_back({seg.body, seg.begin + c * kRigidBlockSize,
                          std::min(kRigidBlockSize, seg.count - c * kRigidBlockSize), outputs + c});
      next.push_back({seg.body, outputs, chunks});
      outputs += chunks;
    }
    plan.maxPartials = std::max(plan.maxPartials, static_cast<std::size_t>(outputs));
    plan.passes.push_back(std::move(blocks));
    segments = std::move(next);
  }
  return plan;
}

}  // namespace landscape
