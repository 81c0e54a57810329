#include "landscape/paths/Characterisation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"
#include "landscape/geometry/InertiaTensor.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "landscape/minimisation/NumericalHessian.h"
#include "landscape/paths/RigidBodyNormalModes.h"

namespace landscape {

void CharacterisationParams::check() const {
  require(std::isfinite(hessianStep) && hessianStep > 0.0,
          "characterisation hessianStep must be > 0 (length)");
  for (double m : masses) {
    require(std::isfinite(m) && m > 0.0, "characterisation masses must be > 0 (amu)");
  }
  require(!rigidBodies || masses.empty(),
          "characterisation of rigid bodies takes the masses of the bodies, not masses");
  try {
    pointGroup.check();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("characterisation pointGroup: ") + e.what());
  }
}

namespace {

/// The log product and, for small systems, all 3N eigenvalues of the (mass-weighted) Hessian.
void characteriseHessian(Potential& potential, const std::vector<double>& x,
                         const CharacterisationParams& params, Eigen::MatrixXd hessian,
                         StationaryPointProperties& p) {
  if (!params.masses.empty()) massWeightHessian(hessian, params.masses);
  if (potential.atomCount() <= params.maxSpectrumAtoms) {
    const HessianSpectrum full = hessianSpectrum(hessian);
    p.hessianEigenvalues.assign(full.eigenvalues.data(),
                                full.eigenvalues.data() + full.eigenvalues.size());
  }
  const RigidBodyModes modes =
      params.translationsOnly ? RigidBodyModes::translations(x.size(), params.masses)
      : params.masses.empty() ? RigidBodyModes(x)
                              : RigidBodyModes::massWeighted(x, params.masses);
  p.logProductOfPositiveEigenvalues = params.backend.logProduct
                                          ? params.backend.logProduct(hessian, modes).logProduct
                                          : hessianLogProduct(hessian, modes).logProduct;
}

Eigen::MatrixXd hessianAt(Potential& potential, const std::vector<double>& x,
                          const CharacterisationParams& params) {
  return params.backend.hessian ? params.backend.hessian(x, params.hessianStep)
                                : numericalHessian(potential, x, params.hessianStep);
}

void checkPoint(Potential& potential, const std::vector<double>& x,
                const CharacterisationParams& params) {
  if (x.size() != potential.dimension()) {
    throw std::invalid_argument("characterise: " + std::to_string(x.size()) +
                                " coordinates, the potential expects " +
                                std::to_string(potential.dimension()));
  }
  if (!params.masses.empty() && 3 * params.masses.size() != x.size()) {
    throw std::invalid_argument("characterise: " + std::to_string(params.masses.size()) +
                                " masses for " + std::to_string(x.size() / 3) + " atoms");
  }
}

/// Point group and moments; the Hessian-derived fields from `hessian` when given.
StationaryPointProperties propertiesOf(Potential& potential, const std::vector<double>& x,
                                       const CharacterisationParams& params,
                                       Eigen::MatrixXd* hessian) {
  StationaryPointProperties properties;
  properties.pointGroupOrder =
      params.translationsOnly ? 1 : findPointGroup(x, params.pointGroup).order;
  const Eigen::Vector3d moments = principalMomentsOfInertia(x, params.masses);
  for (int k = 0; k < 3; ++k) properties.principalMoments[k] = moments[k];
  if (hessian) characteriseHessian(potential, x, params, std::move(*hessian), properties);
  return properties;
}

}  // namespace

StationaryPointProperties characterise(Potential& potential, const std::vector<double>& x,
                                       const CharacterisationParams& params) {
  params.check();
  checkPoint(potential, x, params);
  if (params.rigidBodies) return characteriseRigidBodies(*params.rigidBodies, x, params);
  if (potential.atomCount() > params.maxHessianAtoms)
    return propertiesOf(potential, x, params, nullptr);
  Eigen::MatrixXd hessian = hessianAt(potential, x, params);
  return propertiesOf(potential, x, params, &hessian);
}

std::vector<StationaryPointProperties> characteriseTogether(
    Potential& potential, const std::vector<std::vector<double>>& points,
    const CharacterisationParams& params) {
  params.check();
  for (const std::vector<double>& x : points) checkPoint(potential, x, params);
  std::vector<StationaryPointProperties> out;
  out.reserve(points.size());
  if (!params.backend.hessians || params.rigidBodies ||
      potential.atomCount() > params.maxHessianAtoms) {
    for (const std::vector<double>& x : points) out.push_back(characterise(potential, x, params));
    return out;
  }
  // Groups of points whose Hessians (n x n doubles each) stay within 512 MiB of host memory.
  const double bytes = 8.0 * static_cast<double>(potential.dimension()) *
                       static_cast<double>(potential.dimension());
  const std::size_t group =
      std::max<std::size_t>(1, static_cast<std::size_t>(512.0 * 1024 * 1024 / bytes));
  for (std::size_t first = 0; first < points.size(); first += group) {
    const std::vector<std::vector<double>> some(
        points.begin() + static_cast<std::ptrdiff_t>(first),
        points.begin() + static_cast<std::ptrdiff_t>(std::min(points.size(), first + group)));
    std::vector<Eigen::MatrixXd> hessians = params.backend.hessians(some, params.hessianStep);
    for (std::size_t k = 0; k < some.size(); ++k)
      out.push_back(propertiesOf(potential, some[k], params, &hessians[k]));
  }
  return out;
}

}  // namespace landscape
