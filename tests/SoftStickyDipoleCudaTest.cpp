// Soft-sticky-dipole (SSD) water on the GPU: the batched marker kernel
// (gpu/BatchedSoftStickyDipoleCuda) and its batch of one (gpu/SoftStickyDipoleCuda) against the
// CPU reference potentials/SoftStickyDipole for n = 2, 7, 13 and 40 molecules at B = 1, 5 and 300,
// with inactive rows, other block sizes and the device entry point on a stream of its own; the
// same bits for a structure whatever its batch and position; the device rigid layers
// (gpu/RigidBodyCuda over SoftStickyDipoleCuda for one structure, gpu/BatchedRigidBodyCuda over
// the batched kernel) against the CPU rigid layer; the GPU L-BFGS following the CPU iterates; the
// factories' paths (PotentialSpec::Kind::SoftStickyDipole: the CPU reference bit for bit on the
// CPU, the device twins through makeBatchedPotentialForSpec and makeBatchedRigidPotential). GPU
// tests skip without a CUDA device.
//
// Structures: random clusters grown molecule by molecule, each new one 2.6-3.4 Angstrom from one
// already placed (and no nearer to any), one in five 4.2-6 Angstrom away, every orientation
// uniformly random; so the pairs cover both sticky switches (2.75-3.35 and 2.75-4 Angstrom) on,
// off and in between. Tolerances (double rounding; the GPU evaluates each pair from both molecules
// and sums in another order than the CPU): the energy within 1e-10 of max(|E|, 1 kcal/mol) (random
// orientations can make E small beside its pair terms, each a few kcal/mol), every gradient entry
// within 1e-10 of the largest |gradient entry| of the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "potentials/SoftStickyDipole.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "backends/BatchedPotentialFactory.h"
#include "backends/LbfgsWorkspaceFactory.h"
#include "backends/PotentialFactory.h"
#include "gpu/BatchedRigidBodyCuda.h"
#include "gpu/BatchedSoftStickyDipoleCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/RigidBodyCuda.h"
#include "gpu/SoftStickyDipoleCuda.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodySystem.h"
#endif

namespace landscape {
namespace {

#ifdef LANDSCAPE_HAVE_CUDA

#define SKIP_WITHOUT_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

// Marker coordinates (12 n) of a random SSD cluster (see the header comment). Molecule k's
// markers are centre +- h ez and centre +- h ex of a uniformly random frame (a normalised Gaussian
// quaternion), as SoftStickyDipoleCluster's bodies place them.
std::vector<double> randomCluster(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<double> centres(3 * n, 0.0);
  for (std::size_t k = 1; k < n; ++k) {
    for (;;) {
      const std::size_t from = static_cast<std::size_t>(unit(rng) * static_cast<double>(k)) % k;
      const bool far = unit(rng) < 0.2;
      const double d = far ? 4.2 + 1.8 * unit(rng) : 2.6 + 0.8 * unit(rng);
      double u[3], norm = 0.0;
      for (double& v : u) {
        v = gauss(rng);
        norm += v * v;
      }
      norm = std::sqrt(norm);
      double c[3];
      for (int a = 0; a < 3; ++a) c[a] = centres[3 * from + a] + d * u[a] / norm;
      bool clear = true;
      for (std::size_t j = 0; j < k && clear; ++j) {
        double r2 = 0.0;
        for (int a = 0; a < 3; ++a) r2 += (c[a] - centres[3 * j + a]) * (c[a] - centres[3 * j + a]);
        clear = r2 >= 2.6 * 2.6;
      }
      if (!clear) continue;
      for (int a = 0; a < 3; ++a) centres[3 * k + a] = c[a];
      break;
    }
  }
  const double h = kSoftStickyDipoleMarkerDistance;
  std::vector<double> x(12 * n);
  for (std::size_t k = 0; k < n; ++k) {
    double q[4], norm = 0.0;
    for (double& v : q) {
      v = gauss(rng);
      norm += v * v;
    }
    norm = std::sqrt(norm);
    for (double& v : q) v /= norm;
    const double w = q[0], a = q[1], b = q[2], c = q[3];
    // Columns 0 (ex) and 2 (ez) of the rotation matrix of the unit quaternion (w, a, b, c).
    const double ex[3] = {1 - 2 * (b * b + c * c), 2 * (a * b + w * c), 2 * (a * c - w * b)};
    const double ez[3] = {2 * (a * c + w * b), 2 * (b * c - w * a), 1 - 2 * (a * a + b * b)};
    for (int d = 0; d < 3; ++d) {
      const double o = centres[3 * k + d];
      x[12 * k + d] = o + h * ez[d];
      x[12 * k + 3 + d] = o - h * ez[d];
      x[12 * k + 6 + d] = o + h * ex[d];
      x[12 * k + 9 + d] = o - h * ex[d];
    }
  }
  return x;
}

// `batch` random clusters of n molecules, one after the other.
std::vector<double> markerBatch(std::size_t n, std::size_t batch, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> x;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> one = randomCluster(n, rng);
    x.insert(x.end(), one.begin(), one.end());
  }
  return x;
}

double maxAbs(const double* v, std::size_t n) {
  double m = 0.0;
  for (std::size_t k = 0; k < n; ++k) m = std::max(m, std::fabs(v[k]));
  return m;
}

bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}

double energyTolerance(double e) { return 1e-10 * std::max(std::fabs(e), 1.0); }

// One structure's GPU energy and gradient against the CPU reference.
void expectMatchesCpu(SoftStickyDipole& cpu, const double* x, double e, const double* g,
                      const std::string& what) {
  const std::size_t dim = cpu.dimension();
  std::vector<double> gc(dim);
  const double ec = cpu.energyGradient(x, gc.data());
  ASSERT_TRUE(std::isfinite(ec)) << what;
  EXPECT_LE(std::fabs(e - ec), energyTolerance(ec)) << what << ": " << e << " against " << ec;
  const double scale = maxAbs(gc.data(), dim);
  for (std::size_t k = 0; k < dim; ++k)
    ASSERT_LE(std::fabs(g[k] - gc[k]), 1e-10 * scale) << what << ", entry " << k;
}

TEST(BatchedSoftStickyDipoleCuda, MarkerKernelMatchesTheCpuAtAnyBatch) {
  SKIP_WITHOUT_GPU();
  const SoftStickyDipoleParams params;
  for (const std::size_t n : {2, 7, 13, 40}) {
    SoftStickyDipole reference(params, n);
    BatchedSoftStickyDipoleCuda gpu(params, n);
    const std::size_t dim = gpu.dimension();
    ASSERT_EQ(dim, 12 * n);
    const std::vector<double> x = markerBatch(n, 300, 100 + n);
    if (n >= 13) {
      // The clusters reach every part of both switches: on, between, off.
      std::size_t inside = 0, between = 0, beyond = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          double ci[3], cj[3];
          SoftStickyDipoleFrame f;
          SoftStickyDipole::centreAndFrame(x.data(), i, ci, f);
          SoftStickyDipole::centreAndFrame(x.data(), j, cj, f);
          const double d =
              std::sqrt((ci[0] - cj[0]) * (ci[0] - cj[0]) + (ci[1] - cj[1]) * (ci[1] - cj[1]) +
                        (ci[2] - cj[2]) * (ci[2] - cj[2]));
          inside += d < params.rL;
          between += d > params.rL && d < params.rUPrime;
          beyond += d > params.rUPrime;
        }
      EXPECT_GT(inside, 0u);
      EXPECT_GT(between, 0u);
      EXPECT_GT(beyond, 0u);
    }
    // B = 300 with every third structure inactive; B = 5; B = 1.
    std::vector<std::uint8_t> active(300);
    for (std::size_t b = 0; b < 300; ++b) active[b] = b % 3 != 1;
    std::vector<double> g(x.size(), 7.0), e(300, 7.0);
    gpu.energyGradient(300, x.data(), g.data(), e.data(), active.data());
    std::vector<double> g5(5 * dim), e5(5), g1(dim), e1(1);
    gpu.energyGradient(5, x.data() + 3 * dim, g5.data(), e5.data(), nullptr);
    gpu.energyGradient(1, x.data() + 6 * dim, g1.data(), e1.data(), nullptr);
    for (std::size_t b = 0; b < 300; ++b) {
      const std::string what = "n " + std::to_string(n) + ", structure " + std::to_string(b);
      if (!active[b]) {
        EXPECT_EQ(e[b], 7.0) << "inactive energy written, " << what;
        for (std::size_t k = 0; k < dim; ++k) ASSERT_EQ(g[b * dim + k], 7.0) << what;
        continue;
      }
      expectMatchesCpu(reference, x.data() + b * dim, e[b], g.data() + b * dim, what);
    }
    for (std::size_t b = 0; b < 5; ++b)
      expectMatchesCpu(reference, x.data() + (3 + b) * dim, e5[b], g5.data() + b * dim,
                       "n " + std::to_string(n) + ", batch of 5, structure " + std::to_string(b));
    // Structure 3 of the big batch is structure 0 of the batch of 5; 6 the batch of one.
    EXPECT_TRUE(sameBits(&e5[0], &e[3], 1)) << n;
    EXPECT_TRUE(sameBits(g5.data(), g.data() + 3 * dim, dim)) << n;
    EXPECT_TRUE(sameBits(&e5[3], &e[6], 1)) << n;
    EXPECT_TRUE(sameBits(g5.data() + 3 * dim, g.data() + 6 * dim, dim)) << n;
    EXPECT_TRUE(sameBits(&e1[0], &e[6], 1)) << n;
    EXPECT_TRUE(sameBits(g1.data(), g.data() + 6 * dim, dim)) << n;
    // The batch of one: the same bits.
    SoftStickyDipoleCuda single(params, n);
    std::vector<double> gs(dim);
    const double es = single.energyGradient(x.data() + 6 * dim, gs.data());
    EXPECT_TRUE(sameBits(&es, &e[6], 1)) << n;
    EXPECT_TRUE(sameBits(gs.data(), g.data() + 6 * dim, dim)) << n;
  }
}

TEST(BatchedSoftStickyDipoleCuda, DeviceEntryPointOnAStreamHasTheHostEntrysBits) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 13, batch = 9;
  const SoftStickyDipoleParams params;
  BatchedSoftStickyDipoleCuda gpu(params, n);
  const std::size_t dim = gpu.dimension();
  const std::vector<double> x = markerBatch(n, batch, 7);
  std::vector<double> g(x.size()), e(batch), again(x.size()), eAgain(batch);
  gpu.energyGradient(batch, x.data(), g.data(), e.data(), nullptr);
  gpu.energyGradient(batch, x.data(), again.data(), eAgain.data(), nullptr);
  EXPECT_TRUE(sameBits(g.data(), again.data(), x.size())) << "run to run";
  EXPECT_TRUE(sameBits(e.data(), eAgain.data(), batch)) << "run to run";
  // The batch reversed: every structure keeps its bits.
  std::vector<double> reversed;
  for (std::size_t b = batch; b-- > 0;)
    reversed.insert(reversed.end(), x.begin() + b * dim, x.begin() + (b + 1) * dim);
  std::vector<double> gBack(x.size()), eBack(batch);
  gpu.energyGradient(batch, reversed.data(), gBack.data(), eBack.data(), nullptr);
  // The device entry point on a non-blocking stream with a device mask.
  std::vector<std::uint8_t> active(batch, 1);
  active[1] = active[4] = active[5] = 0;
  DeviceBuffer<double> dx(x), dg(std::vector<double>(x.size(), 7.0)),
      de(std::vector<double>(batch, 7.0));
  DeviceBuffer<std::uint8_t> dActive(active);
  cudaStream_t stream = nullptr;
  LANDSCAPE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  gpu.energyGradientDevice(batch, dx.data(), dg.data(), de.data(), dActive.data(), stream);
  LANDSCAPE_CUDA_CHECK(cudaStreamSynchronize(stream));
  LANDSCAPE_CUDA_CHECK(cudaStreamDestroy(stream));
  const std::vector<double> deviceG = dg.toHost(), deviceE = de.toHost();
  for (std::size_t b = 0; b < batch; ++b) {
    const std::string what = "structure " + std::to_string(b);
    const std::size_t r = batch - 1 - b;
    EXPECT_TRUE(sameBits(&eBack[r], &e[b], 1)) << what << " (reversed)";
    EXPECT_TRUE(sameBits(&gBack[r * dim], &g[b * dim], dim)) << what << " (reversed)";
    if (active[b]) {
      EXPECT_TRUE(sameBits(&deviceE[b], &e[b], 1)) << what << " (device entry)";
      EXPECT_TRUE(sameBits(&deviceG[b * dim], &g[b * dim], dim)) << what << " (device entry)";
    } else {
      EXPECT_EQ(deviceE[b], 7.0) << what;
      for (std::size_t k = 0; k < dim; ++k) ASSERT_EQ(deviceG[b * dim + k], 7.0) << what;
    }
  }
}

TEST(BatchedSoftStickyDipoleCuda, AnyBlockSizeMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  // 70 molecules: three passes of a 32-thread block, a partial warp of 96, idle threads of 256;
  // 1024 threads either run or are refused at construction (registers per block).
  const std::size_t n = 70, batch = 4;
  const SoftStickyDipoleParams params;
  SoftStickyDipole reference(params, n);
  const std::vector<double> x = markerBatch(n, batch, 31);
  for (const int threads : {0, 32, 96, 256, 1024}) {
    std::unique_ptr<BatchedSoftStickyDipoleCuda> made;
    try {
      made = std::make_unique<BatchedSoftStickyDipoleCuda>(params, n, threads);
    } catch (const std::invalid_argument& error) {
      // A block beyond the kernel's registers is refused with a sentence, never at launch.
      EXPECT_GT(threads, 256) << error.what();
      EXPECT_NE(std::string(error.what()).find("threads per structure"), std::string::npos)
          << error.what();
      continue;
    }
    BatchedSoftStickyDipoleCuda& gpu = *made;
    EXPECT_EQ(gpu.threadsPerStructure(), threads == 0 ? 96 : threads);
    const std::size_t dim = gpu.dimension();
    std::vector<double> g(x.size()), e(batch);
    gpu.energyGradient(batch, x.data(), g.data(), e.data(), nullptr);
    for (std::size_t b = 0; b < batch; ++b)
      expectMatchesCpu(reference, x.data() + b * dim, e[b], g.data() + b * dim,
                       std::to_string(threads) + " threads, structure " + std::to_string(b));
  }
}

TEST(BatchedSoftStickyDipoleCuda, BadArgumentsThrowWithASentence) {
  // The arguments are checked before the device is looked for.
  SoftStickyDipoleParams bad;
  bad.epsilon = -1.0;
  EXPECT_THROW(BatchedSoftStickyDipoleCuda(bad, 7), std::invalid_argument);
  EXPECT_THROW(BatchedSoftStickyDipoleCuda(SoftStickyDipoleParams(), 1), std::invalid_argument);
  EXPECT_THROW(BatchedSoftStickyDipoleCuda(SoftStickyDipoleParams(), 7, 48), std::invalid_argument);
  EXPECT_THROW(SoftStickyDipoleCuda(SoftStickyDipoleParams(), 1), std::invalid_argument);
  SKIP_WITHOUT_GPU();
  BatchedSoftStickyDipoleCuda potential(SoftStickyDipoleParams(), 7);
  EXPECT_TRUE(potential.isDeviceResident());
  EXPECT_EQ(potential.bytesPerStructure(), 0u);
  EXPECT_EQ(potential.moleculeCount(), 7u);
  EXPECT_EQ(potential.dimension(), 84u);
  EXPECT_EQ(potential.params().sigma, SoftStickyDipoleParams().sigma);
  EXPECT_NE(potential.name().find("SSD"), std::string::npos) << potential.name();
  double e = 0.0;
  EXPECT_THROW(potential.energyGradient(1, nullptr, nullptr, &e, nullptr), std::invalid_argument);
  EXPECT_THROW(potential.energyGradientDevice(1, nullptr, nullptr, &e, nullptr, nullptr),
               std::invalid_argument);
}

TEST(SoftStickyDipoleCuda, MatchesTheCpuOnHostAndDeviceArrays) {
  SKIP_WITHOUT_GPU();
  const SoftStickyDipoleParams params;
  for (const std::size_t n : {2, 7, 13, 40}) {
    SoftStickyDipole cpu(params, n);
    SoftStickyDipoleCuda gpu(params, n);
    EXPECT_EQ(gpu.backend(), Backend::Cuda);
    ASSERT_TRUE(gpu.isDeviceResident());
    EXPECT_EQ(gpu.dimension(), cpu.dimension());
    std::string name = cpu.name();
    EXPECT_EQ(gpu.name(), name.substr(0, name.rfind("(cpu)")) + "(cuda)");
    const std::vector<double> x = markerBatch(n, 1, 500 + n);
    std::vector<double> g(12 * n);
    const double e = gpu.energyGradient(x.data(), g.data());
    expectMatchesCpu(cpu, x.data(), e, g.data(), "n " + std::to_string(n));
    const double eOnly = gpu.energy(x.data());
    EXPECT_TRUE(sameBits(&eOnly, &e, 1)) << n;
    DeviceBuffer<double> dx(x), dg(12 * n);
    const double eDevice = gpu.energyGradientDevice(dx.data(), dg.data());
    const std::vector<double> gDevice = dg.toHost();
    EXPECT_TRUE(sameBits(&eDevice, &e, 1)) << n;
    EXPECT_TRUE(sameBits(gDevice.data(), g.data(), 12 * n)) << n;
    // Per-marker energies are the CPU reference's.
    std::vector<double> ag(4 * n), ac(4 * n);
    ASSERT_TRUE(gpu.perAtomEnergies(x.data(), ag.data()));
    ASSERT_TRUE(cpu.perAtomEnergies(x.data(), ac.data()));
    EXPECT_EQ(ag, ac);
  }
}

// Rigid coordinates of `batch` random clusters of the system's molecules.
std::vector<double> rigidBatch(const RigidBodySystem& system, std::size_t n, std::size_t batch,
                               std::uint64_t seed) {
  const std::vector<double> x = markerBatch(n, batch, seed);
  std::vector<double> q;
  for (std::size_t b = 0; b < batch; ++b) {
    const std::vector<double> one =
        system.fromAtoms(std::vector<double>(x.begin() + b * 12 * n, x.begin() + (b + 1) * 12 * n));
    q.insert(q.end(), one.begin(), one.end());
  }
  return q;
}

TEST(SoftStickyDipoleCuda, DeviceRigidLayerMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 8;
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), n);
  const RigidBodySystem system = cluster.rigidSystem();
  SoftStickyDipole markers(cluster.params, n);
  SoftStickyDipoleCuda deviceMarkers(cluster.params, n);
  RigidBodyPotential cpu(markers, system);
  RigidBodyCuda gpu(deviceMarkers, system);  // markers, gradient and projection on the device
  const std::vector<double> q = rigidBatch(system, n, 1, 3);
  std::vector<double> gc(q.size()), gg(q.size());
  const double ec = cpu.energyGradient(q.data(), gc.data());
  const double eg = gpu.energyGradient(q.data(), gg.data());
  ASSERT_TRUE(std::isfinite(ec));
  EXPECT_LE(std::fabs(eg - ec), energyTolerance(ec));
  const double scale = std::max(1.0, maxAbs(gc.data(), gc.size()));
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(gg[i], gc[i], 1e-10 * scale) << i;
  EXPECT_NEAR(gpu.rmsGradient(q.data(), gg.data()), cpu.rmsGradient(q.data(), gc.data()),
              1e-10 * scale);
}

TEST(SoftStickyDipoleCuda, GpuLbfgsFollowsTheCpuIterates) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 8;
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), n);
  const RigidBodySystem system = cluster.rigidSystem();
  SoftStickyDipole markers(cluster.params, n);
  SoftStickyDipoleCuda deviceMarkers(cluster.params, n);
  RigidBodyPotential cpu(markers, system);
  RigidBodyCuda gpu(deviceMarkers, system);
  LbfgsParams params;
  params.maxIterations = 20000;
  params.rmsTolerance = 1e-6;
  const std::vector<double> start = rigidBatch(system, n, 1, 5);
  auto run = [&](LbfgsBackend backend, Potential& potential, std::vector<double>& q,
                 std::vector<double>& energies) {
    auto ws = lbfgsWorkspaceFactory(backend)(potential, params.historySize);
    ws->setCoordinates(q.data());
    const LbfgsResult r = Lbfgs(params).minimize(
        *ws, [&](const LbfgsIteration& it) { energies.push_back(it.energy); });
    ws->getCoordinates(q.data());
    return r;
  };
  std::vector<double> qc = start, qg = start, ec, eg;
  const LbfgsResult rc = run(LbfgsBackend::Cpu, cpu, qc, ec);
  const LbfgsResult rg = run(LbfgsBackend::Gpu, gpu, qg, eg);
  EXPECT_TRUE(rc.converged());
  EXPECT_TRUE(rg.converged());
  // The same iterates to round-off at first (later round-off may be amplified).
  for (std::size_t i = 0; i < std::min<std::size_t>({ec.size(), eg.size(), 20}); ++i)
    EXPECT_NEAR(eg[i], ec[i], 1e-9 * std::max(std::fabs(ec[i]), 1.0)) << "iteration " << i + 1;
  std::vector<double> g(qg.size());
  cpu.energyGradient(qg.data(), g.data());
  EXPECT_LT(cpu.rmsGradient(qg.data(), g.data()), 1.01e-6);
}

TEST(BatchedSoftStickyDipoleCuda, BatchedRigidLayerMatchesTheCpuRigidLayer) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 13, batch = 64;
  const SoftStickyDipoleParams params;
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(params, n);
  const RigidBodySystem system = cluster.rigidSystem();
  SoftStickyDipole markers(params, n);
  RigidBodyPotential cpu(markers, system);
  BatchedSoftStickyDipoleCuda atomistic(params, n);
  BatchedRigidBodyCuda gpu(atomistic, system, batch);
  const std::size_t dim = system.dimension();
  ASSERT_EQ(gpu.dimension(), dim);
  const std::vector<double> q = rigidBatch(system, n, batch, 200);
  std::vector<double> g(q.size()), e(batch), gc(dim);
  gpu.energyGradient(batch, q.data(), g.data(), e.data(), nullptr);
  for (std::size_t b = 0; b < batch; ++b) {
    const double ec = cpu.energyGradient(q.data() + b * dim, gc.data());
    EXPECT_LE(std::fabs(e[b] - ec), energyTolerance(ec)) << "structure " << b;
    const double scale = maxAbs(gc.data(), dim);
    for (std::size_t k = 0; k < dim; ++k)
      ASSERT_LE(std::fabs(g[b * dim + k] - gc[k]), 1e-10 * scale)
          << "structure " << b << ", entry " << k;
  }
}

PotentialSpec ssdSpec(std::size_t molecules) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::SoftStickyDipole;
  spec.atoms = kSoftStickyDipoleMarkers * molecules;
  return spec;
}

TEST(SoftStickyDipoleCuda, FactoriesBuildTheCpuReferenceOnTheCpu) {
  const PotentialSpec spec = ssdSpec(5);
  auto cpu = makePotential(spec, Backend::Cpu);
  SoftStickyDipole reference(SoftStickyDipoleParams(), 5);
  EXPECT_EQ(cpu->name(), reference.name());
  const std::vector<double> x = markerBatch(5, 2, 31);
  std::vector<double> g1(60), g2(60), g(120), e(2);
  EXPECT_EQ(cpu->energyGradient(x.data(), g1.data()),
            reference.energyGradient(x.data(), g2.data()));
  EXPECT_EQ(g1, g2);
  auto batched = makeBatchedPotentialForSpec(spec, Backend::Cpu, BatchedPotentialOptions());
  batched->energyGradient(2, x.data(), g.data(), e.data(), nullptr);
  EXPECT_EQ(e[1], reference.energyGradient(x.data() + 60, g2.data()));
  EXPECT_EQ(std::vector<double>(g.begin() + 60, g.end()), g2);
  EXPECT_FALSE(
      batchedPotentialIsDeviceResident(PotentialSpec::Kind::SoftStickyDipole, Backend::Cpu));
  EXPECT_TRUE(
      batchedPotentialIsDeviceResident(PotentialSpec::Kind::SoftStickyDipole, Backend::Cuda));
  PotentialSpec odd = spec;
  odd.atoms = 18;  // not 4 markers per molecule
  EXPECT_THROW(makePotential(odd, Backend::Cpu), std::invalid_argument);
  odd.atoms = 4;  // one molecule
  EXPECT_THROW(makeBatchedPotentialForSpec(odd, Backend::Cpu, BatchedPotentialOptions()),
               std::invalid_argument);
  PotentialSpec bad = spec;
  bad.softStickyDipole.sigma = -1.0;
  EXPECT_THROW(makePotential(bad, Backend::Cpu), std::invalid_argument);
}

TEST(SoftStickyDipoleCuda, FactoriesBuildTheDeviceTwins) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 7, batch = 9;
  SoftStickyDipole reference(SoftStickyDipoleParams(), n);
  const std::vector<double> x = markerBatch(n, batch, 41);
  auto single = makePotential(ssdSpec(n), Backend::Cuda);
  std::vector<double> g(12 * n * batch), e(batch);
  const double e0 = single->energyGradient(x.data(), g.data());
  expectMatchesCpu(reference, x.data(), e0, g.data(), "makePotential");
  auto batched = makeBatchedPotentialForSpec(ssdSpec(n), Backend::Cuda, BatchedPotentialOptions());
  batched->energyGradient(batch, x.data(), g.data(), e.data(), nullptr);
  for (std::size_t b = 0; b < batch; ++b)
    expectMatchesCpu(reference, x.data() + 12 * n * b, e[b], g.data() + 12 * n * b,
                     "makeBatchedPotentialForSpec, structure " + std::to_string(b));
  // The rigid layer over it, as gmin's walkers build it.
  const SoftStickyDipoleCluster cluster = softStickyDipoleCluster(SoftStickyDipoleParams(), n);
  const RigidBodySystem system = cluster.rigidSystem();
  RigidBodyPotential cpuRigid(reference, system);
  auto rigid =
      makeBatchedRigidPotential(ssdSpec(n), system, Backend::Cuda, BatchedPotentialOptions());
  const std::vector<double> q = rigidBatch(system, n, batch, 51);
  const std::size_t dim = system.dimension();
  std::vector<double> gq(q.size()), eq(batch), gc(dim);
  rigid->energyGradient(batch, q.data(), gq.data(), eq.data(), nullptr);
  for (std::size_t b = 0; b < batch; ++b) {
    const double ec = cpuRigid.energyGradient(q.data() + b * dim, gc.data());
    EXPECT_LE(std::fabs(eq[b] - ec), energyTolerance(ec)) << "structure " << b;
    const double scale = maxAbs(gc.data(), dim);
    for (std::size_t k = 0; k < dim; ++k)
      ASSERT_LE(std::fabs(gq[b * dim + k] - gc[k]), 1e-10 * scale) << b << ", " << k;
  }
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace
}  // namespace landscape
