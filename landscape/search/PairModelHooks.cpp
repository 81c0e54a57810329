#include "landscape/search/PairModelHooks.h"

#include <vector>

#include "landscape/geometry/Alignment.h"
#include "landscape/geometry/BoxGeometry.h"
#include "landscape/geometry/PairModelAlignment.h"

namespace landscape {

BasinHoppingHooks pairModelHooks(const PairModel& model) {
  BasinHoppingHooks hooks;
  if (model.speciesCount() > 1 || model.box.periodic()) {
    const AlignmentParams alignment = pairAlignment(model, AlignmentParams{});
    hooks.distance = [alignment](const std::vector<double>& a, const std::vector<double>& b) {
      return minimumDistance(a, b, alignment);
    };
  }
  if (!model.box.periodic()) return hooks;
  hooks.randomStructure = [box = model.box, atoms = model.atoms()](Random& random) {
    return randomBoxStructure(atoms, box, kBoxRandomStartSeparation, random);
  };
  hooks.extraMove = [box = model.box](std::vector<double>& x, Random&) { wrapIntoBox(x, box); };
  return hooks;
}

}  // namespace landscape
