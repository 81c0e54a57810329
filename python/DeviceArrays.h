#pragma once
// CUDA device arrays through DLPack (nanobind ndarray with device=cuda): any producer of
// __dlpack__ (CuPy, PyTorch, JAX, or landscape.cuda.to_device) hands its device pointer straight to
// a device-resident potential, without copies. Compiles in every build; without CUDA support the
// functions raise RuntimeError.
#include <optional>

#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "python/Arrays.h"

namespace landscape::python {

using DeviceIn = nb::ndarray<const double, nb::c_contig, nb::device::cuda>;
using DeviceOut = nb::ndarray<double, nb::c_contig, nb::device::cuda>;

/// (energy, gradient) on device arrays: the gradient is written into `out` (a device array; the
/// same object is returned) or into a new device array shaped like x. Throws std::invalid_argument
/// for host-only potentials.
nb::tuple deviceEnergyGradient(Potential& p, DeviceIn x, nb::object out);
/// The energy at a device array x (a scratch device gradient is used).
double deviceEnergy(Potential& p, DeviceIn x);
/// (energies [B] on the device, gradients [B x n] on the device) for device coordinates [B x ...]:
/// new device arrays, or written into out = (energies, gradients) (device arrays; returned).
nb::tuple deviceBatchedEnergyGradient(BatchedPotential& p, DeviceIn x, nb::object out);

}  // namespace landscape::python
