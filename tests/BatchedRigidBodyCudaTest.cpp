// Batched local rigid bodies on a CUDA device (gpu/BatchedRigidBodyCuda) against
// the CPU batch (potentials/BatchedRigidBodyPotential, itself RigidBodyPotential bit for bit):
//   - every structure within 1e-10 of the absolute-sum scale of each rigid component (Lennard-
//     Jones bodies of 3 to 300 atoms: warp, one-block and two-pass reductions) and the angle-axis
//     metric sums within 1e-9; rigid Trp-cage on AMBER-GB within the GB tests' tolerances;
//   - a structure's bits do not depend on the batch (up to 70000 structures: two launches per
//     kernel), its position, the mask or the entry point, and inactive rows stay untouched;
//   - the device gradient against central differences in rigid coordinates;
//   - the compact kernels of small bodies against the general ones and the CPU;
//   - the round-based GPU L-BFGS over the batch equals its CPU twin bit for bit (graph captured),
//     converges, and the CPU sees the minima converged too.
// All cases skip without a CUDA device.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "landscape/minimisation/BatchedLbfgsRoundsTwin.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/BatchedLennardJones.h"
#include "potentials/BatchedRigidBodyPotential.h"
#include "potentials/RigidBodyTerms.h"
#include "tests/BatchedStructures.h"
#include "tests/RigidLayouts.h"
#include "tests/TestData.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/BatchedLbfgsRoundsCuda.h"
#include "gpu/BatchedLennardJonesCuda.h"
#include "gpu/BatchedRigidBodyCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace landscape {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

using batchtest::sameBits;
using rigidtest::makeLayout;
using rigidtest::perturbedRigidBatch;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Evaluated {
  std::vector<double> g, e;
};

Evaluated evaluate(BatchedPotential& potential, const std::vector<double>& q,
                   const std::vector<std::uint8_t>& active = {}) {
  Evaluated out{std::vector<double>(q.size(), kNaN),
                std::vector<double>(q.size() / potential.dimension(), kNaN)};
  evaluateBatch(potential, q, out.g, out.e, active);
  return out;
}

// Absolute-sum scales of one structure on Lennard-Jones (4 (r^-12 - r^-6), reduced units): of the
// energy, sum over pairs |e_ij|, and of each rigid gradient component, the sum over its chain-rule
// terms (eqs 6-7) of |pair gradient terms| times |dR/dp_k r0_i| for rotations: what the round-off
// of any summation order is bounded by.
struct Scales {
  double energy = 0.0;
  std::vector<double> gradient;
};

Scales ljScales(const RigidBodySystem& system, const double* q) {
  const std::size_t N = system.atomCount(), B = system.bodyCount();
  std::vector<double> x(3 * N), absG(3 * N, 0.0);
  system.toAtoms(q, x.data());
  Scales s;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = i + 1; j < N; ++j) {
      double d[3], r2 = 0.0;
      for (int k = 0; k < 3; ++k) {
        d[k] = x[3 * i + k] - x[3 * j + k];
        r2 += d[k] * d[k];
      }
      const double ir6 = 1.0 / (r2 * r2 * r2), r = std::sqrt(r2);
      s.energy += std::fabs(4.0 * (ir6 * ir6 - ir6));
      const double dvdr = std::fabs(4.0 * (-12.0 * ir6 * ir6 + 6.0 * ir6) / r);
      for (int k = 0; k < 3; ++k) {
        absG[3 * i + k] += dvdr * std::fabs(d[k]) / r;
        absG[3 * j + k] += dvdr * std::fabs(d[k]) / r;
      }
    }
  s.gradient.assign(system.dimension(), 0.0);
  for (std::size_t b = 0; b < B; ++b) {
    double R[9], D[3][9];
    rotationMatrixAndDerivatives(q + 3 * B + 3 * b, R, D[0], D[1], D[2]);
    for (std::size_t e = system.bodyStart()[b]; e < system.bodyStart()[b + 1]; ++e) {
      const double* a = &absG[3 * system.bodyAtoms()[e]];
      for (int k = 0; k < 3; ++k) {
        s.gradient[3 * b + k] += a[k];
        double dr[3];
        matVec3(D[k], &system.referenceOffsets()[3 * e], dr);
        s.gradient[3 * B + 3 * b + k] +=
            a[0] * std::fabs(dr[0]) + a[1] * std::fabs(dr[1]) + a[2] * std::fabs(dr[2]);
      }
    }
  }
  for (std::size_t f = 0; f < system.freeAtomCount(); ++f)
    for (int k = 0; k < 3; ++k) s.gradient[6 * B + 3 * f + k] = absG[3 * system.freeAtoms()[f] + k];
  return s;
}

#ifdef LANDSCAPE_HAVE_CUDA

// Bodies of 3, 11, 32 (warp), 33 (one block) and 300 atoms (two chunks, a second pass), 40 free.
TEST(BatchedRigidBodyCuda, EveryStructureMatchesTheCpuBatch) {
  SKIP_WITHOUT_GPU();
  const rigidtest::Layout layout = makeLayout({3, 11, 32, 33, 300}, 40, 21);
  const std::size_t atoms = layout.atoms.size() / 3;
  const RigidBodySystem system(layout.set, layout.atoms);
  const std::size_t n = system.dimension(), batch = 9;
  const std::vector<double> q = perturbedRigidBatch(system, layout.atoms, batch, 0.02, 0.1, 5);
  BatchedLennardJones ljCpu(atoms, 2);
  BatchedRigidBodyPotential cpu(ljCpu, system, 2);
  BatchedLennardJonesCuda ljGpu(atoms);
  BatchedRigidBodyCuda gpu(ljGpu, system);
  const std::vector<std::uint8_t> active{1, 1, 0, 1, 1, 1, 1, 0, 1};
  const Evaluated c = evaluate(cpu, q), d = evaluate(gpu, q, active);
  // The angle-axis metric sums of the active structures on the device.
  DeviceBuffer<double> dq(q), dg(c.g), sums(batch);
  DeviceBuffer<std::uint8_t> dActive(active);
  std::vector<double> hostSums(batch, kNaN);
  sums.copyFromHost(hostSums);
  gpu.metricSumsDevice(batch, dq.data(), dg.data(), sums.data(), dActive.data(), nullptr);
  sums.copyToHost(hostSums.data(), batch);
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active[b]) {
      EXPECT_TRUE(std::isnan(d.e[b]) && std::isnan(hostSums[b])) << b;
      for (std::size_t k = 0; k < n; ++k) ASSERT_TRUE(std::isnan(d.g[b * n + k])) << k;
      continue;
    }
    const Scales s = ljScales(system, &q[b * n]);
    EXPECT_LE(std::fabs(d.e[b] - c.e[b]), 1e-10 * s.energy) << "structure " << b;
    for (std::size_t k = 0; k < n; ++k)
      ASSERT_LE(std::fabs(d.g[b * n + k] - c.g[b * n + k]), 1e-10 * s.gradient[k])
          << "structure " << b << ", component " << k << ": cpu " << c.g[b * n + k] << " gpu "
          << d.g[b * n + k];
    const double rms = system.rmsGradient(&q[b * n], &c.g[b * n]);
    const double sum = rms * rms * 3.0 * static_cast<double>(atoms);
    EXPECT_NEAR(hostSums[b], sum, 1e-9 * sum) << "structure " << b;
  }
}

// 70000 structures of a 13-atom system (two bodies, 6 free atoms): every kernel runs as two
// launches (65535 + 4465). Chosen structures alone, at other positions, under a mask and through
// the device entry point on another stream give the same bits as in the full batch.
TEST(BatchedRigidBodyCuda, BitsDoNotDependOnBatchPositionMaskOrEntryPoint) {
  SKIP_WITHOUT_GPU();
  const rigidtest::Layout layout = makeLayout({3, 4}, 6, 8);
  const RigidBodySystem system(layout.set, layout.atoms);
  const std::size_t n = system.dimension(), batch = 70000;
  const std::vector<double> q = perturbedRigidBatch(system, layout.atoms, batch, 0.03, 0.7, 1);
  BatchedLennardJonesCuda lj(13);
  BatchedRigidBodyCuda gpu(lj, system);
  const Evaluated full = evaluate(gpu, q);
  EXPECT_EQ(gpu.reserved(), batch);
  auto expectSame = [&](const Evaluated& got, std::size_t at, std::size_t b, const char* where) {
    EXPECT_TRUE(sameBits(got.e[at], full.e[b])) << where << ", structure " << b;
    EXPECT_TRUE(sameBits(&got.g[at * n], &full.g[b * n], n)) << where << ", structure " << b;
  };
  const std::size_t chosen[] = {0, 1, 65534, 65535, 65536, 69999};
  for (std::size_t b : chosen) {
    BatchedRigidBodyCuda alone(lj, system);
    expectSame(evaluate(alone, std::vector<double>(q.begin() + b * n, q.begin() + (b + 1) * n)),
               0, b, "alone");
  }
  // The chosen structures in reverse order in a batch of six, the rest of the batch masked out.
  std::vector<double> six;
  for (std::size_t i = 6; i-- > 0;)
    six.insert(six.end(), q.begin() + chosen[i] * n, q.begin() + (chosen[i] + 1) * n);
  const Evaluated reversed = evaluate(gpu, six);
  for (std::size_t i = 0; i < 6; ++i) expectSame(reversed, 5 - i, chosen[i], "reversed");
  std::vector<std::uint8_t> mask(batch, 0);
  for (std::size_t b = 0; b < batch; b += 7) mask[b] = 1;
  for (std::size_t b : chosen) mask[b] = 1;
  const Evaluated masked = evaluate(gpu, q, mask);
  for (std::size_t b = 0; b < batch; ++b) {
    if (mask[b]) {
      expectSame(masked, b, b, "masked");
    } else {
      ASSERT_TRUE(std::isnan(masked.e[b])) << b;
      ASSERT_TRUE(std::isnan(masked.g[b * n]) && std::isnan(masked.g[b * n + n - 1])) << b;
    }
  }
  // Device entry point on a non-blocking stream.
  cudaStream_t stream = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  DeviceBuffer<double> dq(q), dg(q.size()), de(batch);
  gpu.energyGradientDevice(batch, dq.data(), dg.data(), de.data(), nullptr, stream);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
  LANDSCAPE_CUDA_CHECK(cudaStreamDestroy(stream));
  Evaluated device{std::vector<double>(q.size()), std::vector<double>(batch)};
  dg.copyToHost(device.g.data(), q.size());
  de.copyToHost(device.e.data(), batch);
  EXPECT_TRUE(sameBits(device.e.data(), full.e.data(), batch));
  EXPECT_TRUE(sameBits(device.g.data(), full.g.data(), q.size()));
}

// Rigid Trp-cage (local groups) on AMBER-GB: the factory's cuda batch (BatchedAmberGbCuda under
// the rigid layer) against its cpu batch, with the tolerances of the GB tests (energy within 1e-10
// of the sum of the absolute values of its terms, gradient difference norm within 1e-9 of the
// norm), and a structure alone = the same structure in the batch, bit for bit.
TEST(BatchedRigidBodyCuda, TrpCageOnAmberGbMatchesTheCpuBatch) {
  SKIP_WITHOUT_GPU();
  const auto trp = rigidtest::loadRigidTrpCage();
  if (!trp) GTEST_SKIP() << "no gb/trpcage data under " << testDataRoot();
  const PotentialSpec& spec = trp->spec;
  const std::vector<double>& x = trp->x;
  const RigidBodySystem& system = trp->system;
  const AmberTopology& topology = *spec.amberTopology;
  const std::size_t batch = 5, n = system.dimension();
  const std::vector<double> q = perturbedRigidBatch(system, x, batch, 0.05, 0.05, 11);
  BatchedPotentialOptions options;
  options.threads = 2;
  options.reserveBatch = batch;
  auto cpu = makeBatchedRigidPotential(spec, system, Backend::Cpu, options);
  auto gpu = makeBatchedRigidPotential(spec, system, Backend::Cuda, options);
  ASSERT_TRUE(gpu->isDeviceResident());
  const Evaluated c = evaluate(*cpu, q), d = evaluate(*gpu, q, {1, 1, 1, 0, 1});
  AmberGb gb(topology, spec.amber);
  for (std::size_t b = 0; b < batch; ++b) {
    if (b == 3) {
      EXPECT_TRUE(std::isnan(d.e[b]));
      continue;
    }
    const std::vector<double> atomsB =
        system.toAtoms(std::vector<double>(q.begin() + b * n, q.begin() + (b + 1) * n));
    const AmberEnergyBreakdown abs = gb.absoluteSums(atomsB.data());
    const double scale = abs.bond + abs.angle + abs.dihedral + abs.vdw + abs.eel + abs.vdw14 +
                         abs.eel14 + abs.egb;
    EXPECT_LE(std::fabs(d.e[b] - c.e[b]), 1e-10 * scale) << "structure " << b;
    double diff = 0.0, norm = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      diff += std::pow(d.g[b * n + k] - c.g[b * n + k], 2);
      norm += std::pow(c.g[b * n + k], 2);
    }
    EXPECT_LE(std::sqrt(diff), 1e-9 * std::sqrt(norm)) << "structure " << b;
  }
  auto single = makeBatchedRigidPotential(spec, system, Backend::Cuda);
  const Evaluated alone =
      evaluate(*single, std::vector<double>(q.begin() + 4 * n, q.begin() + 5 * n));
  EXPECT_TRUE(sameBits(alone.e[0], d.e[4]));
  EXPECT_TRUE(sameBits(alone.g.data(), &d.g[4 * n], n));
}

// Central differences of the device energies (h = 1e-6, as the CPU test), all components of two
// structures, one with a body near |p| = pi.
TEST(BatchedRigidBodyCuda, GradientMatchesCentralDifferences) {
  SKIP_WITHOUT_GPU();
  const rigidtest::Layout layout = makeLayout({3, 11, 40}, 16, 5);
  const RigidBodySystem system(layout.set, layout.atoms);
  BatchedLennardJonesCuda lj(layout.atoms.size() / 3);
  BatchedRigidBodyCuda gpu(lj, system);
  std::vector<double> q = perturbedRigidBatch(system, layout.atoms, 2, 0.03, 1.0, 77);
  const std::size_t n = system.dimension(), B = system.bodyCount();
  q[n + 3 * B] = 3.1;
  q[n + 3 * B + 1] = 0.1;
  const Evaluated at = evaluate(gpu, q);
  const double h = 1e-6;
  for (std::size_t s = 0; s < 2; ++s) {
    double scale = 0.0;
    for (std::size_t i = 0; i < n; ++i) scale = std::max(scale, std::fabs(at.g[s * n + i]));
    // All 2n displaced copies of structure s in one batch.
    std::vector<double> pm;
    for (std::size_t i = 0; i < n; ++i)
      for (double sign : {1.0, -1.0}) {
        std::vector<double> qs(q.begin() + s * n, q.begin() + (s + 1) * n);
        qs[i] += sign * h;
        pm.insert(pm.end(), qs.begin(), qs.end());
      }
    const Evaluated displaced = evaluate(gpu, pm);
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_NEAR(at.g[s * n + i], (displaced.e[2 * i] - displaced.e[2 * i + 1]) / (2 * h),
                  1e-6 * std::max(1.0, scale))
          << "structure " << s << ", component " << i;
  }
}

// The angle-axis RMS is at most sqrt(max(1, 1 / lambda_min(M_I)) n / (3N)) times the plain RMS
// (the centre terms shrink by 1 / N_I, free atoms are unchanged,
// g_p^T M^-1 g_p <= |g_p|^2 / lambda_min).
double metricOverPlainBound(const RigidBodySystem& system, const double* q) {
  const std::size_t B = system.bodyCount();
  double worst = 1.0;
  for (std::size_t b = 0; b < B; ++b) {
    double R[9], D1[9], D2[9], D3[9], M[6];
    rotationMatrixAndDerivatives(q + 3 * B + 3 * b, R, D1, D2, D3);
    angleAxisMetric(D1, D2, D3, &system.secondMoments()[9 * b], M);
    Eigen::Matrix3d m;
    m << M[0], M[1], M[2], M[1], M[3], M[4], M[2], M[4], M[5];
    worst = std::max(worst, 1.0 / Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(m).eigenvalues()[0]);
  }
  return std::sqrt(worst * static_cast<double>(system.dimension()) /
                   (3.0 * static_cast<double>(system.atomCount())));
}

// 24 rigid LJ30 clusters (bodies of 3 and 11 atoms, 16 free atoms) minimised by the round-based
// GPU L-BFGS over the batch: bit for bit its CPU twin over the same potential (whose host entry
// point runs the same kernels), all converged, the rounds captured in a graph (no allocation in
// the potential once reserved); the CPU batch then sees each minimum converged in the metric
// the engine tests (the angle-axis RMS of Ruehle et al. 2013, BatchedPotential::rmsGradients)
// within 1% of the tolerance, the plain RMS below the tolerance times the bound above, and the
// energy below the start's.
TEST(BatchedRigidBodyCuda, RoundsEngineEqualsItsTwinAndConvergesOnTheCpuToo) {
  SKIP_WITHOUT_GPU();
  const rigidtest::Layout layout = makeLayout({3, 11}, 16, 12);
  const std::size_t atoms = 30;
  const RigidBodySystem system(layout.set, layout.atoms);
  const std::size_t n = system.dimension(), batch = 24;
  const std::vector<double> q0 = perturbedRigidBatch(system, layout.atoms, batch, 0.1, 0.5, 60);
  BatchedLennardJonesCuda lj(atoms);
  BatchedRigidBodyCuda gpuPotential(lj, system, batch);
  LbfgsParams params = batchtest::benchParams(20000);
  params.rmsTolerance = 1e-6;
  BatchedRoundsOptions options;
  options.roundsPerPoll = 16;
  BatchedLbfgsRoundsCuda gpu(gpuPotential, params, options);
  BatchedLbfgsRoundsTwin twin(gpuPotential, params, options, 2);
  const batchtest::MinimisedBatch got = batchtest::minimiseBatch(gpu, q0);
  EXPECT_TRUE(gpu.lastStats().graph);
  batchtest::expectSameBatch(got, batchtest::minimiseBatch(twin, q0), n, "rigid LJ30");
  BatchedLennardJones ljCpu(atoms, 2);
  BatchedRigidBodyPotential cpu(ljCpu, system, 2);
  const Evaluated start = evaluate(cpu, q0), end = evaluate(cpu, got.x);
  for (std::size_t b = 0; b < batch; ++b) {
    EXPECT_TRUE(got.results[b].converged()) << "structure " << b;
    double plain = 0.0;
    for (std::size_t k = 0; k < n; ++k) plain += end.g[b * n + k] * end.g[b * n + k];
    plain = std::sqrt(plain / static_cast<double>(n));
    const double metric = system.rmsGradient(&got.x[b * n], &end.g[b * n]);
    EXPECT_LT(metric, 1.01 * params.rmsTolerance) << "structure " << b;
    EXPECT_LT(metric, plain * metricOverPlainBound(system, &got.x[b * n]) * (1 + 1e-12))
        << "structure " << b;
    EXPECT_LT(end.e[b], start.e[b]) << "structure " << b;
  }
}

// Small bodies run the compact kernels (a thread per atom or body of every structure): for both
// tree widths that bodies of atoms take (3-4 and 5-8 atoms; a body needs 3), with free atoms and
// under a mask, their energies and gradients agree with the CPU batch and with the general kernels
// within 1e-10 of the absolute-sum scales (as EveryStructureMatchesTheCpuBatch) and their atoms
// with the general kernels' within 1e-14 of the coordinates' size; inactive rows stay untouched.
TEST(BatchedRigidBodyCuda, CompactKernelsAgreeWithTheGeneralKernelsAndTheCpu) {
  SKIP_WITHOUT_GPU();
  for (const std::vector<std::size_t>& sizes :
       {std::vector<std::size_t>{3, 3}, {3, 4, 4, 3}, {8, 5, 3, 3, 7}}) {
    const rigidtest::Layout layout = makeLayout(sizes, 5, 17);
    const std::size_t atoms = layout.atoms.size() / 3;
    const RigidBodySystem system(layout.set, layout.atoms);
    const std::size_t n = system.dimension(), batch = 301;
    const std::vector<double> q = perturbedRigidBatch(system, layout.atoms, batch, 0.05, 0.9, 3);
    BatchedLennardJonesCuda lj(atoms);
    BatchedRigidBodyCuda compact(lj, system), general(lj, system, 1, RigidKernelLayout::General);
    BatchedLennardJones ljCpu(atoms, 2);
    BatchedRigidBodyPotential cpu(ljCpu, system, 2);
    std::vector<std::uint8_t> mask(batch, 1);
    for (std::size_t b = 0; b < batch; b += 5) mask[b] = 0;
    const Evaluated c = evaluate(compact, q, mask), g = evaluate(general, q, mask),
                    h = evaluate(cpu, q);
    for (std::size_t b = 0; b < batch; ++b) {
      if (!mask[b]) {
        ASSERT_TRUE(std::isnan(c.e[b]) && std::isnan(c.g[b * n]) && std::isnan(c.g[b * n + n - 1]))
            << b;
        continue;
      }
      const Scales scale = ljScales(system, &q[b * n]);
      ASSERT_LE(std::fabs(c.e[b] - h.e[b]), 1e-10 * scale.energy) << b;
      ASSERT_LE(std::fabs(c.e[b] - g.e[b]), 1e-10 * scale.energy) << b;
      for (std::size_t k = 0; k < n; ++k) {
        ASSERT_LE(std::fabs(c.g[b * n + k] - h.g[b * n + k]), 1e-10 * scale.gradient[k])
            << sizes.size() << " bodies, structure " << b << ", component " << k;
        ASSERT_LE(std::fabs(c.g[b * n + k] - g.g[b * n + k]), 1e-10 * scale.gradient[k])
            << sizes.size() << " bodies, structure " << b << ", component " << k;
      }
    }
    // The atoms themselves, through the device entry point.
    DeviceBuffer<double> dq(q), xc(batch * 3 * atoms), xg(batch * 3 * atoms);
    compact.toAtomsDevice(batch, dq.data(), xc.data(), nullptr, nullptr);
    general.toAtomsDevice(batch, dq.data(), xg.data(), nullptr, nullptr);
    std::vector<double> hc(batch * 3 * atoms), hg(batch * 3 * atoms);
    xc.copyToHost(hc.data(), hc.size());
    xg.copyToHost(hg.data(), hg.size());
    double size = 0.0, worst = 0.0;
    for (std::size_t i = 0; i < hc.size(); ++i) {
      size = std::max(size, std::fabs(hg[i]));
      worst = std::max(worst, std::fabs(hc[i] - hg[i]));
    }
    EXPECT_LE(worst, 1e-14 * size) << sizes.size() << " bodies";
  }
}

TEST(BatchedRigidBodyCuda, RefusesHostOnlyPotentialsAndMismatches) {
  SKIP_WITHOUT_GPU();
  const rigidtest::Layout layout = makeLayout({3}, 5, 1);
  const RigidBodySystem system(layout.set, layout.atoms);
  BatchedLennardJones hostOnly(8, 1);
  EXPECT_THROW(BatchedRigidBodyCuda(hostOnly, system), std::invalid_argument);
  BatchedLennardJonesCuda wrong(9);
  EXPECT_THROW(BatchedRigidBodyCuda(wrong, system), std::invalid_argument);
  BatchedLennardJonesCuda lj(8);
  EXPECT_THROW(BatchedRigidBodyCuda(lj, system, 0), std::invalid_argument);
  BatchedRigidBodyCuda gpu(lj, system);
  EXPECT_THROW(gpu.energyGradientDevice(1, nullptr, nullptr, nullptr, nullptr, nullptr),
               std::invalid_argument);
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace
}  // namespace landscape
