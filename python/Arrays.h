#pragma once
// numpy arrays in and out of the bindings: size checks that name what was expected, and new
// float64 arrays that own their memory (a capsule frees it when Python drops the array).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <string>
#include <vector>

namespace landscape::python {

namespace nb = nanobind;

/// A host float64 array, C-contiguous; other dtypes and orders are converted (copied) on entry.
using HostIn = nb::ndarray<const double, nb::c_contig, nb::device::cpu>;
/// A host float64 array the bindings write into (no conversion: it must already be float64, C
/// order).
using HostOut = nb::ndarray<double, nb::c_contig, nb::device::cpu>;
/// What the bindings return: a numpy array.
using NumpyArray = nb::ndarray<nb::numpy, double>;

/// The shape of any ndarray as a vector.
template <typename Array>
std::vector<std::size_t> shapeOf(const Array& a) {
  std::vector<std::size_t> shape(a.ndim());
  for (std::size_t k = 0; k < a.ndim(); ++k) shape[k] = a.shape(k);
  return shape;
}

/// "(38, 3)" for messages.
std::string shapeText(const std::vector<std::size_t>& shape);

/// A number for messages, %.10g ("1e+300", "1.5", "40").
std::string numberText(double value);

/// Throws std::invalid_argument (Python ValueError) "<what>: <name> has shape S (K values) but the
/// potential needs N values (A atoms x 3)" when got != expected.
void requireValues(std::size_t got, std::size_t expected, const std::vector<std::size_t>& shape,
                   const std::string& what, const std::string& name);

/// Coordinates: as requireValues, and shaped (N / 3, 3) or flat (N,) only (a transposed (3, A)
/// array has the right count and the wrong atoms).
void requireCoordinates(std::size_t got, std::size_t expected,
                        const std::vector<std::size_t>& shape, const std::string& what,
                        const std::string& name);

/// Throws std::invalid_argument naming the first NaN or infinity of x[n] (a search's start).
void requireFinite(const double* x, std::size_t n, const std::string& what,
                   const std::string& name);

/// A new numpy array of `shape` holding `values` (moved; values.size() must match the shape).
template <typename T>
nb::ndarray<nb::numpy, T> numpyOf(std::vector<T> values, const std::vector<std::size_t>& shape) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(owned->data(), shape.size(), shape.data(), owner);
}
inline NumpyArray numpyFrom(std::vector<double> values, const std::vector<std::size_t>& shape) {
  return numpyOf<double>(std::move(values), shape);
}

/// `values` as (n / 3, 3) when its size is a multiple of 3, else flat.
NumpyArray numpyCoordinates(std::vector<double> values);

}  // namespace landscape::python
