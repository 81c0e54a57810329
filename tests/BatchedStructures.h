#pragma once
// Starts for the batched-minimisation tests: random cube starts (the benchmark's), quenched and
// perturbed minima, overlapping atoms, and a batch that mixes them; plus bitwise comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/geometry/CubeCluster.h"
#include "landscape/minimisation/BatchedMinimiser.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/LennardJones.h"

namespace landscape {
namespace batchtest {

/// The benchmark settings: m = 4, maxStep 0.4, maxRise 1e-4, H0 0.1, RMS 1e-6.
inline LbfgsParams benchParams(int maxIterations) {
  LbfgsParams p;
  p.historySize = 4;
  p.maxStep = 0.4;
  p.maxRise = 1e-4;
  p.initialGuess = 0.1;
  p.rmsTolerance = 1e-6;
  p.maxIterations = maxIterations;
  return p;
}

inline std::vector<double> cubeStart(std::size_t atoms, std::uint64_t seed) {
  Random random(seed);
  return uniformCubeCluster(atoms, cubeStartHalfSide(atoms), random);
}

/// A minimum quenched from a cube start to RMS 1e-9 (CPU Lbfgs).
inline std::vector<double> quenchedMinimum(std::size_t atoms, std::uint64_t seed) {
  std::vector<double> x = cubeStart(atoms, seed);
  LennardJones lj(atoms);
  LbfgsParams p = benchParams(20000);
  p.rmsTolerance = 1e-9;
  Lbfgs(p).minimize(lj, x);
  return x;
}

/// Every coordinate of x moved by up to `amplitude` (sigma).
inline std::vector<double> perturbed(std::vector<double> x, double amplitude, std::uint64_t seed) {
  Random random(seed);
  for (double& v : x) v += amplitude * random.symmetric();
  return x;
}

/// A cube start with atom 1 put `distance` from atom 0 (0: on top of it).
inline std::vector<double> overlapStart(std::size_t atoms, double distance, std::uint64_t seed) {
  std::vector<double> x = cubeStart(atoms, seed);
  x[3] = x[0] + distance;
  x[4] = x[1];
  x[5] = x[2];
  return x;
}

/// What each structure of mixedBatch() is there for.
enum MixedRole { kNearMinimum = 0, kAtMinimum, kRandom, kCloseOverlap, kExactOverlap, kRoles };

/// kRoles structures with a cap of 60 iterations (benchParams(60)): a minimum perturbed by 1e-7
/// (converges within a few iterations), an unperturbed minimum (converged before iterating), a
/// cube start (hits the cap), two atoms 0.05 sigma apart (energy ~1e16, gradient ~1e18), two
/// atoms on top of each other (non-finite energy); then `randomExtra` more cube starts.
inline std::vector<double> mixedBatch(std::size_t atoms, std::uint64_t seed, int randomExtra) {
  const std::vector<double> minimum = quenchedMinimum(atoms, seed);
  std::vector<std::vector<double>> parts = {
      perturbed(minimum, 1e-7, seed + 1), minimum, cubeStart(atoms, seed + 2),
      overlapStart(atoms, 0.05, seed + 3), overlapStart(atoms, 0.0, seed + 4)};
  for (int e = 0; e < randomExtra; ++e) parts.push_back(cubeStart(atoms, seed + 10 + e));
  std::vector<double> x;
  for (const auto& part : parts) x.insert(x.end(), part.begin(), part.end());
  return x;
}

inline bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}

/// Every field of two results, energies and RMS bit for bit.
inline void expectSameResult(const LbfgsResult& a, const LbfgsResult& b,
                             const std::string& where) {
  EXPECT_TRUE(sameBits(a.energy, b.energy))
      << where << ": energy " << a.energy << " vs " << b.energy;
  EXPECT_TRUE(sameBits(a.rmsGradient, b.rmsGradient))
      << where << ": rms " << a.rmsGradient << " vs " << b.rmsGradient;
  EXPECT_EQ(a.iterations, b.iterations) << where;
  EXPECT_EQ(a.functionCalls, b.functionCalls) << where;
  EXPECT_EQ(a.status, b.status) << where;
}

/// Minima and results of one batched minimisation.
struct MinimisedBatch {
  std::vector<double> x;
  std::vector<LbfgsResult> results;
};

/// Minimises copies of the starts x0 ([B x n]) as one batch.
inline MinimisedBatch minimiseBatch(BatchedMinimiser& minimiser, const std::vector<double>& x0) {
  MinimisedBatch out{x0, std::vector<LbfgsResult>(x0.size() / minimiser.dimension())};
  minimiser.minimise(out.results.size(), out.x.data(), out.results.data());
  return out;
}

/// Every result and every coordinate bit for bit.
inline void expectSameBatch(const MinimisedBatch& a, const MinimisedBatch& b, std::size_t n,
                            const std::string& what) {
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t s = 0; s < a.results.size(); ++s) {
    const std::string where = what + ", structure " + std::to_string(s);
    expectSameResult(a.results[s], b.results[s], where);
    EXPECT_TRUE(sameBits(&a.x[s * n], &b.x[s * n], n)) << where << ": coordinates differ";
  }
}

/// Today's Lbfgs on the CPU, one Lennard-Jones structure at a time.
inline MinimisedBatch lbfgsOneByOne(std::size_t atoms, const std::vector<double>& x0,
                                    const LbfgsParams& params) {
  const std::size_t n = 3 * atoms, batch = x0.size() / n;
  MinimisedBatch ref{x0, std::vector<LbfgsResult>(batch)};
  LennardJones lj(atoms);
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> x(x0.begin() + b * n, x0.begin() + (b + 1) * n);
    const LbfgsResult r = Lbfgs(params).minimize(lj, x);
    std::copy(x.begin(), x.end(), ref.x.begin() + b * n);
    ref.results[b] = r;
  }
  return ref;
}

}  // namespace batchtest
}  // namespace landscape
