#pragma once
// Local rigid bodies for B structures at once, CPU reference: a BatchedPotential
// in rigid coordinates (RigidBodySystem.h: centres, angle-axis vectors, free atoms) over a batched
// atomistic potential of the same atoms. One call maps the active structures to atoms (eq 5 of
// Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016), evaluates the atomistic batch once, and
// projects each structure's atomistic gradient to its rigid gradient (eqs 6-10); the transform and
// the projection of the structures are spread over a ThreadPool. Each structure goes through
// RigidBodySystem's toAtoms and projectGradient, as potentials/RigidBodyPotential does, so a
// structure's energy and gradient are that potential's bits (over the single-structure potential
// whose bits the atomistic batch gives), whatever the batch, the mask and the thread count. The
// CUDA twin is gpu/BatchedRigidBodyCuda.
//
// Units: the atomistic potential's (kcal/mol and Angstrom for AMBER-GB, reduced for LJ); gradient
// components are energy/length for centres and free atoms, energy/radian for angle-axis ones.
// The metric is RigidBodyPotential's: diagonalMetric (RigidBodySystem::diagonalMetric) and the
// angle-axis RMS (RigidBodySystem::rmsGradient, per structure, the same bits), which batched
// minimisers use as Lbfgs does (docs/lbfgs.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "potentials/BatchedPotential.h"
#include "potentials/RigidBodySystem.h"
#include "landscape/core/ThreadPool.h"

namespace landscape {

class BatchedRigidBodyPotential : public BatchedPotential {
 public:
  /// `atomistic` must outlive this object and have 3 x system.atomCount() coordinates per
  /// structure; threads >= 1 for the transform and the projection (the atomistic batch has its
  /// own). Throws std::invalid_argument otherwise.
  BatchedRigidBodyPotential(BatchedPotential& atomistic, RigidBodySystem system, int threads = 1);

  const RigidBodySystem& system() const { return m_system; }
  BatchedPotential& atomistic() { return m_atomistic; }

  std::size_t dimension() const override { return m_system.dimension(); }
  std::string name() const override;
  Backend backend() const override { return Backend::Cpu; }
  /// Host entry point (BatchedPotential). Keeps [B x 3N] atoms and atomistic gradients as
  /// scratch, grown to the largest batch seen.
  void energyGradient(std::size_t batch, const double* q, double* g, double* energy,
                      const std::uint8_t* active) override;

  bool diagonalMetric(std::vector<double>& w) const override {
    w = m_system.diagonalMetric();
    return true;
  }
  bool hasGradientMetric() const override { return true; }
  /// RigidBodySystem::rmsGradient of every active structure, spread over the thread pool.
  void rmsGradients(std::size_t batch, const double* q, const double* g, double* rms,
                    const std::uint8_t* active) override;

 private:
  BatchedPotential& m_atomistic;
  RigidBodySystem m_system;
  ThreadPool m_pool;
  std::vector<double> m_x, m_g;  // [B x 3N] atomistic scratch
};

}  // namespace landscape
