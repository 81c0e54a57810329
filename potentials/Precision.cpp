#include "potentials/Precision.h"

#include <stdexcept>

#include "potentials/InputChecks.h"

namespace landscape {

Precision parsePrecision(const std::string& name) {
  if (name == "double") return Precision::Double;
  if (name == "mixed") return Precision::Mixed;
  throw std::invalid_argument("precision must be 'double' or 'mixed', not " + quoteInput(name));
}

std::string precisionName(Precision precision) {
  return precision == Precision::Double ? "double" : "mixed";
}

}  // namespace landscape
