#include "src/pathsample/PathsampleConfig.h"

namespace landscape {

std::string pathsampleModeName(PathsampleMode mode) {
  switch (mode) {
    case PathsampleMode::Import:
      return "import";
    case PathsampleMode::Export:
      return "export";
    case PathsampleMode::Rates:
      return "rates";
    case PathsampleMode::Committors:
      return "committors";
    case PathsampleMode::Regroup:
      return "regroup";
    case PathsampleMode::Grow:
      return "grow";
    case PathsampleMode::Kmc:
      return "kmc";
  }
  return "unknown";
}

std::string pathsampleUnitsName(PathsampleUnits units) {
  return units == PathsampleUnits::Molecular ? "molecular" : "reduced";
}

std::string pathsampleDirectionName(PathsampleDirection direction) {
  return direction == PathsampleDirection::BA ? "BA" : "AB";
}

std::string pairSelectionName(PairSelection selection) {
  switch (selection) {
    case PairSelection::Untrap:
      return "untrap";
    case PairSelection::Shortcut:
      return "shortcut";
    case PairSelection::Dijkstra:
      return "dijkstra";
  }
  return "unknown";
}

std::string dnebBandRelaxationName(DnebBandRelaxation r) {
  return r == DnebBandRelaxation::Images ? "images" : "whole";
}

std::string alignmentRunsName(AlignmentRuns a) {
  return a == AlignmentRuns::Whole ? "whole" : "host";
}

std::string transitionStateSearchRunsName(TransitionStateSearchRuns r) {
  return r == TransitionStateSearchRuns::Steps ? "steps" : "whole";
}

std::string shortcutByName(ShortcutBy by) {
  return by == ShortcutBy::Barrier ? "barrier" : "distance";
}

}  // namespace landscape
