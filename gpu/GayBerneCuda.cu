#include "gpu/BatchOfOne.cuh"
#include "gpu/BatchedGayBerneCuda.h"
#include "gpu/GayBerneCuda.h"

namespace landscape {

// One structure is a batch of one (gpu/BatchOfOne.cuh).
struct GayBerneCuda::DeviceState : BatchOfOne<BatchedGayBerneCuda> {
  using BatchOfOne::BatchOfOne;
};

GayBerneCuda::GayBerneCuda(const GayBerneParams& params, std::size_t ellipsoids)
    : m_device(std::make_unique<DeviceState>(params, ellipsoids)) {}

GayBerneCuda::~GayBerneCuda() = default;

std::size_t GayBerneCuda::dimension() const { return m_device->batched.dimension(); }

std::string GayBerneCuda::name() const {
  std::string n = GayBerne(m_device->batched.params(), m_device->batched.ellipsoidCount()).name();
  return n.substr(0, n.rfind("(cpu)")) + "(cuda)";
}

double GayBerneCuda::energyGradientDevice(const double* d_x, double* d_g) {
  return m_device->energyGradientDevice(d_x, d_g);
}

double GayBerneCuda::energyGradient(const double* x, double* g) {
  return m_device->energyGradient(x, g);
}

double GayBerneCuda::energy(const double* x) { return m_device->energyOnly(x); }

bool GayBerneCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  if (!m_reference)
    m_reference =
        std::make_unique<GayBerne>(m_device->batched.params(), m_device->batched.ellipsoidCount());
  return m_reference->perAtomEnergies(x, atomEnergies);
}

}  // namespace landscape
