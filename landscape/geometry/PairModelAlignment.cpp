#include "landscape/geometry/PairModelAlignment.h"

#include <utility>

namespace landscape {

AlignmentParams pairAlignment(const PairModel& model, AlignmentParams base) {
  base.box = model.box;
  if (model.speciesCount() < 2 || !base.permutations) return base;
  base.permutationGroups.clear();
  for (int s = 0; s < model.speciesCount(); ++s) {
    PermutationGroup group;
    for (std::size_t i = 0; i < model.atoms(); ++i)
      if (model.species[i] == s) group.atoms.push_back(static_cast<int>(i));
    if (group.atoms.size() >= 2) base.permutationGroups.push_back(std::move(group));
  }
  // No species with two atoms: nothing may be permuted (empty groups would mean every atom).
  if (base.permutationGroups.empty()) base.permutations = false;
  return base;
}

}  // namespace landscape
