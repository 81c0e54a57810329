#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpu/BatchedHostStaging.h"
#include "gpu/BatchedRigidBodyCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/DeviceMemoryPlan.h"
#include "gpu/DeviceWideSync.h"
#include "gpu/GpuDevice.h"
#include "gpu/RigidBodyKernels.cuh"
#include "potentials/RigidBodyPotential.h"

namespace landscape {

namespace {

std::vector<int> toInt(const std::vector<std::size_t>& v) {
  std::vector<int> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<int>(v[i]);
  return out;
}

void requireArrays(std::size_t batch, const void* q, const void* g, const void* energy,
                   const char* where) {
  if (batch > 0 && (!q || !g || !energy))
    throw std::invalid_argument(std::string("batched rigid bodies on cuda, ") + where +
                                ": coordinates, gradients and energies must not be null");
}

}  // namespace

struct BatchedRigidBodyCuda::DeviceState {
  explicit DeviceState(const RigidBodySystem& s) {
    if (s.atomCount() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3))
      throw std::invalid_argument("rigid bodies (cuda): too many atoms for 32-bit indices");
    if (!gpuAvailable())
      throw std::runtime_error("rigid bodies on cuda: no CUDA device (" + gpuDescription() + ")");
    std::vector<int> entryBody;
    for (std::size_t b = 0; b < s.bodyCount(); ++b) {
      entryBody.insert(entryBody.end(), s.bodySize(b), static_cast<int>(b));
      largestBody = std::max(largestBody, static_cast<int>(s.bodySize(b)));
    }
    const RigidReductionPlan plan = makeRigidReductionPlan(s);
    std::vector<RigidPassBlock> allBlocks;
    for (const auto& p : plan.passes) {
      passOffset.push_back(allBlocks.size());
      passSize.push_back(p.size());
      allBlocks.insert(allBlocks.end(), p.begin(), p.end());
    }
    bodyStart = DeviceBuffer<int>(toInt(s.bodyStart()));
    bodyOfEntry = DeviceBuffer<int>(entryBody);
    bodyAtoms = DeviceBuffer<int>(toInt(s.bodyAtoms()));
    reference = DeviceBuffer<double>(s.referenceOffsets());
    secondMoment = DeviceBuffer<double>(s.secondMoments());
    freeAtoms = DeviceBuffer<int>(toInt(s.freeAtoms()));
    smallBodies = DeviceBuffer<int>(plan.warpBodies);
    blocks = DeviceBuffer<RigidPassBlock>(allBlocks);
    args.bodies = s.bodyCount();
    args.entries = s.bodyAtoms().size();
    args.freeAtoms = s.freeAtomCount();
    args.atoms = s.atomCount();
    args.partialStride = plan.maxPartials;
    args.d_bodyStart = bodyStart.data();
    args.d_bodyOfEntry = bodyOfEntry.data();
    args.d_bodyAtoms = bodyAtoms.data();
    args.d_reference = reference.data();
    args.d_freeAtoms = freeAtoms.data();
  }

  std::size_t bytesPerStructure() const {
    return sizeof(double) * (kRigidRotationStride * args.bodies + 6 * args.atoms +
                             12 * args.partialStride);
  }

  void reserve(std::size_t batch) {
    if (batch <= reservedBatch) return;
    requireScratchFits(
        "batched rigid bodies on cuda", batch, bytesPerStructure(),
        rotation.bytes() + atomX.bytes() + atomG.bytes() + partialA.bytes() + partialB.bytes());
    for (DeviceBuffer<double>* b : {&rotation, &atomX, &atomG, &partialA, &partialB})
      *b = DeviceBuffer<double>();  // free first: old and new need not fit together
    reservedBatch = 0;
    rotation = DeviceBuffer<double>(batch * kRigidRotationStride * args.bodies);
    atomX = DeviceBuffer<double>(batch * 3 * args.atoms);
    atomG = DeviceBuffer<double>(batch * 3 * args.atoms);
    partialA = DeviceBuffer<double>(batch * 6 * args.partialStride);
    partialB = DeviceBuffer<double>(batch * 6 * args.partialStride);
    // Defined contents: rows of inactive structures are handed to the atomistic potential.
    atomX.zero();
    atomG.zero();
    synchronizeDevice();  // zeroed before any stream's next launch
    args.d_rotation = rotation.data();
    reservedBatch = batch;
  }

  RigidBodyArgs argsFor(const std::uint8_t* d_active) const {
    RigidBodyArgs a = args;
    a.d_active = d_active;
    return a;
  }

  // The tree width of the compact kernels, or 0 for the general ones.
  int compactWidth() const {
    return layout == RigidKernelLayout::Automatic ? rigidCompactTreeWidth(largestBody) : 0;
  }

  void toAtoms(std::size_t batch, const double* d_q, double* d_x, const std::uint8_t* d_active,
               cudaStream_t stream) {
    const RigidBodyArgs a = argsFor(d_active);
    if (compactWidth() > 0) {
      launchRigidCompactToAtoms(a, batch, d_q, d_x, stream);
      return;
    }
    launchRigidRotations(a, batch, d_q, stream);
    launchRigidToAtoms(a, batch, d_q, d_x, stream);
  }

  // The rigid gradient at d_q from the atomistic one in atomG (after toAtoms of d_q).
  void project(std::size_t batch, const double* d_q, double* d_g, const std::uint8_t* d_active,
               cudaStream_t stream) {
    const RigidBodyArgs a = argsFor(d_active);
    if (const int width = compactWidth(); width > 0) {
      launchRigidCompactProject(a, batch, width, d_q, atomG.data(), d_g, stream);
      return;
    }
    launchRigidSmallBodies(a, batch, smallBodies.data(), smallBodies.size(), atomG.data(), d_g,
                           stream);
    for (std::size_t k = 0; k < passOffset.size(); ++k) {
      // Pass k writes partials to buffer k % 2 and reads those of pass k - 1 from the other.
      double* out = (k % 2 == 0) ? partialA.data() : partialB.data();
      const double* in = (k % 2 == 0) ? partialB.data() : partialA.data();
      launchRigidBodyPass(a, batch, blocks.data() + passOffset[k], passSize[k], k == 0,
                          atomG.data(), in, out, d_g, stream);
    }
    launchRigidFreeAtoms(a, batch, atomG.data(), d_g, stream);
  }

  RigidBodyArgs args;
  int largestBody = 0;
  RigidKernelLayout layout = RigidKernelLayout::Automatic;
  std::size_t reservedBatch = 0;
  DeviceBuffer<int> bodyStart, bodyOfEntry, bodyAtoms, freeAtoms, smallBodies;
  DeviceBuffer<double> reference, secondMoment;
  DeviceBuffer<RigidPassBlock> blocks;
  std::vector<std::size_t> passOffset, passSize;
  DeviceBuffer<double> rotation;            // [B x 36 bodies]
  DeviceBuffer<double> atomX, atomG;        // [B x 3N] atomistic scratch
  DeviceBuffer<double> partialA, partialB;  // [B x 6 partialStride] partial body sums
  BatchedHostStaging staging;               // the host entry point's arrays
  DeviceBuffer<double> rmsQ, rmsG, rms;     // the host RMS gradients' arrays
  DeviceBuffer<std::uint8_t> rmsActive;
};

BatchedRigidBodyCuda::BatchedRigidBodyCuda(BatchedPotential& atomistic, RigidBodySystem system,
                                           std::size_t reserveBatch, RigidKernelLayout layout)
    : m_atomistic(atomistic), m_system(std::move(system)) {
  if (m_atomistic.dimension() != 3 * m_system.atomCount())
    throw std::invalid_argument("batched rigid bodies on cuda: the potential " +
                                m_atomistic.name() + " has " +
                                std::to_string(m_atomistic.dimension() / 3) +
                                " atoms, the rigid-body system " +
                                std::to_string(m_system.atomCount()));
  if (!m_atomistic.isDeviceResident())
    throw std::invalid_argument("batched rigid bodies on cuda: the atomistic potential " +
                                m_atomistic.name() + " has no device entry point");
  if (reserveBatch == 0)
    throw std::invalid_argument("batched rigid bodies on cuda: reserveBatch must be at least 1");
  m_device = std::make_unique<DeviceState>(m_system);
  m_device->layout = layout;
  m_device->reserve(reserveBatch);
}

BatchedRigidBodyCuda::~BatchedRigidBodyCuda() = default;

std::string BatchedRigidBodyCuda::name() const {
  return m_atomistic.name() + " with " + describeRigidBodies(m_system) + " (cuda)";
}

void BatchedRigidBodyCuda::reserve(std::size_t batch) {
  m_device->reserve(batch);
  m_atomistic.reserve(batch);
}
std::size_t BatchedRigidBodyCuda::reserved() const { return m_device->reservedBatch; }
std::size_t BatchedRigidBodyCuda::scratchBytesPerStructure() const {
  return m_device->bytesPerStructure();
}
std::size_t BatchedRigidBodyCuda::bytesPerStructure() const {
  return scratchBytesPerStructure() + m_atomistic.bytesPerStructure();
}

void BatchedRigidBodyCuda::energyGradientDevice(std::size_t batch, const double* d_q, double* d_g,
                                                double* d_energy, const std::uint8_t* d_active,
                                                DeviceStream stream) {
  requireArrays(batch, d_q, d_g, d_energy, "device entry point");
  if (batch == 0) return;
  DeviceState& d = *m_device;
  d.reserve(batch);
  const cudaStream_t s = static_cast<cudaStream_t>(stream);
  d.toAtoms(batch, d_q, d.atomX.data(), d_active, s);
  m_atomistic.energyGradientDevice(batch, d.atomX.data(), d.atomG.data(), d_energy, d_active,
                                   stream);
  d.project(batch, d_q, d_g, d_active, s);
}

void BatchedRigidBodyCuda::toAtomsDevice(std::size_t batch, const double* d_q, double* d_x,
                                         const std::uint8_t* d_active, DeviceStream stream) {
  if (batch == 0) return;
  m_device->reserve(batch);
  m_device->toAtoms(batch, d_q, d_x, d_active, static_cast<cudaStream_t>(stream));
}

void BatchedRigidBodyCuda::metricSumsDevice(std::size_t batch, const double* d_q,
                                            const double* d_g, double* d_sums,
                                            const std::uint8_t* d_active, DeviceStream stream) {
  if (batch == 0) return;
  if (!d_g) throw std::invalid_argument("batched rigid bodies on cuda: null gradient array");
  const DeviceState& d = *m_device;
  launchRigidMetricNorm(d.argsFor(d_active), batch, d_q, d_g, d.secondMoment.data(), d_sums,
                        static_cast<cudaStream_t>(stream));
}

void BatchedRigidBodyCuda::rmsGradientsDevice(std::size_t batch, const double* d_q,
                                              const double* d_g, double* d_rms,
                                              const std::uint8_t* d_active, DeviceStream stream) {
  if (batch == 0) return;
  if (!d_q || !d_g || !d_rms)
    throw std::invalid_argument(
        "batched rigid bodies on cuda, RMS gradients: coordinates, gradients and RMS must not be "
        "null");
  const DeviceState& d = *m_device;
  launchRigidMetricRms(d.argsFor(d_active), batch, d_q, d_g, d.secondMoment.data(), d_rms,
                       static_cast<cudaStream_t>(stream));
}

void BatchedRigidBodyCuda::rmsGradients(std::size_t batch, const double* q, const double* g,
                                        double* rms, const std::uint8_t* active) {
  if (batch == 0) return;
  if (!q || !g || !rms)
    throw std::invalid_argument(
        "batched rigid bodies on cuda, RMS gradients: coordinates, gradients and RMS must not be "
        "null");
  DeviceState& d = *m_device;
  const std::size_t n = dimension();
  if (d.rms.size() < batch) {
    d.rmsQ = DeviceBuffer<double>(batch * n);
    d.rmsG = DeviceBuffer<double>(batch * n);
    d.rms = DeviceBuffer<double>(batch);
    d.rmsActive = DeviceBuffer<std::uint8_t>(batch);
  }
  d.rmsQ.copyFromHost(q, batch * n);
  d.rmsG.copyFromHost(g, batch * n);
  if (active) d.rmsActive.copyFromHost(active, batch);
  rmsGradientsDevice(batch, d.rmsQ.data(), d.rmsG.data(), d.rms.data(),
                     active ? d.rmsActive.data() : nullptr, nullptr);
  std::vector<double> out(batch);
  d.rms.copyToHost(out.data(), batch);  // synchronous: reports the kernel's faults
  for (std::size_t b = 0; b < batch; ++b)
    if (!active || active[b]) rms[b] = out[b];
}

BatchedPotential::HostArrays BatchedRigidBodyCuda::hostArrays(std::size_t batch) {
  return m_device->staging.arrays(batch, dimension());
}

void BatchedRigidBodyCuda::preferOnDevice() { m_device->staging.preferOnDevice(); }

void BatchedRigidBodyCuda::energyGradient(std::size_t batch, const double* q, double* g,
                                          double* energy, const std::uint8_t* active) {
  requireArrays(batch, q, g, energy, "host entry point");
  if (batch == 0) return;
  m_device->staging.run(*this, batch, q, g, energy, active);
}

}  // namespace landscape
