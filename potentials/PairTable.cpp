#include "potentials/PairTable.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "landscape/core/InputChecks.h"
#include "potentials/PairTerms.h"

namespace landscape {

void PairTable::evaluate(double r, double& value, double& derivative) const {
  PairCoefficients p;
  p.tablePieces = pieces();
  p.tableStart = start;
  p.tableWidth = width;
  p.tableInverseWidth = 1.0 / width;
  tabulatedPairValue(p, coefficients.data(), r, value, derivative);
}

PairTable pairTableFromSamples(double start, double spacing, const std::vector<double>& values,
                               const std::string& source) {
  if (values.size() < 3 || values.size() % 2 == 0)
    throw std::invalid_argument("pair table " + source + ": needs an odd number of samples, at " +
                                "least 3 (2 per piece plus the last knot), got " +
                                std::to_string(values.size()));
  if (!(spacing > 0.0) || !std::isfinite(spacing) || !std::isfinite(start))
    throw std::invalid_argument("pair table " + source +
                                ": the first r and the spacing must be finite, the spacing > 0");
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!std::isfinite(values[k]))
      throw std::invalid_argument("pair table " + source + ": sample " + std::to_string(k + 1) +
                                  " is not a finite number");
  PairTable t;
  t.start = start;
  t.width = 2.0 * spacing;
  t.source = source;
  const double w = t.width;
  for (std::size_t i = 0; 2 * i + 2 < values.size(); ++i) {
    const double c = values[2 * i];
    const double h = values[2 * i + 1] - c;  // rise to the middle knot
    const double g = values[2 * i + 2] - c;  // rise to the end knot
    t.coefficients.push_back((2.0 * g - 4.0 * h) / (w * w));
    t.coefficients.push_back((4.0 * h - g) / w);
    t.coefficients.push_back(c);
  }
  return t;
}

PairTable tabulatePairFunction(const std::function<double(double)>& f, double start, double end,
                               int pieces, const std::string& source) {
  if (pieces < 1 || !(end > start))
    throw std::invalid_argument("tabulatePairFunction: needs pieces >= 1 and end > start");
  const double spacing = (end - start) / (2.0 * pieces);
  std::vector<double> values(2 * static_cast<std::size_t>(pieces) + 1);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = f(start + k * spacing);
  return pairTableFromSamples(start, spacing, values, source);
}

PairTable readPairTable(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the pair table file");
  std::vector<double> r, v;
  std::vector<int> lineOf;
  std::string line;
  int lineNumber = 0;
  while (std::getline(in, line)) {
    ++lineNumber;
    const std::string where = path + ":" + std::to_string(lineNumber);
    std::istringstream fields(line);
    std::string first;
    if (!(fields >> first) || first[0] == '#') continue;
    std::string second, extra;
    if (!(fields >> second) || (fields >> extra))
      throw std::runtime_error(where + ": expected two numbers, r and V(r), found " +
                               quoteInput(line));
    const auto rv = parseFortranReal(first), vv = parseFortranReal(second);
    if (!rv) throw std::runtime_error(where + ": r is " + describeBadReal(first));
    if (!vv) throw std::runtime_error(where + ": V(r) is " + describeBadReal(second));
    if (!r.empty() && !(*rv > r.back()))
      throw std::runtime_error(where + ": r must increase from row to row, found " + first +
                               " after " + std::to_string(r.back()));
    r.push_back(*rv);
    v.push_back(*vv);
    lineOf.push_back(lineNumber);
  }
  if (r.size() < 3 || r.size() % 2 == 0)
    throw std::runtime_error(path + ": a pair table needs an odd number of rows, at least 3 " +
                             "(2 per interpolation piece plus the last knot), found " +
                             std::to_string(r.size()));
  const double spacing = (r.back() - r.front()) / static_cast<double>(r.size() - 1);
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double expected = r.front() + static_cast<double>(k) * spacing;
    if (std::fabs(r[k] - expected) > 1e-6 * spacing)
      throw std::runtime_error(path + ":" + std::to_string(lineOf[k]) +
                               ": rows must be evenly spaced in r (spacing " +
                               std::to_string(spacing) + "); this r is off by " +
                               std::to_string(r[k] - expected));
  }
  return pairTableFromSamples(r.front(), spacing, v, path);
}

}  // namespace landscape
