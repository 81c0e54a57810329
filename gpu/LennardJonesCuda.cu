#include <stdexcept>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/LennardJonesCuda.h"
#include "gpu/LennardJonesKernels.cuh"

namespace landscape {

struct LennardJonesCuda::DeviceState {
  explicit DeviceState(std::size_t atoms)
      : m_x(3 * atoms),
        m_g(3 * atoms),
        m_atomEnergy(atoms),
        m_blockEnergy(lennardJonesBlockCount(atoms)),
        m_blocksDone(1),
        m_energy(1),
        m_atoms(atoms) {
    m_blocksDone.zero();  // the kernel leaves it at zero after every launch
    LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }

  /// Runs the kernel on device coordinates d_x writing the gradient to d_g; returns the energy.
  double evaluate(const double* d_x, double* d_g) {
    LennardJonesArgs args;
    args.d_x = d_x;
    args.d_g = d_g;
    args.d_atomEnergy = m_atomEnergy.data();
    args.d_blockEnergy = m_blockEnergy.data();
    args.d_blocksDone = m_blocksDone.data();
    args.d_energy = m_energy.data();
    args.atoms = m_atoms;
    launchLennardJones(args, nullptr);
    double e = 0.0;
    m_energy.copyToHost(&e, 1);  // synchronous: waits for the kernel, reports its errors
    return e;
  }

  DeviceBuffer<double> m_x;                 // 3N, staging for the host entry points
  DeviceBuffer<double> m_g;                 // 3N, staging for the host entry points
  DeviceBuffer<double> m_atomEnergy;        // N, full pair-energy sum per atom
  DeviceBuffer<double> m_blockEnergy;       // per-block partial sums (kernel scratch)
  DeviceBuffer<unsigned int> m_blocksDone;  // finished-block counter, zero between launches
  DeviceBuffer<double> m_energy;            // the total energy
  std::size_t m_atoms;
};

LennardJonesCuda::LennardJonesCuda(std::size_t atoms) : m_atoms(atoms) {
  if (atoms < 2) throw std::invalid_argument("a Lennard-Jones cluster needs at least 2 atoms");
  m_device = std::make_unique<DeviceState>(atoms);
}

LennardJonesCuda::~LennardJonesCuda() = default;

std::string LennardJonesCuda::name() const {
  return "Lennard-Jones " + std::to_string(m_atoms) + " atoms (cuda)";
}

double LennardJonesCuda::energy(const double* x) {
  m_device->m_x.copyFromHost(x, dimension());
  return m_device->evaluate(m_device->m_x.data(), m_device->m_g.data());
}

double LennardJonesCuda::energyGradient(const double* x, double* g) {
  m_device->m_x.copyFromHost(x, dimension());
  const double e = m_device->evaluate(m_device->m_x.data(), m_device->m_g.data());
  m_device->m_g.copyToHost(g, dimension());
  return e;
}

bool LennardJonesCuda::perAtomEnergies(const double* x, double* atomEnergies) {
  m_device->m_x.copyFromHost(x, dimension());
  m_device->evaluate(m_device->m_x.data(), m_device->m_g.data());
  m_device->m_atomEnergy.copyToHost(atomEnergies, m_atoms);
  return true;
}

double LennardJonesCuda::energyGradientDevice(const double* d_x, double* d_g) {
  if (d_x == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() +
                                ": energyGradientDevice needs device pointers d_x and d_g");
  return m_device->evaluate(d_x, d_g);
}

}  // namespace landscape
