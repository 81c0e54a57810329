#include "landscape/paths/Characterisation.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"
#include "landscape/geometry/InertiaTensor.h"
#include "landscape/minimisation/NumericalHessian.h"

namespace landscape {

void CharacterisationParams::check() const {
  require(std::isfinite(hessianStep) && hessianStep > 0.0,
          "characterisation hessianStep must be > 0 (length)");
  try {
    pointGroup.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("characterisation pointGroup: ") + e.what());
  }
}

StationaryPointProperties characterise(Potential& potential, const std::vector<double>& x,
                                       const CharacterisationParams& params) {
  params.check();
  if (x.size() != potential.dimension()) {
    throw std::invalid_argument("characterise: " + std::to_string(x.size()) +
                                " coordinates, the potential expects " +
                                std::to_string(potential.dimension()));
  }
  StationaryPointProperties properties;
  const PointGroup group = findPointGroup(x, params.pointGroup);
  properties.pointGroupOrder = group.order;
  const Eigen::Vector3d moments = principalMomentsOfInertia(x);
  for (int k = 0; k < 3; ++k) properties.principalMoments[k] = moments[k];
  if (potential.atomCount() <= params.maxHessianAtoms) {
    const Eigen::MatrixXd hessian = numericalHessian(potential, x, params.hessianStep);
    properties.logProductOfPositiveEigenvalues =
        hessianSpectrumWithoutRigidBodyModes(hessian, x).logProductOfPositiveEigenvalues();
    const HessianSpectrum full = hessianSpectrum(hessian);
    properties.hessianEigenvalues.assign(full.eigenvalues.data(),
                                         full.eigenvalues.data() + full.eigenvalues.size());
  }
  return properties;
}

}  // namespace landscape
