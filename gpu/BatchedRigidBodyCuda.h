#pragma once
// Local rigid bodies for B structures on a CUDA device: the twin of
// potentials/BatchedRigidBodyPotential over a device-resident batched atomistic potential (e.g.
// gpu/BatchedLennardJonesCuda, gpu/BatchedAmberGbCuda). One evaluation on `stream`: the rotations
// of every body of every active structure, the atoms (eq 5 of Mantell et al. 2016), the atomistic
// batch's device entry point, then the per-body sums of the chain-rule terms (eqs 6-10) in a fixed
// tree (gpu/RigidBodyKernels.cuh), never synchronising with the host. The rigid energy is the
// atomistic energy, written by the atomistic potential into the caller's array.
//
// A structure's energy and gradient are the same bits whatever the batch size, its index and the
// mask (the rigid sums depend on the system only, and the atomistic batch has this property
// too); they equal the CPU twin to rounding (the atomistic potentials' and the order of the body
// sums). gpu/RigidBodyCuda is the B = 1 user of this class (over gpu/PotentialBatchCuda), so
// both share one code path.
//
// Scratch per structure: rotations (36 doubles per body), atoms and atomistic gradient (6N
// doubles) and the partial sums of bodies of more than 256 atoms; it grows when a batch is larger
// than any before it (cudaMalloc after a device synchronisation); reserve() or the constructor's
// `reserveBatch` does that beforehand, so that a captured CUDA graph (the rounds engine) sees no
// allocation. Units: the atomistic potential's; gradient components energy/length for centres
// and free atoms, energy/radian for angle-axis components. CUDA-free header (pimpl); the class
// exists only in CUDA builds. Not thread-safe. Systems of small bodies (molecules of a few sites)
// run compact kernels with a thread per atom or body of every structure (RigidKernelLayout).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "potentials/BatchedPotential.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

/// Which kernels turn rigid coordinates into atoms and atomistic gradients into rigid ones.
/// Automatic: the compact ones (a thread per atom or body of every structure;
/// gpu/RigidBodyKernels.cuh) where every body has at most 8 atoms, else the general ones; General:
/// always the general ones. They agree to rounding; the choice depends on the system alone, so a
/// structure's bits still do not depend on the batch.
enum class RigidKernelLayout { Automatic, General };

class BatchedRigidBodyCuda : public BatchedPotential {
 public:
  /// `atomistic` must be device resident, outlive this object and have 3 x system.atomCount()
  /// coordinates per structure; reserveBatch >= 1. Throws std::invalid_argument otherwise and
  /// std::runtime_error without a device or when the scratch does not fit.
  BatchedRigidBodyCuda(BatchedPotential& atomistic, RigidBodySystem system,
                       std::size_t reserveBatch = 1,
                       RigidKernelLayout layout = RigidKernelLayout::Automatic);
  ~BatchedRigidBodyCuda() override;

  const RigidBodySystem& system() const { return m_system; }
  BatchedPotential& atomistic() { return m_atomistic; }
  const BatchedPotential& atomistic() const { return m_atomistic; }

  std::size_t dimension() const override { return m_system.dimension(); }
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  /// Host entry point (BatchedPotential): the active structures' rows are copied in and out
  /// (synchronous, legacy default stream). Throws std::invalid_argument for a null array.
  void energyGradient(std::size_t batch, const double* q, double* g, double* energy,
                      const std::uint8_t* active) override;
  /// The host entry point's own page-locked arrays (gpu/BatchedHostStaging.h).
  HostArrays hostArrays(std::size_t batch) override;
  void preferOnDevice() override;
  bool isDeviceResident() const override { return true; }
  /// The rigid layer keeps nothing per row between calls: as its atomistic potential.
  bool rowsMayMove() const override { return m_atomistic.rowsMayMove(); }
  /// Device entry point (BatchedPotential): d_q, d_g [batch x dimension()], d_energy [batch],
  /// d_active [batch] or nullptr, all device memory; enqueued on `stream`, not synchronised
  /// (except to grow the scratch, see above). Throws std::invalid_argument for a null array.
  void energyGradientDevice(std::size_t batch, const double* d_q, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  /// The metric of potentials/BatchedRigidBodyPotential (RigidBodySystem::diagonalMetric, the
  /// angle-axis RMS). rmsGradientsDevice: one block per active structure in a fixed order
  /// (gpu/RigidBodyKernels.cuh launchRigidMetricRms), equal to RigidBodySystem::rmsGradient to
  /// rounding; rmsGradients (host) copies q, g and the mask in and runs the same kernel, so its
  /// bits are the device entry point's (synchronous, legacy default stream).
  bool diagonalMetric(std::vector<double>& w) const override {
    w = m_system.diagonalMetric();
    return true;
  }
  bool hasGradientMetric() const override { return true; }
  void rmsGradients(std::size_t batch, const double* q, const double* g, double* rms,
                    const std::uint8_t* active) override;
  void rmsGradientsDevice(std::size_t batch, const double* d_q, const double* d_g, double* d_rms,
                          const std::uint8_t* d_active, DeviceStream stream) override;

  /// Atoms d_x [batch x 3N] of the active structures of d_q, on `stream`, not synchronised.
  void toAtomsDevice(std::size_t batch, const double* d_q, double* d_x,
                     const std::uint8_t* d_active, DeviceStream stream);
  /// 3N x (angle-axis RMS)^2 of each active structure's gradient d_g at d_q into d_sums[batch]
  /// (RigidBodySystem::rmsGradient before its square root and division), on `stream`.
  void metricSumsDevice(std::size_t batch, const double* d_q, const double* d_g, double* d_sums,
                        const std::uint8_t* d_active, DeviceStream stream);

  /// Makes room for batches of up to `batch` structures, this object's scratch and then the
  /// atomistic potential's (synchronous; BatchedPotential). Throws std::runtime_error naming the
  /// bytes per structure and the largest batch that fits (gpu/DeviceMemoryPlan.h).
  void reserve(std::size_t batch) override;
  /// Structures the scratch holds now.
  std::size_t reserved() const;
  /// Device scratch per structure (bytes) of this object alone.
  std::size_t scratchBytesPerStructure() const;
  /// Device scratch per structure (bytes; BatchedPotential): this object's and the atomistic
  /// potential's.
  std::size_t bytesPerStructure() const override;

 private:
  struct DeviceState;
  BatchedPotential& m_atomistic;
  RigidBodySystem m_system;
  std::unique_ptr<DeviceState> m_device;
};

}  // namespace landscape
