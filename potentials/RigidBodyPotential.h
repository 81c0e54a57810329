#pragma once
// Local rigid bodies over any atomistic Potential (Mantell, Pitt and Wales, J. Chem. Theory Comput.
// 2016, section 2.1): the coordinates are rigid coordinates (RigidBodySystem.h: centres, angle-axis
// vectors, free atoms); each call maps them to atoms (eq 5), evaluates the atomistic potential with
// its full interactions and projects the gradient (eqs 6-10). CPU reference; the CUDA twin is
// gpu/RigidBodyCuda.
//
// Energies are the atomistic potential's; gradients are energy/length for centres and free atoms
// and energy/radian for angle-axis components. Convergence uses the angle-axis metric
// (hasGradientMetric(), RigidBodySystem::rmsGradient).
#include <vector>

#include "potentials/Potential.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {

class RigidBodyPotential : public Potential {
 public:
  /// `atomistic` must outlive this object and have 3 x system.atomCount() coordinates (throws
  /// std::invalid_argument otherwise). Its host entry points are used.
  RigidBodyPotential(Potential& atomistic, RigidBodySystem system);

  const RigidBodySystem& system() const { return m_system; }
  Potential& atomistic() { return m_atomistic; }

  std::size_t dimension() const override { return m_system.dimension(); }
  std::string name() const override;
  Backend backend() const override { return m_atomistic.backend(); }
  double energy(const double* q) override;
  double energyGradient(const double* q, double* g) override;
  std::vector<EnergyComponent> energyComponents(const double* q) override;
  bool hasGradientMetric() const override { return true; }
  double rmsGradient(const double* q, const double* g) override;
  bool overallMotionModes(const double* q, std::vector<double>& modes) const override {
    m_system.overallMotionModes(q, modes);
    return true;
  }
  bool diagonalMetric(std::vector<double>& w) const override {
    w = m_system.diagonalMetric();
    return true;
  }

 private:
  Potential& m_atomistic;
  RigidBodySystem m_system;
  std::vector<double> m_x, m_g;  // atomistic scratch
};

/// "B rigid bodies (largest n atoms), F free atoms" for logs.
std::string describeRigidBodies(const RigidBodySystem& system);

}  // namespace landscape
