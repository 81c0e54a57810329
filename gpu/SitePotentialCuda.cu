#include "gpu/BatchOfOne.cuh"
#include "gpu/BatchedSitePotentialCuda.h"
#include "gpu/SitePotentialCuda.h"

namespace landscape {

// One structure is a batch of one (gpu/BatchOfOne.cuh).
struct SitePotentialCuda::DeviceState : BatchOfOne<BatchedSitePotentialCuda> {
  using BatchOfOne::BatchOfOne;
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
  return m_device->energyGradientDevice(d_x, d_g);
}

double SitePotentialCuda::energyGradient(const double* x, double* g) {
  return m_device->energyGradient(x, g);
}

double SitePotentialCuda::energy(const double* x) { return m_device->energyOnly(x); }

SitePotential& SitePotentialCuda::reference() {
  if (!m_reference) m_reference = std::make_unique<SitePotential>(m_device->batched.model());
  return *m_reference;
}

std::vector<EnergyComponent> SitePotentialCuda::energyComponents(const double* x) {
  return reference().energyComponents(x);
}

}  // namespace landscape
