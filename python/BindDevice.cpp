// landscape.cuda: device arrays that the module itself can make (to_device, empty, to_host), so
// that zero-copy calls work where no CuPy or PyTorch is installed, and the device entry points of
// the potentials.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpu/GpuDevice.h"
#include "python/Bindings.h"
#include "python/DeviceArrays.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace landscape::python {

namespace {

using namespace nb::literals;
// New device arrays go back to Python as nanobind's array-API objects (__dlpack__,
// __dlpack_device__), which every DLPack consumer -- this module included -- accepts; a bare
// DLPack capsule would not be.
using DeviceArray = nb::ndarray<nb::array_api, double, nb::device::cuda>;

[[noreturn]] void noCuda(const std::string& what) {
  throw std::runtime_error(what +
                           ": this build has no CUDA support (build with nvcc present, "
                           "LANDSCAPE_CUDA=AUTO or ON)");
}

#ifdef LANDSCAPE_HAVE_CUDA
void check(cudaError_t status, const std::string& what) {
  if (status != cudaSuccess) throw std::runtime_error(what + ": " + cudaGetErrorString(status));
}

/// A new device array of `shape` owning cudaMalloc'd memory (freed when Python drops it).
DeviceArray newDeviceArray(const std::vector<std::size_t>& shape, const std::string& what) {
  if (!gpuAvailable()) throw std::runtime_error(what + ": " + gpuDescription());
  std::size_t count = 1;
  for (std::size_t s : shape) count *= s;
  void* data = nullptr;
  check(cudaMalloc(&data, std::max<std::size_t>(count, 1) * sizeof(double)), what);
  nb::capsule owner(data, [](void* p) noexcept { cudaFree(p); });
  int device = 0;
  check(cudaGetDevice(&device), what);
  return DeviceArray(data, shape.size(), shape.data(), owner, nullptr, nb::dtype<double>(),
                     nb::device::cuda::value, device);
}
#endif

void requireDeviceResident(const Potential& p, const std::string& what) {
  if (!p.isDeviceResident())
    throw std::invalid_argument(what + ": " + p.name() +
                                " runs on the host; pass a numpy array, or build the potential "
                                "with backend='cuda' for device arrays");
}

DeviceArray toDevice(HostIn x) {
#ifdef LANDSCAPE_HAVE_CUDA
  DeviceArray d = newDeviceArray(shapeOf(x), "to_device");
  check(cudaMemcpy(d.data(), x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice),
        "to_device");
  return d;
#else
  (void)x;
  noCuda("to_device");
#endif
}

NumpyArray toHost(DeviceIn d) {
#ifdef LANDSCAPE_HAVE_CUDA
  std::vector<double> host(d.size());
  check(cudaMemcpy(host.data(), d.data(), d.size() * sizeof(double), cudaMemcpyDeviceToHost),
        "to_host");
  return numpyFrom(std::move(host), shapeOf(d));
#else
  (void)d;
  noCuda("to_host");
#endif
}

DeviceArray emptyDevice(const std::vector<std::size_t>& shape) {
#ifdef LANDSCAPE_HAVE_CUDA
  DeviceArray d = newDeviceArray(shape, "empty");
  check(cudaMemset(d.data(), 0, d.size() * sizeof(double)), "empty");
  return d;
#else
  (void)shape;
  noCuda("empty");
#endif
}

}  // namespace

nb::tuple deviceEnergyGradient(Potential& p, DeviceIn x, nb::object out) {
  requireDeviceResident(p, "energy_gradient");
  requireCoordinates(x.size(), p.dimension(), shapeOf(x), "energy_gradient", "x");
#ifdef LANDSCAPE_HAVE_CUDA
  if (!out.is_none()) {  // written in place and handed back as the caller's own object
    DeviceOut g;
    if (!nb::try_cast(out, g))
      throw std::invalid_argument("energy_gradient: out must be a C-contiguous float64 CUDA array");
    requireCoordinates(g.size(), p.dimension(), shapeOf(g), "energy_gradient", "out");
    const double e = p.energyGradientDevice(x.data(), g.data());
    return nb::make_tuple(e, out);
  }
  DeviceArray g = newDeviceArray(shapeOf(x), "energy_gradient");
  const double e = p.energyGradientDevice(x.data(), g.data());
  return nb::make_tuple(e, g);
#else
  (void)out;
  noCuda("energy_gradient");
#endif
}

double deviceEnergy(Potential& p, DeviceIn x) {
  return nb::cast<double>(deviceEnergyGradient(p, x, nb::none())[0]);
}

nb::tuple deviceBatchedEnergyGradient(BatchedPotential& p, DeviceIn x, nb::object out) {
  if (!p.isDeviceResident())
    throw std::invalid_argument("energy_gradient: " + p.name() +
                                " runs on the host; pass a numpy array");
  const std::size_t n = p.dimension();
  if (x.ndim() < 2 || x.size() % n != 0 || x.shape(0) * n != x.size())
    throw std::invalid_argument("energy_gradient: x has shape " + shapeText(shapeOf(x)) +
                                " but (B, " + std::to_string(n / 3) + ", 3) is needed");
#ifdef LANDSCAPE_HAVE_CUDA
  const std::size_t batch = x.shape(0);
  if (!out.is_none()) {  // written in place (a model's out=), handed back as the caller's objects
    DeviceOut e, g;
    if (!nb::isinstance<nb::tuple>(out) || nb::len(out) != 2 || !nb::try_cast(out[0], e) ||
        !nb::try_cast(out[1], g))
      throw std::invalid_argument(
          "energy_gradient: out must be (energies, gradients), C-contiguous float64 CUDA arrays");
    if (e.size() != batch || g.size() != x.size())
      throw std::invalid_argument("energy_gradient: out holds arrays of shapes " +
                                  shapeText(shapeOf(e)) + " and " + shapeText(shapeOf(g)) +
                                  " but (" + std::to_string(batch) + ",) and " +
                                  shapeText(shapeOf(x)) + " are needed");
    p.energyGradientDevice(batch, x.data(), g.data(), e.data(), nullptr, nullptr);
    check(cudaDeviceSynchronize(), "energy_gradient");
    return nb::borrow<nb::tuple>(out);
  }
  DeviceArray g = newDeviceArray(shapeOf(x), "energy_gradient");
  DeviceArray e = newDeviceArray({batch}, "energy_gradient");
  p.energyGradientDevice(batch, x.data(), g.data(), e.data(), nullptr, nullptr);
  check(cudaDeviceSynchronize(), "energy_gradient");
  return nb::make_tuple(e, g);
#else
  (void)out;
  noCuda("energy_gradient");
#endif
}

void bindDeviceArrays(nb::module_& m) {
  nb::module_ cuda = m.def_submodule(
      "cuda",
      "Device arrays without CuPy or PyTorch: to_device/to_host/empty make DLPack-capable CUDA "
      "arrays (float64) that the device-resident potentials read and write in place.");
  cuda.def("available", &gpuAvailable, "True when this build has CUDA and a device is present.");
  cuda.def("description", &gpuDescription, "The device, or why none is usable.");
  cuda.def("to_device", &toDevice, "x"_a, "A new device copy of host array x (float64).");
  cuda.def("to_host", &toHost, "x"_a, "A numpy copy of device array x.");
  cuda.def("empty", &emptyDevice, "shape"_a, "A new zero-filled float64 device array.");
  cuda.def(
      "copy_from_host",
      [](DeviceOut destination, HostIn source) {
        requireValues(source.size(), destination.size(), shapeOf(source), "copy_from_host",
                      "source");
#ifdef LANDSCAPE_HAVE_CUDA
        check(cudaMemcpy(destination.data(), source.data(), source.size() * sizeof(double),
                         cudaMemcpyHostToDevice),
              "copy_from_host");
#else
        noCuda("copy_from_host");
#endif
      },
      "destination"_a, "source"_a, "Copies host array source into device array destination.");
  cuda.def(
      "data_pointer", [](DeviceIn x) { return reinterpret_cast<std::uintptr_t>(x.data()); }, "x"_a,
      "The device address of x's data (for checking that nothing was copied).");
}

}  // namespace landscape::python
