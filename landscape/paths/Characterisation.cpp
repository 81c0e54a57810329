#include "landscape/paths/Characterisation.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"
#include "landscape/geometry/InertiaTensor.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "landscape/minimisation/NumericalHessian.h"

namespace landscape {

void CharacterisationParams::check() const {
  require(std::isfinite(hessianStep) && hessianStep > 0.0,
          "characterisation hessianStep must be > 0 (length)");
  for (double m : masses) {
    require(std::isfinite(m) && m > 0.0, "characterisation masses must be > 0 (amu)");
  }
  try {
    pointGroup.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("characterisation pointGroup: ") + e.what());
  }
}

namespace {

/// The log product and, for small systems, all 3N eigenvalues of the (mass-weighted) Hessian.
void characteriseHessian(Potential& potential, const std::vector<double>& x,
                         const CharacterisationParams& params, StationaryPointProperties& p) {
  Eigen::MatrixXd hessian = params.backend.hessian
                                ? params.backend.hessian(x, params.hessianStep)
                                : numericalHessian(potential, x, params.hessianStep);
  if (!params.masses.empty()) massWeightHessian(hessian, params.masses);
  if (potential.atomCount() <= params.maxSpectrumAtoms) {
    const HessianSpectrum full = hessianSpectrum(hessian);
    p.hessianEigenvalues.assign(full.eigenvalues.data(),
                                full.eigenvalues.data() + full.eigenvalues.size());
  }
  const RigidBodyModes modes =
      params.masses.empty() ? RigidBodyModes(x) : RigidBodyModes::massWeighted(x, params.masses);
  p.logProductOfPositiveEigenvalues = params.backend.logProduct
                                          ? params.backend.logProduct(hessian, modes).logProduct
                                          : hessianLogProduct(hessian, modes).logProduct;
}

}  // namespace

StationaryPointProperties characterise(Potential& potential, const std::vector<double>& x,
                                       const CharacterisationParams& params) {
  params.check();
  if (x.size() != potential.dimension()) {
    throw std::invalid_argument("characterise: " + std::to_string(x.size()) +
                                " coordinates, the potential expects " +
                                std::to_string(potential.dimension()));
  }
  if (!params.masses.empty() && 3 * params.masses.size() != x.size()) {
    throw std::invalid_argument("characterise: " + std::to_string(params.masses.size()) +
                                " masses for " + std::to_string(x.size() / 3) + " atoms");
  }
  StationaryPointProperties properties;
  const PointGroup group = findPointGroup(x, params.pointGroup);
  properties.pointGroupOrder = group.order;
  const Eigen::Vector3d moments = principalMomentsOfInertia(x, params.masses);
  for (int k = 0; k < 3; ++k) properties.principalMoments[k] = moments[k];
  if (potential.atomCount() <= params.maxHessianAtoms) {
    characteriseHessian(potential, x, params, properties);
  }
  return properties;
}

}  // namespace landscape
