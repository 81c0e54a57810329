#include "python/PythonPotential.h"

#include <nanobind/stl/string.h>

#include <functional>
#include <stdexcept>
#include <utility>

#include "python/Arrays.h"

namespace landscape::python {

namespace {

// "evaluation 17 of morse's energy_gradient": where an error arose.
std::string evaluationText(long evaluation, const std::string& name) {
  return "evaluation " + std::to_string(evaluation) + " of " + name + "'s energy_gradient";
}

// The Python override of energy_gradient called on `argument`; an exception it raises gets the
// note "raised in <where()>" (Python 3.11 and later) and goes on to the algorithm's caller.
nb::object callEnergyGradient(const nb::detail::trampoline& trampoline, const NumpyArray& argument,
                              const std::function<std::string()>& where) {
  constexpr std::uint64_t hash = nb::detail::str_hash("energy_gradient");
  nb::detail::ticket ticket(trampoline, "energy_gradient", hash, true);
  try {
    return trampoline.base().attr(ticket.key)(argument);
  } catch (nb::python_error& e) {
    const nb::handle value = e.value();
    if (nb::hasattr(value, "add_note")) value.attr("add_note")("raised in " + where());
    throw;
  }
}

}  // namespace

PythonPotential::PythonPotential(std::size_t dimension, std::string name)
    : m_dimension(dimension), m_name(std::move(name)), m_gradient(dimension) {
  if (dimension == 0)
    throw std::invalid_argument(
        "landscape.Potential: dimension must be at least 1 (3 x atoms "
        "for Cartesian coordinates)");
  if (m_name.empty()) m_name = "Python potential";
}

double PythonPotential::energy(const double* x) { return energyGradient(x, m_gradient.data()); }

double PythonPotential::energyGradient(const double* x, double* g) {
  nb::gil_scoped_acquire gil;
  const long evaluation = ++m_evaluations;
  const std::vector<std::size_t> shape = m_dimension % 3 == 0
                                             ? std::vector<std::size_t>{m_dimension / 3, 3}
                                             : std::vector<std::size_t>{m_dimension};
  // A new array each call: the method may keep or change it without touching the algorithm's.
  NumpyArray coordinates = numpyFrom(std::vector<double>(x, x + m_dimension), shape);
  const nb::object result = callEnergyGradient(nb_trampoline, coordinates,
                                               [&] { return evaluationText(evaluation, m_name); });
  const auto where = [&] { return " (" + evaluationText(evaluation, m_name) + ")"; };
  if (!nb::isinstance<nb::tuple>(result) || nb::len(result) != 2)
    throw std::invalid_argument(
        "energy_gradient must return (energy, gradient), a tuple of 2; "
        "it returned " +
        nb::cast<std::string>(nb::repr(result)).substr(0, 80) + where());
  double energy = 0.0;
  if (!nb::try_cast(result[0], energy))
    throw std::invalid_argument("energy_gradient returned an energy that is not a number: " +
                                nb::cast<std::string>(nb::repr(result[0])).substr(0, 80) + where());
  const nb::handle returned = result[1];
  // float64 only: a float32 model's gradient would pass its round-off on silently. A strided
  // float64 array is copied into C order; a C-ordered one (the usual case) is read in place.
  nb::ndarray<const double, nb::c_contig, nb::device::cpu> gradient;
  nb::object contiguous;
  if (!nb::try_cast(returned, gradient, false)) {
    const auto dtypeName = [&returned] {
      const nb::object dtype = nb::getattr(returned, "dtype", nb::none());
      const nb::object name =
          dtype.is_none() ? nb::object() : nb::getattr(dtype, "name", nb::none());
      return name.is_valid() && nb::isinstance<nb::str>(name) ? nb::cast<std::string>(name)
                                                              : std::string();
    };
    if (dtypeName() == "float64") {
      contiguous = nb::module_::import_("numpy").attr("ascontiguousarray")(returned);
      if (!nb::try_cast(contiguous, gradient, false)) contiguous = nb::object();
    }
    if (!contiguous.is_valid()) {
      std::string what = nb::cast<std::string>(returned.type().attr("__name__"));
      if (!dtypeName().empty()) what += " and dtype " + dtypeName();
      throw std::invalid_argument("energy_gradient returned a gradient of type " + what +
                                  ": a numpy array of float64 on the host is needed "
                                  "(numpy.asarray(g, dtype=numpy.float64))" +
                                  where());
    }
  }
  const std::vector<std::size_t> got = shapeOf(gradient);
  if (got != shape && got != std::vector<std::size_t>{m_dimension})
    throw std::invalid_argument(
        "energy_gradient returned a gradient of shape " + shapeText(got) + " but " +
        shapeText(shape) + " is needed" +
        (shape.size() == 2 ? " (or " + shapeText({m_dimension}) + ")" : std::string()) + where());
  std::copy(gradient.data(), gradient.data() + m_dimension, g);
  return energy;
}

PythonBatchedPotential::PythonBatchedPotential(std::size_t dimension, std::string name)
    : m_dimension(dimension), m_name(std::move(name)) {
  if (dimension == 0)
    throw std::invalid_argument(
        "landscape.BatchedPotential: dimension must be at least 1 (3 x "
        "atoms)");
  if (m_name.empty()) m_name = "Python batched potential";
}

void PythonBatchedPotential::energyGradient(std::size_t batch, const double* x, double* g,
                                            double* energy, const std::uint8_t* active) {
  std::vector<std::size_t> rows;
  for (std::size_t b = 0; b < batch; ++b)
    if (active == nullptr || active[b] != 0) rows.push_back(b);
  if (rows.empty()) return;
  nb::gil_scoped_acquire gil;
  const long call = ++m_calls;
  const std::size_t n = m_dimension, count = rows.size();
  std::vector<double> staged(count * n);
  for (std::size_t k = 0; k < count; ++k)
    std::copy(x + rows[k] * n, x + (rows[k] + 1) * n, staged.begin() + k * n);
  const std::vector<std::size_t> shape =
      n % 3 == 0 ? std::vector<std::size_t>{count, n / 3, 3} : std::vector<std::size_t>{count, n};
  NumpyArray structures = numpyFrom(std::move(staged), shape);
  const auto where = [&] {
    return " (call " + std::to_string(call) + " of " + m_name + "'s energy_gradient, " +
           std::to_string(count) + " structures)";
  };
  const nb::object result = callEnergyGradient(nb_trampoline, structures, [&] {
    return "call " + std::to_string(call) + " of " + m_name + "'s energy_gradient";
  });
  if (!nb::isinstance<nb::tuple>(result) || nb::len(result) != 2)
    throw std::invalid_argument("energy_gradient must return (energies, gradients), a tuple of 2" +
                                where());
  nb::ndarray<const double, nb::c_contig, nb::device::cpu> energies, gradients;
  if (!nb::try_cast(result[0], energies, false) || !nb::try_cast(result[1], gradients, false))
    throw std::invalid_argument(
        "energy_gradient must return C-contiguous float64 numpy arrays on "
        "the host (numpy.ascontiguousarray(a, dtype=numpy.float64))" +
        where());
  if (energies.size() != count || shapeOf(gradients) != shape)
    throw std::invalid_argument("energy_gradient returned energies of shape " +
                                shapeText(shapeOf(energies)) + " and gradients of shape " +
                                shapeText(shapeOf(gradients)) + " but (" + std::to_string(count) +
                                ",) and " + shapeText(shape) + " are needed" + where());
  for (std::size_t k = 0; k < count; ++k) {
    energy[rows[k]] = energies.data()[k];
    std::copy(gradients.data() + k * n, gradients.data() + (k + 1) * n, g + rows[k] * n);
  }
}

}  // namespace landscape::python
