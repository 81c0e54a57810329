#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/RigidBodyCuda.h"
#include "gpu/RigidBodyKernels.cuh"
#include "potentials/RigidBodyPotential.h"

namespace landscape {

namespace {

std::vector<int> toInt(const std::vector<std::size_t>& v) {
  std::vector<int> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<int>(v[i]);
  return out;
}

}  // namespace

struct RigidBodyCuda::DeviceState {
  DeviceState(Potential& atomistic, const RigidBodySystem& s) : pot(atomistic) {
    if (s.atomCount() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3))
      throw std::invalid_argument("rigid bodies (cuda): too many atoms for 32-bit indices");
    std::vector<int> bodyOfEntry;
    for (std::size_t b = 0; b < s.bodyCount(); ++b)
      bodyOfEntry.insert(bodyOfEntry.end(), s.bodySize(b), static_cast<int>(b));
    const RigidReductionPlan plan = makeRigidReductionPlan(s);
    const std::vector<int>& small = plan.warpBodies;
    const std::size_t maxPartials = plan.maxPartials;
    std::vector<RigidPassBlock> allBlocks;
    for (const auto& p : plan.passes) {
      passOffset.push_back(allBlocks.size());
      passSize.push_back(p.size());
      allBlocks.insert(allBlocks.end(), p.begin(), p.end());
    }

    bodyStart = DeviceBuffer<int>(toInt(s.bodyStart()));
    this->bodyOfEntry = DeviceBuffer<int>(bodyOfEntry);
    bodyAtoms = DeviceBuffer<int>(toInt(s.bodyAtoms()));
    reference = DeviceBuffer<double>(s.referenceOffsets());
    secondMoment = DeviceBuffer<double>(s.secondMoments());
    freeAtoms = DeviceBuffer<int>(toInt(s.freeAtoms()));
    rotation = DeviceBuffer<double>(kRigidRotationStride * s.bodyCount());
    smallBodies = DeviceBuffer<int>(small);
    blocks = DeviceBuffer<RigidPassBlock>(allBlocks);
    partialA = DeviceBuffer<double>(6 * maxPartials);
    partialB = DeviceBuffer<double>(6 * maxPartials);
    atomX = DeviceBuffer<double>(3 * s.atomCount());
    atomG = DeviceBuffer<double>(3 * s.atomCount());
    q = DeviceBuffer<double>(s.dimension());
    g = DeviceBuffer<double>(s.dimension());
    scalar = DeviceBuffer<double>(1);
    if (!pot.isDeviceResident()) {
      hostX.resize(3 * s.atomCount());
      hostG.resize(3 * s.atomCount());
    }
    args.bodies = s.bodyCount();
    args.entries = s.bodyAtoms().size();
    args.freeAtoms = s.freeAtomCount();
    args.d_bodyStart = bodyStart.data();
    args.d_bodyOfEntry = this->bodyOfEntry.data();
    args.d_bodyAtoms = bodyAtoms.data();
    args.d_reference = reference.data();
    args.d_freeAtoms = freeAtoms.data();
    args.d_rotation = rotation.data();
    atoms = s.atomCount();
  }

  void toAtoms(const double* d_q, double* d_x) {
    launchRigidRotations(args, d_q, nullptr);
    launchRigidToAtoms(args, d_q, d_x, nullptr);
  }

  double evaluate(const double* d_q, double* d_g) {
    toAtoms(d_q, atomX.data());
    double e;
    if (pot.isDeviceResident()) {
      e = pot.energyGradientDevice(atomX.data(), atomG.data());
    } else {
      atomX.copyToHost(hostX.data(), hostX.size());
      e = pot.energyGradient(hostX.data(), hostG.data());
      atomG.copyFromHost(hostG.data(), hostG.size());
    }
    launchRigidSmallBodies(args, smallBodies.data(), smallBodies.size(), atomG.data(), d_g,
                           nullptr);
    for (std::size_t k = 0; k < passOffset.size(); ++k) {
      // Pass k writes partials to buffer k % 2 and reads those of pass k - 1 from the other.
      double* out = (k % 2 == 0) ? partialA.data() : partialB.data();
      const double* in = (k % 2 == 0) ? partialB.data() : partialA.data();
      launchRigidBodyPass(args, blocks.data() + passOffset[k], passSize[k], k == 0, atomG.data(),
                          in, out, d_g, nullptr);
    }
    launchRigidFreeAtoms(args, atomG.data(), d_g, nullptr);
    return e;
  }

  double metricRms(const double* d_q, const double* d_g) {
    launchRigidMetricNorm(args, d_q, d_g, secondMoment.data(), scalar.data(), nullptr);
    double sum = 0.0;
    scalar.copyToHost(&sum, 1);  // synchronous: reports errors of every kernel before it
    return std::sqrt(sum / static_cast<double>(3 * atoms));
  }

  Potential& pot;
  RigidBodyArgs args;
  std::size_t atoms = 0;
  DeviceBuffer<int> bodyStart, bodyOfEntry, bodyAtoms, freeAtoms, smallBodies;
  DeviceBuffer<double> reference, secondMoment, rotation;
  DeviceBuffer<RigidPassBlock> blocks;
  std::vector<std::size_t> passOffset, passSize;
  DeviceBuffer<double> partialA, partialB;  // 6 doubles per partial sum
  DeviceBuffer<double> atomX, atomG;        // 3N atomistic scratch
  DeviceBuffer<double> q, g;                // staging for the host entry points
  DeviceBuffer<double> scalar;
  std::vector<double> hostX, hostG;  // staging for host-only atomistic potentials
};

RigidBodyCuda::RigidBodyCuda(Potential& atomistic, RigidBodySystem system)
    : m_atomistic(atomistic), m_system(std::move(system)) {
  if (m_atomistic.dimension() != 3 * m_system.atomCount())
    throw std::invalid_argument("rigid bodies (cuda): the potential " + m_atomistic.name() +
                                " has " + std::to_string(m_atomistic.atomCount()) +
                                " atoms, the rigid-body system " +
                                std::to_string(m_system.atomCount()));
  m_device = std::make_unique<DeviceState>(m_atomistic, m_system);
}

RigidBodyCuda::~RigidBodyCuda() = default;

std::string RigidBodyCuda::name() const {
  return m_atomistic.name() + " with " + describeRigidBodies(m_system) + " (cuda)";
}

double RigidBodyCuda::energy(const double* q) {
  m_device->q.copyFromHost(q, dimension());
  return m_device->evaluate(m_device->q.data(), m_device->g.data());
}

double RigidBodyCuda::energyGradient(const double* q, double* g) {
  m_device->q.copyFromHost(q, dimension());
  const double e = m_device->evaluate(m_device->q.data(), m_device->g.data());
  m_device->g.copyToHost(g, dimension());
  return e;
}

std::vector<EnergyComponent> RigidBodyCuda::energyComponents(const double* q) {
  return m_atomistic.energyComponents(
      m_system.toAtoms(std::vector<double>(q, q + dimension())).data());
}

double RigidBodyCuda::energyGradientDevice(const double* d_q, double* d_g) {
  if (d_q == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() + ": energyGradientDevice needs device arrays, got null");
  return m_device->evaluate(d_q, d_g);
}

double RigidBodyCuda::rmsGradient(const double* q, const double* g) {
  return m_system.rmsGradient(q, g);
}

double RigidBodyCuda::rmsGradientDevice(const double* d_q, const double* d_g) {
  if (d_q == nullptr || d_g == nullptr)
    throw std::invalid_argument(name() + ": rmsGradientDevice needs device arrays, got null");
  return m_device->metricRms(d_q, d_g);
}

void RigidBodyCuda::toAtomsDevice(const double* d_q, double* d_x) {
  m_device->toAtoms(d_q, d_x);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

}  // namespace landscape
