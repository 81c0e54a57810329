#pragma once
// Rigid-body test systems shared by the single-structure and batched rigid tests: atoms on a
// jittered simple cubic lattice (spacing 1.1 sigma, so Lennard-Jones forces stay moderate) whose
// bodies are consecutive runs of a seeded permutation of the sites (never collinear), the rest
// free; and batches of rigid coordinates moved away from the reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "landscape/core/Random.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"

namespace landscape {
namespace rigidtest {

struct Layout {
  std::vector<double> atoms;
  RigidBodySet set;
};

inline Layout makeLayout(const std::vector<std::size_t>& bodySizes, std::size_t freeAtoms,
                         std::uint64_t seed) {
  const std::size_t n =
      std::accumulate(bodySizes.begin(), bodySizes.end(), std::size_t{0}) + freeAtoms;
  const auto side = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n))));
  Random random(seed);
  Layout layout{std::vector<double>(3 * n), RigidBodySet(n)};
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c[3] = {i % side, (i / side) % side, i / (side * side)};
    for (int k = 0; k < 3; ++k)
      layout.atoms[3 * i + k] = 1.1 * static_cast<double>(c[k]) + 0.05 * random.symmetric();
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (std::size_t i = n - 1; i > 0; --i)
    std::swap(order[i], order[static_cast<std::size_t>(random.uniform() * (i + 1))]);
  std::size_t next = 0;
  for (std::size_t size : bodySizes) {
    layout.set.addBody(std::vector<std::size_t>(order.begin() + next, order.begin() + next + size));
    next += size;
  }
  return layout;
}

/// `batch` structures in rigid coordinates: the reference's, each centre and free atom moved by
/// up to `shift` and each rotation vector by up to `turn` (radians), a seed per structure.
inline std::vector<double> perturbedRigidBatch(const RigidBodySystem& system,
                                               const std::vector<double>& reference,
                                               std::size_t batch, double shift, double turn,
                                               std::uint64_t seed) {
  const std::vector<double> q0 = system.fromAtoms(reference);
  const std::size_t B = system.bodyCount();
  std::vector<double> q;
  q.reserve(batch * q0.size());
  for (std::size_t s = 0; s < batch; ++s) {
    Random random(seed + s);
    std::vector<double> qs = q0;
    for (std::size_t i = 0; i < qs.size(); ++i)
      qs[i] += (i >= 3 * B && i < 6 * B ? turn : shift) * random.symmetric();
    q.insert(q.end(), qs.begin(), qs.end());
  }
  return q;
}

}  // namespace rigidtest
}  // namespace landscape
