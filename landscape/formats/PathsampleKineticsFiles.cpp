#include "landscape/formats/PathsampleKineticsFiles.h"

#include <cmath>

#include "landscape/formats/LowestFile.h"

namespace landscape {

std::string formatCommitData(const std::vector<double>& committorA) {
  std::string text;
  for (double q : committorA) text += detail::fortranG(std::isnan(q) ? 0.0 : q, 20, 10) + "\n";
  return text;
}

std::string formatRatesFile(const std::vector<RatesFileRow>& rows) {
  std::string text;
  for (const RatesFileRow& row : rows) {
    text += detail::fortranG(row.temperature, 20, 10) + detail::fortranG(row.aFromB, 20, 10) +
            detail::fortranG(row.bFromA, 20, 10) + "\n";
  }
  return text;
}

}  // namespace landscape
