#pragma once
// Rigid-body test systems shared by the single-structure and batched rigid tests: atoms on a
// jittered simple cubic lattice (spacing 1.1 sigma, so Lennard-Jones forces stay moderate) whose
// bodies are consecutive runs of a seeded permutation of the sites (never collinear), the rest
// free; and batches of rigid coordinates moved away from the reference.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "backends/PotentialFactory.h"
#include "landscape/core/Random.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "potentials/RigidBodySet.h"
#include "potentials/RigidBodySystem.h"
#include "tests/TestData.h"

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

/// Trp-cage on AMBER-GB (igb 2, its REFERENCE.md conditions) in make_rigid_bodies' local groups
/// (27 bodies of <= 11 atoms, the rest free): the spec of its atomistic potential, the file
/// structure and the rigid-body system. nullopt without tests/data/gb/trpcage.
struct RigidTrpCage {
  PotentialSpec spec;
  std::vector<double> x;
  RigidBodySystem system;
};

inline std::optional<RigidTrpCage> loadRigidTrpCage() {
  const auto prmtop = testDataPath("gb/trpcage/prmtop");
  const auto inpcrd = testDataPath("gb/trpcage/inpcrd");
  if (!prmtop || !inpcrd) return std::nullopt;
  auto topology = std::make_shared<AmberTopology>(readAmberTopology(*prmtop));
  std::vector<double> x = readAmberCoordinates(*inpcrd, *topology).positions;
  RigidBodySystem system(findRigidBodies(*topology, x, {}).set, x);
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::AmberGb;
  spec.amberTopology = topology;
  return RigidTrpCage{spec, std::move(x), std::move(system)};
}

}  // namespace rigidtest
}  // namespace landscape
