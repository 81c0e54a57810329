#include "python/PythonPotential.h"

#include <nanobind/stl/string.h>

#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

#include "python/Arrays.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace landscape::python {

namespace {

// "evaluation 17 of morse's energy_gradient": where an error arose.
std::string evaluationText(long evaluation, const std::string& name) {
  return "evaluation " + std::to_string(evaluation) + " of " + name + "'s energy_gradient";
}

// The Python override of energy_gradient called on `argument`; an exception it raises gets the
// note "raised in <where()>" (Python 3.11 and later) and goes on to the algorithm's caller.
// With `out` (a model that fills the engine's arrays), the call is energy_gradient(argument,
// out=out).
template <typename Array>
nb::object callEnergyGradient(const nb::detail::trampoline& trampoline, const Array& argument,
                              const std::function<std::string()>& where,
                              nb::handle out = nb::handle()) {
  constexpr std::uint64_t hash = nb::detail::str_hash("energy_gradient");
  nb::detail::ticket ticket(trampoline, "energy_gradient", hash, true);
  try {
    const nb::object method = trampoline.base().attr(ticket.key);
    return out.is_valid() ? method(argument, nb::arg("out") = out) : method(argument);
  } catch (nb::python_error& e) {
    const nb::handle value = e.value();
    if (nb::hasattr(value, "add_note")) value.attr("add_note")("raised in " + where());
    throw;
  }
}

// A batched model's return, checked: (energies, gradients), C-contiguous float64 arrays on
// `Device`, `count` energies and gradients shaped `shape` (or, with anyShape, holding as many
// values). `arrays` says what is needed, where() which call it was.
template <typename Device>
std::pair<nb::ndarray<const double, nb::c_contig, Device>,
          nb::ndarray<const double, nb::c_contig, Device>>
checkedBatch(const nb::object& result, std::size_t count, const std::vector<std::size_t>& shape,
             bool anyShape, const char* arrays, const std::function<std::string()>& where) {
  if (!nb::isinstance<nb::tuple>(result) || nb::len(result) != 2)
    throw std::invalid_argument("energy_gradient must return (energies, gradients), a tuple of 2" +
                                where());
  nb::ndarray<const double, nb::c_contig, Device> energies, gradients;
  if (!nb::try_cast(result[0], energies, false) || !nb::try_cast(result[1], gradients, false))
    throw std::invalid_argument(std::string("energy_gradient must return ") + arrays + where());
  std::size_t values = 1;
  for (std::size_t s : shape) values *= s;
  const bool fits = anyShape ? gradients.size() == values : shapeOf(gradients) == shape;
  if (energies.size() != count || !fits)
    throw std::invalid_argument("energy_gradient returned energies of shape " +
                                shapeText(shapeOf(energies)) + " and gradients of shape " +
                                shapeText(shapeOf(gradients)) + " but (" + std::to_string(count) +
                                ",) and " + shapeText(shape) + " are needed" + where());
  return {energies, gradients};
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

PythonBatchedPotential::PythonBatchedPotential(std::size_t dimension, std::string name, bool device)
    : m_dimension(dimension), m_name(std::move(name)), m_device(device) {
#ifndef LANDSCAPE_HAVE_CUDA
  if (device)
    throw std::runtime_error(
        "landscape.BatchedPotential(device=True): this build has no CUDA "
        "support");
#endif
  if (dimension == 0)
    throw std::invalid_argument(
        "landscape.BatchedPotential: dimension must be at least 1 (3 x "
        "atoms)");
  if (m_name.empty()) m_name = "Python batched potential";
}

bool PythonBatchedPotential::fillsOut() {
  if (m_fillsOut >= 0) return m_fillsOut == 1;
  nb::gil_scoped_acquire gil;
  const nb::handle self = nb_trampoline.base();
  const nb::object declared = nb::getattr(self, "fills_out", nb::none());
  bool fills = false;
  if (!declared.is_none()) {
    fills = PyObject_IsTrue(declared.ptr()) == 1;
  } else {
    // energy_gradient(self, X, out): the signature says so.
    try {
      const nb::object parameters = nb::module_::import_("inspect")
                                        .attr("signature")(self.attr("energy_gradient"))
                                        .attr("parameters");
      fills = nb::cast<bool>(parameters.attr("__contains__")("out"));
    } catch (nb::python_error&) {
      fills = false;  // no signature to read (a compiled callable): the returning protocol
    }
  }
  m_fillsOut = fills ? 1 : 0;
  return fills;
}

void PythonBatchedPotential::energyGradient(std::size_t batch, const double* x, double* g,
                                            double* energy, const std::uint8_t* active) {
  if (m_device) return energyGradientThroughDevice(batch, x, g, energy, active);
  std::vector<std::size_t> rows;
  for (std::size_t b = 0; b < batch; ++b)
    if (active == nullptr || active[b] != 0) rows.push_back(b);
  if (rows.empty()) return;
  const bool fills = fillsOut();
  nb::gil_scoped_acquire gil;
  const long call = ++m_calls;
  const std::size_t n = m_dimension, count = rows.size();
  std::vector<double> staged(count * n);
  for (std::size_t k = 0; k < count; ++k)
    std::copy(x + rows[k] * n, x + (rows[k] + 1) * n, staged.begin() + k * n);
  const std::vector<std::size_t> shape =
      n % 3 == 0 ? std::vector<std::size_t>{count, n / 3, 3} : std::vector<std::size_t>{count, n};
  NumpyArray structures = numpyFrom(std::move(staged), shape);
  const auto called = [&] {
    return "call " + std::to_string(call) + " of " + m_name + "'s energy_gradient";
  };
  if (fills) {
    std::vector<double> unwritten(count, std::numeric_limits<double>::quiet_NaN());
    NumpyArray energiesOut = numpyFrom(std::move(unwritten), {count});
    NumpyArray gradientsOut = numpyFrom(std::vector<double>(count * n), shape);
    callEnergyGradient(nb_trampoline, structures, called,
                       nb::make_tuple(energiesOut, gradientsOut));
    for (std::size_t k = 0; k < count; ++k) {
      energy[rows[k]] = energiesOut.data()[k];
      std::copy(gradientsOut.data() + k * n, gradientsOut.data() + (k + 1) * n, g + rows[k] * n);
    }
    return;
  }
  const auto [energies, gradients] = checkedBatch<nb::device::cpu>(
      callEnergyGradient(nb_trampoline, structures, called), count, shape, false,
      "C-contiguous float64 numpy arrays on the host (numpy.ascontiguousarray(a, "
      "dtype=numpy.float64))",
      [&] { return " (" + called() + ", " + std::to_string(count) + " structures)"; });
  for (std::size_t k = 0; k < count; ++k) {
    energy[rows[k]] = energies.data()[k];
    std::copy(gradients.data() + k * n, gradients.data() + (k + 1) * n, g + rows[k] * n);
  }
}

#ifdef LANDSCAPE_HAVE_CUDA
namespace {

void checkCuda(cudaError_t status, const std::string& what) {
  if (status != cudaSuccess) throw std::runtime_error(what + ": " + cudaGetErrorString(status));
}

}  // namespace
#endif

void PythonBatchedPotential::energyGradientDevice(std::size_t batch, const double* d_x, double* d_g,
                                                  double* d_energy, const std::uint8_t* d_active,
                                                  DeviceStream stream) {
  (void)d_active;  // every structure is evaluated: a model computes its batch whole
#ifdef LANDSCAPE_HAVE_CUDA
  if (!m_device) throw std::logic_error(m_name + ": the device entry of a host model was called");
  if (batch == 0) return;
  const std::size_t n = m_dimension;
  const bool fills = fillsOut();
  // All bits set is a NaN: energies the model leaves unwritten read as non-finite.
  if (fills)
    checkCuda(
        cudaMemsetAsync(d_energy, 0xFF, batch * sizeof(double), static_cast<cudaStream_t>(stream)),
        m_name);
  // The engine wrote x on its stream; the model runs on its library's streams.
  checkCuda(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), m_name);
  nb::gil_scoped_acquire gil;
  const long call = ++m_calls;
  int deviceId = 0;
  checkCuda(cudaGetDevice(&deviceId), m_name);
  const std::vector<std::size_t> shape =
      n % 3 == 0 ? std::vector<std::size_t>{batch, n / 3, 3} : std::vector<std::size_t>{batch, n};
  // A view of the engine's array, valid for this call only: its owner frees nothing.
  const nb::capsule view(d_x, [](void*) noexcept {});
  const nb::ndarray<nb::array_api, const double, nb::device::cuda> structures(
      d_x, shape.size(), shape.data(), view, nullptr, nb::dtype<double>(), nb::device::cuda::value,
      deviceId);
  const auto called = [&] {
    return "call " + std::to_string(call) + " of " + m_name + "'s energy_gradient";
  };
  if (fills) {
    const nb::capsule engineOwned(d_g, [](void*) noexcept {});
    const std::size_t energyShape[1] = {batch};
    const nb::ndarray<nb::array_api, double, nb::device::cuda> energiesOut(
        d_energy, 1, energyShape, engineOwned, nullptr, nb::dtype<double>(),
        nb::device::cuda::value, deviceId);
    const nb::ndarray<nb::array_api, double, nb::device::cuda> gradientsOut(
        d_g, shape.size(), shape.data(), engineOwned, nullptr, nb::dtype<double>(),
        nb::device::cuda::value, deviceId);
    callEnergyGradient(nb_trampoline, structures, called,
                       nb::make_tuple(energiesOut, gradientsOut));
    // Its kernels ran on its library's streams: done before the engine reads the results.
    checkCuda(cudaDeviceSynchronize(), m_name + "'s energy_gradient");
    return;
  }
  const auto [energies, gradients] = checkedBatch<nb::device::cuda>(
      callEnergyGradient(nb_trampoline, structures, called), batch, shape, true,
      "C-contiguous float64 CUDA arrays (DLPack: CuPy, PyTorch, JAX)", [&] {
        return " (" + called() + ", " + std::to_string(batch) + " structures on the device)";
      });
  // The model's kernels ran on its own streams: wait for them, then copy on the legacy stream
  // (synchronous, so the engine's next kernels see the results).
  checkCuda(cudaDeviceSynchronize(), m_name + "'s energy_gradient");
  checkCuda(cudaMemcpy(d_g, gradients.data(), batch * n * sizeof(double), cudaMemcpyDeviceToDevice),
            m_name);
  checkCuda(cudaMemcpy(d_energy, energies.data(), batch * sizeof(double), cudaMemcpyDeviceToDevice),
            m_name);
#else
  (void)batch, (void)d_x, (void)d_g, (void)d_energy, (void)stream;
  throw std::runtime_error(m_name + ": this build has no CUDA support");
#endif
}

// A device model's host entry: the batch staged through device memory.
void PythonBatchedPotential::energyGradientThroughDevice(std::size_t batch, const double* x,
                                                         double* g, double* energy,
                                                         const std::uint8_t* active) {
#ifdef LANDSCAPE_HAVE_CUDA
  const std::size_t n = m_dimension;
  double *d_x = nullptr, *d_g = nullptr, *d_energy = nullptr;
  checkCuda(cudaMalloc(&d_x, batch * n * sizeof(double)), m_name);
  const auto release = [&] {
    cudaFree(d_x);
    cudaFree(d_g);
    cudaFree(d_energy);
  };
  try {
    checkCuda(cudaMalloc(&d_g, batch * n * sizeof(double)), m_name);
    checkCuda(cudaMalloc(&d_energy, batch * sizeof(double)), m_name);
    checkCuda(cudaMemcpy(d_x, x, batch * n * sizeof(double), cudaMemcpyHostToDevice), m_name);
    energyGradientDevice(batch, d_x, d_g, d_energy, nullptr, nullptr);
    std::vector<double> hostG(batch * n), hostE(batch);
    checkCuda(cudaMemcpy(hostG.data(), d_g, hostG.size() * sizeof(double), cudaMemcpyDeviceToHost),
              m_name);
    checkCuda(cudaMemcpy(hostE.data(), d_energy, batch * sizeof(double), cudaMemcpyDeviceToHost),
              m_name);
    for (std::size_t b = 0; b < batch; ++b) {
      if (active && !active[b]) continue;
      energy[b] = hostE[b];
      std::copy(hostG.begin() + b * n, hostG.begin() + (b + 1) * n, g + b * n);
    }
  } catch (...) {
    release();
    throw;
  }
  release();
#else
  (void)batch, (void)x, (void)g, (void)energy, (void)active;
  throw std::runtime_error(m_name + ": this build has no CUDA support");
#endif
}

}  // namespace landscape::python
