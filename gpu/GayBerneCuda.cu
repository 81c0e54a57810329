#include "gpu/BatchedGayBerneCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/GayBerneCuda.h"

namespace landscape {

// One structure is a batch of one: one code path for B = 1 and B > 1.
struct GayBerneCuda::DeviceState {
  DeviceState(const GayBerneParams& params, std::size_t ellipsoids)
      : batched(params, ellipsoids), x(batched.dimension()), g(batched.dimension()), energy(1) {}
  BatchedGayBerneCuda batched;
  DeviceBuffer<double> x, g;  // for host callers
  DeviceBuffer<double> energy;
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
  DeviceState& d = *m_device;
  d.batched.energyGradientDevice(1, d_x, d_g, d.energy.data(), nullptr, nullptr);
  double e = 0.0;
  d.energy.copyToHost(&e, 1);  // synchronises (legacy stream) and reports a kernel fault here
  return e;
}

double GayBerneCuda::energyGradient(const double* x, double* g) {
  DeviceState& d = *m_device;
  const std::size_t n = dimension();
  d.x.copyFromHost(x, n);
  const double e = energyGradientDevice(d.x.data(), d.g.data());
  d.g.copyToHost(g, n);
  return e;
}

double GayBerneCuda::energy(const double* x) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, dimension());
  return energyGradientDevice(d.x.data(), d.g.data());
}

bool GayBerneCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  if (!m_reference)
    m_reference =
        std::make_unique<GayBerne>(m_device->batched.params(), m_device->batched.ellipsoidCount());
  return m_reference->perAtomEnergies(x, atomEnergies);
}

}  // namespace landscape
