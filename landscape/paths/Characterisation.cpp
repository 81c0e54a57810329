#include "landscape/paths/Characterisation.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"
#include "landscape/core/ThreadPool.h"
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
  require(threads >= 1, "characterisation threads must be >= 1");
  require(std::isfinite(hessianMemory) && hessianMemory > 0.0,
          "characterisation hessianMemory must be > 0 (bytes)");
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
    const Eigen::VectorXd eigenvalues = hessianEigenvalues(hessian);
    p.hessianEigenvalues.assign(eigenvalues.data(), eigenvalues.data() + eigenvalues.size());
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
  // Groups of points whose Hessians (n x n doubles each) stay within hessianMemory; with
  // threads, two groups of half of it: the pool characterises one while this thread computes the
  // Hessians of the next (the device's share and the host's overlap).
  const double bytes = 8.0 * static_cast<double>(potential.dimension()) *
                       static_cast<double>(potential.dimension());
  const double budget = params.threads > 1 ? params.hessianMemory / 2 : params.hessianMemory;
  const std::size_t group = std::max<std::size_t>(1, static_cast<std::size_t>(budget / bytes));
  out.resize(points.size());
  ThreadPool pool(params.threads);
  std::future<void> characterising;  // the group before; declared last, so waited for first
  for (std::size_t first = 0; first < points.size(); first += group) {
    const std::size_t last = std::min(points.size(), first + group);
    auto hessians = std::make_shared<std::vector<Eigen::MatrixXd>>(params.backend.hessians(
        std::vector<std::vector<double>>(points.begin() + static_cast<std::ptrdiff_t>(first),
                                         points.begin() + static_cast<std::ptrdiff_t>(last)),
        params.hessianStep));
    if (hessians->size() != last - first)
      throw std::logic_error("characteriseTogether: the backend returned " +
                             std::to_string(hessians->size()) + " Hessians for " +
                             std::to_string(last - first) + " points");
    if (characterising.valid()) characterising.get();
    auto characteriseGroup = [&potential, &points, &params, &out, &pool, first, hessians] {
      pool.forEach(hessians->size(), [&](std::size_t k) {
        // (propertiesOf moves the Hessian out: its memory is freed once it is used)
        out[first + k] = propertiesOf(potential, points[first + k], params, &(*hessians)[k]);
      });
    };
    if (params.threads == 1) {
      characteriseGroup();
    } else {
      characterising = std::async(std::launch::async, [characteriseGroup] {
        ThreadPool::startWorker();  // the device of this process (multi-GPU runs)
        characteriseGroup();
      });
    }
  }
  if (characterising.valid()) characterising.get();
  return out;
}

}  // namespace landscape
