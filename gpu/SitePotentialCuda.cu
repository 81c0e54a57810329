#include "gpu/BatchedSitePotentialCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/SitePotentialCuda.h"

namespace landscape {

// One structure is a batch of one: one code path for B = 1 and B > 1.
struct SitePotentialCuda::DeviceState {
  explicit DeviceState(const SiteModel& model)
      : batched(model), x(batched.dimension()), g(batched.dimension()), energy(1) {}
  BatchedSitePotentialCuda batched;
  DeviceBuffer<double> x, g;  // for host callers
  DeviceBuffer<double> energy;
};

SitePotentialCuda::SitePotentialCuda(const SiteModel& model)
    : m_device(std::make_unique<DeviceState>(model)) {}

SitePotentialCuda::~SitePotentialCuda() = default;

std::size_t SitePotentialCuda::dimension() const { return m_device->batched.dimension(); }

std::string SitePotentialCuda::name() const {
  const SiteModel& m = m_device->batched.model();
  return "sites " + (m.name.empty() ? std::string() : m.name + ", ") +
         std::to_string(m.siteCount()) + " sites of " + std::to_string(m.moleculeCount()) +
         " molecules (cuda)";
}

double SitePotentialCuda::energyGradientDevice(const double* d_x, double* d_g) {
  DeviceState& d = *m_device;
  d.batched.energyGradientDevice(1, d_x, d_g, d.energy.data(), nullptr, nullptr);
  double e = 0.0;
  d.energy.copyToHost(&e, 1);  // synchronises (legacy stream) and reports a kernel fault here
  return e;
}

double SitePotentialCuda::energyGradient(const double* x, double* g) {
  DeviceState& d = *m_device;
  const std::size_t n = dimension();
  d.x.copyFromHost(x, n);
  const double e = energyGradientDevice(d.x.data(), d.g.data());
  d.g.copyToHost(g, n);
  return e;
}

double SitePotentialCuda::energy(const double* x) {
  DeviceState& d = *m_device;
  d.x.copyFromHost(x, dimension());
  return energyGradientDevice(d.x.data(), d.g.data());
}

SitePotential& SitePotentialCuda::reference() {
  if (!m_reference) m_reference = std::make_unique<SitePotential>(m_device->batched.model());
  return *m_reference;
}

std::vector<EnergyComponent> SitePotentialCuda::energyComponents(const double* x) {
  return reference().energyComponents(x);
}

}  // namespace landscape
