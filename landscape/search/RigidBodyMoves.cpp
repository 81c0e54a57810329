#include "landscape/search/RigidBodyMoves.h"

#include <cmath>
#include <stdexcept>

#include "landscape/core/Require.h"

namespace landscape {

namespace {
constexpr double kPi = 3.14159265358979323846;

// Uniform in the unit ball (rejection from the cube; the draw count is part of the seeded stream).
void unitBall(Random& random, double v[3]) {
  do {
    for (int k = 0; k < 3; ++k) v[k] = random.symmetric();
  } while (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 1.0);
}
}  // namespace

void RigidBodyMoveParams::check() const {
  require(std::isfinite(translation) && translation >= 0.0,
          "rigid-body moves: translation must be >= 0 (length)");
  require(std::isfinite(rotation) && rotation >= 0.0 && rotation <= kPi,
          "rigid-body moves: rotation must be in [0, pi] (radians)");
  require(std::isfinite(probability) && probability >= 0.0 && probability <= 1.0,
          "rigid-body moves: probability must be in [0, 1]");
}

void moveRigidBodies(const RigidBodySystem& system, const RigidBodyMoveParams& params,
                     std::vector<double>& q, Random& random) {
  if (q.size() != system.dimension())
    throw std::invalid_argument("rigid-body moves: coordinates have " + std::to_string(q.size()) +
                                " entries, the system " + std::to_string(system.dimension()));
  const std::size_t B = system.bodyCount();
  for (std::size_t b = 0; b < B; ++b) {
    if (random.uniform() >= params.probability) continue;
    if (params.translation > 0.0) {
      double d[3];
      unitBall(random, d);
      for (int k = 0; k < 3; ++k) q[3 * b + k] += params.translation * d[k];
    }
    if (params.rotation > 0.0) {
      double axis[3];
      double norm = 0.0;
      do {
        unitBall(random, axis);
        norm = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
      } while (norm < 1e-6);
      const double angle = params.rotation * random.uniform();
      double move[3];
      for (int k = 0; k < 3; ++k) move[k] = angle * axis[k] / norm;
      turnRotationVector(move, &q[3 * B + 3 * b]);
    }
  }
  if (!params.freeAtoms || params.translation <= 0.0) return;
  for (std::size_t f = 0; f < system.freeAtomCount(); ++f) {
    if (random.uniform() >= params.probability) continue;
    double d[3];
    unitBall(random, d);
    for (int k = 0; k < 3; ++k) q[6 * B + 3 * f + k] += params.translation * d[k];
  }
}

std::vector<double> randomRigidStructure(const RigidBodySystem& system, double radius,
                                         Random& random) {
  require(std::isfinite(radius) && radius > 0.0,
          "random rigid start: the radius must be positive (length)");
  const std::size_t B = system.bodyCount();
  std::vector<double> q(system.dimension(), 0.0);
  double v[3];
  for (std::size_t b = 0; b < B; ++b) {
    unitBall(random, v);
    for (int k = 0; k < 3; ++k) q[3 * b + k] = radius * v[k];
  }
  for (std::size_t b = 0; b < B; ++b) {
    // Shoemake: q = (sqrt(1-u1) sin 2pi u2, sqrt(1-u1) cos 2pi u2, sqrt(u1) sin 2pi u3,
    // sqrt(u1) cos 2pi u3) is uniform on the unit 3-sphere, hence a uniform rotation; its
    // angle-axis vector is 2 acos(w) times the unit axis, taken with w >= 0 so |p| <= pi.
    const double u1 = random.uniform(), u2 = random.uniform(), u3 = random.uniform();
    double x = std::sqrt(1.0 - u1) * std::sin(2.0 * kPi * u2);
    double y = std::sqrt(1.0 - u1) * std::cos(2.0 * kPi * u2);
    double z = std::sqrt(u1) * std::sin(2.0 * kPi * u3);
    double w = std::sqrt(u1) * std::cos(2.0 * kPi * u3);
    if (w < 0.0) x = -x, y = -y, z = -z, w = -w;
    const double s = std::sqrt(x * x + y * y + z * z);
    const double angle = 2.0 * std::atan2(s, w);
    double* p = &q[3 * B + 3 * b];
    if (s > 0.0) p[0] = angle * x / s, p[1] = angle * y / s, p[2] = angle * z / s;
  }
  for (std::size_t f = 0; f < system.freeAtomCount(); ++f) {
    unitBall(random, v);
    for (int k = 0; k < 3; ++k) q[6 * B + 3 * f + k] = radius * v[k];
  }
  return q;
}

}  // namespace landscape
