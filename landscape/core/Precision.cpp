#include "landscape/core/Precision.h"

#include <algorithm>
#include <stdexcept>

#include "landscape/core/InputChecks.h"

namespace landscape {

Precision parsePrecision(const std::string& name) {
  if (name == "double") return Precision::Double;
  if (name == "mixed") return Precision::Mixed;
  if (name == "single" || name == "float") return Precision::Single;
  throw std::invalid_argument("precision must be 'double', 'mixed' or 'single', not " +
                              quoteInput(name));
}

std::string precisionName(Precision precision) {
  switch (precision) {
    case Precision::Double: return "double";
    case Precision::Mixed: return "mixed";
    case Precision::Single: return "single";
  }
  return "unknown";
}

const std::vector<Precision>& amberGbPrecisions() {
  static const std::vector<Precision> supported = {Precision::Double, Precision::Mixed};
  return supported;
}

const std::vector<Precision>& sopDynamicsPrecisions() {
  static const std::vector<Precision> supported = {Precision::Double, Precision::Single};
  return supported;
}

void requirePrecision(Precision precision, const std::vector<Precision>& supported,
                      const std::string& model) {
  if (std::find(supported.begin(), supported.end(), precision) != supported.end()) return;
  std::string names;
  for (std::size_t i = 0; i < supported.size(); ++i) {
    names += (i == 0 ? "" : i + 1 == supported.size() ? " or " : ", ");
    names += precisionName(supported[i]);
  }
  throw std::invalid_argument(model + " implements precision " + names + ", not " +
                              precisionName(precision));
}

}  // namespace landscape
