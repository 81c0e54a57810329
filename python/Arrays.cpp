#include "python/Arrays.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace landscape::python {

std::string shapeText(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    s += (k ? ", " : "") + std::to_string(shape[k]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string numberText(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

void requireValues(std::size_t got, std::size_t expected, const std::vector<std::size_t>& shape,
                   const std::string& what, const std::string& name) {
  if (got == expected) return;
  std::string need = std::to_string(expected) + " values";
  if (expected % 3 == 0) need += " (" + std::to_string(expected / 3) + " x 3)";
  throw std::invalid_argument(what + ": " + name + " has shape " + shapeText(shape) + " (" +
                              std::to_string(got) + " values) but " + need + " are needed");
}

void requireCoordinates(std::size_t got, std::size_t expected,
                        const std::vector<std::size_t>& shape, const std::string& what,
                        const std::string& name) {
  // (atoms, 3) or flat: a transposed (3, atoms) array has the right count and the wrong atoms.
  const bool atomsByThree = expected % 3 == 0 && shape == std::vector<std::size_t>{expected / 3, 3};
  if (got == expected && (shape.size() == 1 || atomsByThree)) return;
  const std::string need = expected % 3 == 0 ? "shape (" + std::to_string(expected / 3) +
                                                   ", 3) or (" + std::to_string(expected) + ",)"
                                             : "shape (" + std::to_string(expected) + ",)";
  throw std::invalid_argument(what + ": " + name + " has shape " + shapeText(shape) + " (" +
                              std::to_string(got) + " values) but " + need + " is needed" +
                              (got == expected && shape.size() == 2 && shape[0] == 3
                                   ? " (a transposed array? pass x.T)"
                                   : ""));
}

void requireFinite(const double* x, std::size_t n, const std::string& what,
                   const std::string& name) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i]))
      throw std::invalid_argument(what + ": " + name + " holds a non-finite value (" +
                                  numberText(x[i]) + " at flat index " + std::to_string(i) +
                                  "): the start of a search must be finite");
}

NumpyArray numpyCoordinates(std::vector<double> values) {
  const std::size_t n = values.size();
  if (n % 3 == 0 && n > 0) return numpyFrom(std::move(values), {n / 3, 3});
  return numpyFrom(std::move(values), {n});
}

}  // namespace landscape::python
