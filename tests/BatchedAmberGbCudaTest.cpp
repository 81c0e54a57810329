// Batched AMBER-GB on the GPU (docs/batched.md): B structures of one topology per launch
// sequence against the CPU oracle (PerStructureBatchedPotential over AmberGb, i.e. the CPU
// reference structure by structure), and the bit identity that makes one code path for B = 1 and
// B > 1: a structure's energy and gradient are the same bits alone, in any batch, at any position,
// under any mask, through AmberGbCuda and through both entry points. Both work layouts (latency:
// AmberGbCuda's; throughput: a tile pair per block) are checked; their bits differ from each
// other, never with the batch. Without a CUDA device the GPU tests skip; the factory and argument
// checks on the CPU run everywhere, the slot-item layout check in every CUDA build.
//
// Tolerances as tests/AmberGbCudaTest.cpp: per structure, each component within 1e-10
// (double) / 1e-5 (mixed) of the sum of the absolute values of its terms, the energy within that
// fraction of the sum over the components, the gradient difference norm within 1e-9 / 1e-4 of
// the CPU gradient norm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/core/Precision.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "potentials/BatchedPotential.h"
#include "potentials/PerStructureBatchedPotential.h"
#include "tests/TestData.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu/AmberGbCuda.h"
#include "gpu/AmberGbKernels.cuh"
#include "gpu/BatchedAmberGbCuda.h"
#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#endif

namespace landscape {
namespace {

struct GbSystem {
  const char* name;
  const char* prmtop;
  const char* inpcrd;
  double saltcon;
  double rgbmax;
  int igb;
};

// trpcage at the REFERENCE.md conditions; ash at sander's (salt 0, rgbmax 25) with igb 5.
const GbSystem kTrpcage{"trpcage", "gb/trpcage/prmtop", "gb/trpcage/inpcrd", 0.2, 12.0, 2};
const GbSystem kAsh{"ash", "gb/ash/ash.parm7", "gb/ash/ash.rst7", 1.0, 25.0, 5};

struct Loaded {
  std::shared_ptr<AmberTopology> topology;
  std::vector<double> x;  // the file's structure, A
  AmberGbParams params;
};

bool load(const GbSystem& s, Loaded* out, std::string* why) {
  const auto prmtop = testDataPath(s.prmtop), inpcrd = testDataPath(s.inpcrd);
  if (!prmtop || !inpcrd) {
    *why = std::string("GB test system not found under ") + testDataRoot() + " (" + s.prmtop +
           "); set LANDSCAPE_TEST_DATA";
    return false;
  }
  out->topology = std::make_shared<AmberTopology>(readAmberTopology(*prmtop));
  out->x = readAmberCoordinates(*inpcrd, *out->topology).positions;
  out->params.igb = s.igb;
  out->params.saltcon = s.saltcon;
  out->params.rgbmax = s.rgbmax;
  return true;
}

/// `count` structures: the file's structure with every coordinate moved by up to `amplitude` A
/// (a different seed per structure), one after the other.
std::vector<double> perturbedBatch(const std::vector<double>& x, std::size_t count,
                                   double amplitude, std::uint64_t seed) {
  std::vector<double> batch;
  for (std::size_t b = 0; b < count; ++b) {
    std::mt19937_64 rng(seed + b);
    std::uniform_real_distribution<double> u(-amplitude, amplitude);
    for (double v : x) batch.push_back(v + u(rng));
  }
  return batch;
}

bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}
bool sameBits(double a, double b) { return sameBits(&a, &b, 1); }

double norm(const double* v, std::size_t n) {
  double s = 0.0;
  for (std::size_t k = 0; k < n; ++k) s += v[k] * v[k];
  return std::sqrt(s);
}

PotentialSpec amberSpec(const Loaded& sys) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::AmberGb;
  spec.amberTopology = sys.topology;
  spec.amber = sys.params;
  return spec;
}

// ---- on every machine: the factory and the argument checks ---------------------------------

TEST(BatchedPotentialFactory, AmberGbOnTheCpuIsTheReferenceStructureByStructure) {
  Loaded sys;
  std::string why;
  if (!load(kAsh, &sys, &why)) GTEST_SKIP() << why;
  PotentialSpec spec = amberSpec(sys);
  AmberGb reference(*sys.topology, sys.params);
  const std::size_t n = reference.dimension(), batch = 5;
  const std::vector<double> x = perturbedBatch(sys.x, batch, 0.2, 7);
  for (int threads : {1, 2}) {
    std::unique_ptr<BatchedPotential> batched =
        makeBatchedPotentialForSpec(spec, Backend::Cpu, {threads, {}, 1});
    ASSERT_EQ(batched->dimension(), n);
    std::vector<double> g(batch * n, -3.0), e(batch, -3.0);
    const std::vector<std::uint8_t> active{1, 1, 0, 1, 1};
    EXPECT_EQ(evaluateBatch(*batched, x, g, e, active), batch);
    for (std::size_t b = 0; b < batch; ++b) {
      if (!active[b]) {
        EXPECT_EQ(e[b], -3.0);
        for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(g[b * n + k], -3.0);
        continue;
      }
      std::vector<double> gRef(n);
      const double eRef = reference.energyGradient(&x[b * n], gRef.data());
      EXPECT_TRUE(sameBits(e[b], eRef)) << "structure " << b << ", " << threads << " threads";
      EXPECT_TRUE(sameBits(&g[b * n], gRef.data(), n)) << "structure " << b;
    }
  }
}

TEST(BatchedPotentialFactory, RefusesBadSpecsWithASentence) {
  PotentialSpec amber;
  amber.kind = PotentialSpec::Kind::AmberGb;  // no topology
  EXPECT_THROW(makeBatchedPotentialForSpec(amber, Backend::Cpu), std::invalid_argument);
  PotentialSpec lj;
  lj.atoms = 13;
  EXPECT_THROW(makeBatchedPotentialForSpec(lj, Backend::Cpu, {0, {}, 1}), std::invalid_argument);
  lj.atoms = 1;
  EXPECT_THROW(makeBatchedPotentialForSpec(lj, Backend::Cpu), std::invalid_argument);
  lj.atoms = 13;
  EXPECT_EQ(makeBatchedPotentialForSpec(lj, Backend::Cpu)->dimension(), 39u);
  if (!gpuAvailable()) {
    EXPECT_THROW(makeBatchedPotentialForSpec(lj, Backend::Cuda), std::runtime_error);
  }
}

TEST(BatchedPotentialFactory, EvaluateBatchRefusesMismatchedSizes) {
  PotentialSpec lj;
  lj.atoms = 3;
  std::unique_ptr<BatchedPotential> p = makeBatchedPotentialForSpec(lj, Backend::Cpu);
  std::vector<double> x(18, 0.0), g(18), e(2);
  for (int k = 0; k < 18; ++k) x[k] = 1.1 * k;  // no overlaps
  EXPECT_EQ(evaluateBatch(*p, x, g, e), 2u);
  std::vector<double> empty, gShort(17), eLong(3), xRagged(17);
  const auto throwsSentence = [&](auto call, const char* needle) {
    try {
      call();
      ADD_FAILURE() << "no exception (" << needle << ")";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(needle), std::string::npos) << error.what();
    }
  };
  throwsSentence([&] { evaluateBatch(*p, empty, g, e); }, "at least one");
  throwsSentence([&] { evaluateBatch(*p, xRagged, g, e); }, "whole number");
  throwsSentence([&] { evaluateBatch(*p, x, gShort, e); }, "gradients");
  throwsSentence([&] { evaluateBatch(*p, x, g, eLong); }, "energies");
  throwsSentence([&] { evaluateBatch(*p, x, g, e, {1, 0, 1}); }, "active mask");
}

#ifdef LANDSCAPE_HAVE_CUDA

#define REQUIRE_GPU() \
  if (!gpuAvailable()) GTEST_SKIP() << "no CUDA device: " << gpuDescription()

// The per-atom slot sums read, for each tile, exactly the slot items that the pair grid writes for
// it, in (chunk, part) order for its row slots and (row block, part) order for its column slots:
// the task list is enumerated here as the pair kernel runs it (task (b, c) exists when chunk c
// reaches row tile R b; its blocks write row slots of tiles R b .. R b + R - 1 and column slots of
// the chunk's tiles, R rows per block) and compared with gbTileSlotItems' two contiguous ranges.
// Host only.
TEST(BatchedAmberGbLayout, SlotItemsOfATileAreThoseThePairGridWrites) {
  const long long item = static_cast<long long>(kGbSlotValues) * kGbTile;
  for (std::size_t atoms : {1, 25, 32, 33, 257, 304, 1664, 2492, 4000, 24920})
    for (int chunk : {1, 2, 3, 8})
      for (int parts : {1, 2, 4, 8})
        for (int rows : {1, 2, 4, 8}) {
          const GbPairLayout l = gbPairLayout(atoms, chunk, parts, rows);
          ASSERT_EQ(l.rows, rows);
          std::vector<std::vector<long long>> rowWritten(l.tiles), columnWritten(l.tiles);
          int tasks = 0;
          for (int b = 0; b < l.rowBlocks; ++b)
            for (int c = 0; c < l.chunks; ++c) {
              const int lastColumn = std::min(l.tiles - 1, c * chunk + chunk - 1);
              if (lastColumn < b * rows) continue;
              ++tasks;
              for (int part = 0; part < parts; ++part) {
                for (int row = b * rows; row < std::min(l.tiles, (b + 1) * rows); ++row)
                  rowWritten[row].push_back(((1LL * row * l.chunks + c) * parts + part) * item);
                for (int column = c * chunk; column <= lastColumn; ++column)
                  columnWritten[column].push_back(
                      ((1LL * column * l.rowBlocks + b) * parts + part) * item);
              }
            }
          ASSERT_EQ(tasks, l.taskCount);
          for (int tile = 0; tile < l.tiles; ++tile) {
            std::sort(rowWritten[tile].begin(), rowWritten[tile].end());
            std::sort(columnWritten[tile].begin(), columnWritten[tile].end());
            const GbTileSlotItems s = gbTileSlotItems(l, tile);
            std::vector<long long> rowRead, columnRead;
            for (int j = 0; j < s.rowCount; ++j) rowRead.push_back(s.rowBase + j * item);
            for (int j = 0; j < s.columnCount; ++j) columnRead.push_back(s.columnBase + j * item);
            ASSERT_EQ(rowRead, rowWritten[tile]) << atoms << " atoms, chunk " << chunk << ", parts "
                                                 << parts << ", rows " << rows << ", tile " << tile;
            ASSERT_EQ(columnRead, columnWritten[tile])
                << atoms << " atoms, chunk " << chunk << ", parts " << parts << ", rows " << rows
                << ", tile " << tile;
          }
        }
  EXPECT_THROW(gbPairLayout(304, 1, 1, 3), std::invalid_argument);
}

struct Evaluated {
  std::vector<double> g, e;
};

/// The host entry point on a batch; g and e start as NaN sentinels.
Evaluated evaluateHost(BatchedPotential& p, const std::vector<double>& x,
                       const std::vector<std::uint8_t>& active = {}) {
  Evaluated r;
  r.g.assign(x.size(), std::numeric_limits<double>::quiet_NaN());
  r.e.assign(x.size() / p.dimension(), std::numeric_limits<double>::quiet_NaN());
  evaluateBatch(p, x, r.g, r.e, active);
  return r;
}

/// Structure b of x alone, as a batch of one of a fresh BatchedAmberGbCuda.
Evaluated alone(const Loaded& sys, Precision precision, const std::vector<double>& x, std::size_t b,
                AmberGbCudaLayout layout = AmberGbCudaLayout::Latency) {
  BatchedAmberGbCuda single(*sys.topology, sys.params, precision, 1, layout);
  const std::size_t n = single.dimension();
  return evaluateHost(single, std::vector<double>(x.begin() + b * n, x.begin() + (b + 1) * n));
}

using OracleCase = std::tuple<GbSystem, Precision, AmberGbCudaLayout>;
class BatchedAmberGbCudaVsCpu : public testing::TestWithParam<OracleCase> {};

TEST_P(BatchedAmberGbCudaVsCpu, EveryStructureMatchesTheCpuOracle) {
  REQUIRE_GPU();
  const GbSystem system = std::get<0>(GetParam());
  const Precision precision = std::get<1>(GetParam());
  const AmberGbCudaLayout layout = std::get<2>(GetParam());
  Loaded sys;
  std::string why;
  if (!load(system, &sys, &why)) GTEST_SKIP() << why;
  const double componentTolerance = precision == Precision::Double ? 1e-10 : 1e-5;
  const double gradientTolerance = precision == Precision::Double ? 1e-9 : 1e-4;

  const std::size_t batch = 6;
  const std::vector<double> x = perturbedBatch(sys.x, batch, 0.2, 20261124);
  AmberGb reference(*sys.topology, sys.params);
  PerStructureBatchedPotential oracle({&reference});
  const std::size_t n = reference.dimension();
  const Evaluated cpu = evaluateHost(oracle, x);

  BatchedAmberGbCuda gpu(*sys.topology, sys.params, precision, 1, layout);
  ASSERT_EQ(gpu.dimension(), n);
  const std::vector<std::uint8_t> active{1, 1, 1, 0, 1, 1};
  const Evaluated dev = evaluateHost(gpu, x, active);
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active[b]) {  // neither read nor written: the NaN sentinels stay
      EXPECT_TRUE(std::isnan(dev.e[b]));
      for (std::size_t k = 0; k < n; ++k) ASSERT_TRUE(std::isnan(dev.g[b * n + k])) << k;
      continue;
    }
    const double* xb = &x[b * n];
    const AmberEnergyBreakdown partsCpu = reference.breakdown(xb);
    const AmberEnergyBreakdown scale = reference.absoluteSums(xb);
    const AmberEnergyBreakdown partsGpu = gpu.breakdown(b);
    EXPECT_TRUE(sameBits(dev.e[b], partsGpu.total())) << "structure " << b;
    const double pairs[8][3] = {{partsCpu.bond, partsGpu.bond, scale.bond},
                                {partsCpu.angle, partsGpu.angle, scale.angle},
                                {partsCpu.dihedral, partsGpu.dihedral, scale.dihedral},
                                {partsCpu.vdw, partsGpu.vdw, scale.vdw},
                                {partsCpu.eel, partsGpu.eel, scale.eel},
                                {partsCpu.vdw14, partsGpu.vdw14, scale.vdw14},
                                {partsCpu.eel14, partsGpu.eel14, scale.eel14},
                                {partsCpu.egb, partsGpu.egb, scale.egb}};
    double scaleSum = 0.0;
    for (int c = 0; c < 8; ++c) {
      EXPECT_LE(std::abs(pairs[c][1] - pairs[c][0]), componentTolerance * pairs[c][2])
          << "structure " << b << " component " << c << ": cpu " << pairs[c][0] << " gpu "
          << pairs[c][1];
      scaleSum += pairs[c][2];
    }
    EXPECT_LE(std::abs(dev.e[b] - cpu.e[b]), componentTolerance * scaleSum) << "structure " << b;
    std::vector<double> difference(n);
    for (std::size_t k = 0; k < n; ++k) difference[k] = dev.g[b * n + k] - cpu.g[b * n + k];
    EXPECT_LE(norm(difference.data(), n), gradientTolerance * norm(&cpu.g[b * n], n))
        << "structure " << b;
  }
}

std::string oracleName(const testing::TestParamInfo<OracleCase>& info) {
  return std::string(std::get<0>(info.param).name) + "_" + precisionName(std::get<1>(info.param)) +
         "_" + amberGbCudaLayoutName(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(BatchedAmberGbCuda, BatchedAmberGbCudaVsCpu,
                         testing::Combine(testing::Values(kTrpcage, kAsh),
                                          testing::Values(Precision::Double, Precision::Mixed),
                                          testing::Values(AmberGbCudaLayout::Latency,
                                                          AmberGbCudaLayout::Throughput)),
                         oracleName);

using BitsCase = std::tuple<Precision, AmberGbCudaLayout>;
class BatchedAmberGbCudaBits : public testing::TestWithParam<BitsCase> {};

// A structure's bits alone (B = 1 of the batched class, and AmberGbCuda for the latency layout)
// equal its bits in a batch, in reverse order, under a mask, through the device entry point on a
// stream of its own.
TEST_P(BatchedAmberGbCudaBits, AStructureHasTheSameBitsAloneAndInAnyBatch) {
  REQUIRE_GPU();
  const Precision precision = std::get<0>(GetParam());
  const AmberGbCudaLayout layout = std::get<1>(GetParam());
  Loaded sys;
  std::string why;
  if (!load(kTrpcage, &sys, &why)) GTEST_SKIP() << why;
  const std::size_t batch = 5;
  const std::vector<double> x = perturbedBatch(sys.x, batch, 0.3, 99);
  BatchedAmberGbCuda gpu(*sys.topology, sys.params, precision, 1, layout);
  const std::size_t n = gpu.dimension();

  std::vector<Evaluated> single;
  AmberGbCuda potential(*sys.topology, sys.params, precision);
  for (std::size_t b = 0; b < batch; ++b) {
    single.push_back(alone(sys, precision, x, b, layout));
    if (layout != AmberGbCudaLayout::Latency) continue;
    std::vector<double> g(n);
    const double e = potential.energyGradient(&x[b * n], g.data());
    EXPECT_TRUE(sameBits(e, single[b].e[0])) << "AmberGbCuda, structure " << b;
    EXPECT_TRUE(sameBits(g.data(), single[b].g.data(), n)) << "AmberGbCuda, structure " << b;
  }
  const auto expectAlone = [&](const Evaluated& r, std::size_t row, std::size_t b,
                               const char* where) {
    EXPECT_TRUE(sameBits(r.e[row], single[b].e[0])) << where << ", structure " << b;
    EXPECT_TRUE(sameBits(&r.g[row * n], single[b].g.data(), n)) << where << ", structure " << b;
  };

  const Evaluated all = evaluateHost(gpu, x);
  for (std::size_t b = 0; b < batch; ++b) expectAlone(all, b, b, "whole batch");

  // Batches in which 4 warps, then 1, form each per-atom slot sum instead of 16
  // (gpu/AmberGbKernels.cuh, kGbSlotSumFillWarps): the same bits.
  for (const std::size_t rows : {std::size_t{32}, std::size_t{128}, std::size_t{256}}) {
    std::vector<double> y = x;
    const std::vector<double> more = perturbedBatch(sys.x, rows - batch, 0.3, 7);
    y.insert(y.end(), more.begin(), more.end());
    const std::string where = "batch of " + std::to_string(rows);
    const Evaluated large = evaluateHost(gpu, y);
    for (std::size_t b = 0; b < batch; ++b) expectAlone(large, b, b, where.c_str());
  }

  std::vector<double> reversed;
  for (std::size_t b = batch; b-- > 0;)
    reversed.insert(reversed.end(), x.begin() + b * n, x.begin() + (b + 1) * n);
  const Evaluated back = evaluateHost(gpu, reversed);
  for (std::size_t b = 0; b < batch; ++b) expectAlone(back, batch - 1 - b, b, "reversed batch");

  const std::vector<std::uint8_t> mask{0, 1, 0, 1, 1};
  const Evaluated masked = evaluateHost(gpu, x, mask);
  for (std::size_t b = 0; b < batch; ++b)
    if (mask[b])
      expectAlone(masked, b, b, "masked batch");
    else
      EXPECT_TRUE(std::isnan(masked.e[b]));

  // The device entry point on a non-blocking stream, with a device mask; rows of inactive
  // structures keep their sentinel bits on the device too.
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  DeviceBuffer<double> dX(x), dG(std::vector<double>(batch * n, -5.0)),
      dE(std::vector<double>(batch, -5.0));
  DeviceBuffer<std::uint8_t> dActive(mask);
  gpu.energyGradientDevice(batch, dX.data(), dG.data(), dE.data(), dActive.data(), stream);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  Evaluated device{dG.toHost(), dE.toHost()};
  for (std::size_t b = 0; b < batch; ++b) {
    if (mask[b]) {
      expectAlone(device, b, b, "device entry point");
      continue;
    }
    EXPECT_EQ(device.e[b], -5.0);
    for (std::size_t k = 0; k < n; ++k) ASSERT_EQ(device.g[b * n + k], -5.0);
  }

  // Run to run.
  const Evaluated again = evaluateHost(gpu, x);
  EXPECT_TRUE(sameBits(again.g.data(), all.g.data(), batch * n));
  EXPECT_TRUE(sameBits(again.e.data(), all.e.data(), batch));
}

// One structure with two atoms 0.05 A apart (an energy near 1e15 kcal/mol) in the middle of a
// batch changes no bit of the others.
TEST_P(BatchedAmberGbCudaBits, AnOverlapDoesNotDisturbTheOthers) {
  REQUIRE_GPU();
  const Precision precision = std::get<0>(GetParam());
  const AmberGbCudaLayout layout = std::get<1>(GetParam());
  Loaded sys;
  std::string why;
  if (!load(kTrpcage, &sys, &why)) GTEST_SKIP() << why;
  const std::size_t batch = 4, overlap = 2;
  std::vector<double> x = perturbedBatch(sys.x, batch, 0.2, 5);
  BatchedAmberGbCuda gpu(*sys.topology, sys.params, precision, 1, layout);
  const std::size_t n = gpu.dimension();
  const std::size_t i = 40, j = 200;  // distant in sequence: an LJ pair, not excluded
  for (int c = 0; c < 3; ++c)
    x[overlap * n + 3 * j + c] = x[overlap * n + 3 * i + c] + 0.05 / std::sqrt(3.0);
  const Evaluated r = evaluateHost(gpu, x);
  EXPECT_FALSE(r.e[overlap] < 1e10) << "the overlapping structure's energy " << r.e[overlap];
  for (std::size_t b = 0; b < batch; ++b) {
    if (b == overlap) continue;
    const Evaluated s = alone(sys, precision, x, b, layout);
    EXPECT_TRUE(sameBits(r.e[b], s.e[0])) << "structure " << b;
    EXPECT_TRUE(sameBits(&r.g[b * n], s.g.data(), n)) << "structure " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(BatchedAmberGbCuda, BatchedAmberGbCudaBits,
                         testing::Combine(testing::Values(Precision::Double, Precision::Mixed),
                                          testing::Values(AmberGbCudaLayout::Latency,
                                                          AmberGbCudaLayout::Throughput)),
                         [](const testing::TestParamInfo<BitsCase>& info) {
                           return precisionName(std::get<0>(info.param)) + "_" +
                                  amberGbCudaLayoutName(std::get<1>(info.param));
                         });

TEST(BatchedAmberGbCuda, BadArgumentsThrowWithASentence) {
  REQUIRE_GPU();
  Loaded sys;
  std::string why;
  if (!load(kAsh, &sys, &why)) GTEST_SKIP() << why;
  BatchedAmberGbCuda gpu(*sys.topology, sys.params);
  const std::size_t n = gpu.dimension();
  std::vector<double> x(sys.x), g(n), e(1);
  try {
    gpu.energyGradient(0, x.data(), g.data(), e.data(), nullptr);
    ADD_FAILURE() << "batch 0 accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("at least one structure"), std::string::npos)
        << error.what();
  }
  DeviceBuffer<double> dX(x), dG(n), dE(1);
  EXPECT_THROW(gpu.energyGradientDevice(0, dX.data(), dG.data(), dE.data(), nullptr, nullptr),
               std::invalid_argument);
  EXPECT_THROW(gpu.energyGradientDevice(1, nullptr, dG.data(), dE.data(), nullptr, nullptr),
               std::invalid_argument);
  std::vector<double> gShort(n - 1);
  EXPECT_THROW(evaluateBatch(gpu, x, gShort, e), std::invalid_argument);
  std::vector<double> xTwoAndABit(2 * n + 1), gLong(2 * n + 1), e2(2);
  EXPECT_THROW(evaluateBatch(gpu, xTwoAndABit, gLong, e2), std::invalid_argument);
  EXPECT_THROW(BatchedAmberGbCuda(*sys.topology, sys.params, Precision::Double, 0),
               std::invalid_argument);
  EXPECT_THROW(gpu.breakdown(gpu.reserved()), std::out_of_range);
  EXPECT_THROW(BatchedAmberGbCuda(*sys.topology, sys.params, Precision::Single),
               std::invalid_argument);
}

// The launch sequence as a CUDA graph: an argument set seen a second time is captured
// once and then launched as one graph, with the bits of plain launches (an object with graphs
// off); growing the scratch drops the graphs (they point at the old arenas) and the next
// repeated set is captured anew; on a stream that the caller is capturing, the kernels are
// launched plainly into the caller's graph, which then gives the same bits too; programmatic
// dependent launches (on by default on compute capability 9.0+) against ordinary ones, plain and
// as graphs.
TEST(BatchedAmberGbCuda, GraphLaunchesHaveThePlainBits) {
  REQUIRE_GPU();
  Loaded sys;
  std::string why;
  if (!load(kTrpcage, &sys, &why)) GTEST_SKIP() << why;
  for (Precision precision : {Precision::Double, Precision::Mixed}) {
    SCOPED_TRACE(precisionName(precision));
    BatchedAmberGbCuda graphs(*sys.topology, sys.params, precision);
    BatchedAmberGbCuda plain(*sys.topology, sys.params, precision);
    plain.setGraphLaunches(false);
    plain.setProgrammaticLaunches(false);
    graphs.setGraphLaunches(true);
    graphs.setProgrammaticLaunches(true);
    EXPECT_TRUE(graphs.graphLaunches());
    EXPECT_FALSE(plain.graphLaunches());
    EXPECT_FALSE(plain.programmaticLaunches());
    int device = 0, major = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
              cudaSuccess);
    EXPECT_EQ(graphs.programmaticLaunches(), major >= 9);
    const std::size_t n = graphs.dimension(), big = 3;
    const std::vector<double> x = perturbedBatch(sys.x, big, 0.2, 17);
    const std::vector<std::uint8_t> mask{1, 0, 1};
    DeviceBuffer<double> dX(x), dG(big * n), dE(big);
    DeviceBuffer<std::uint8_t> dActive(mask);

    // Reference bits: plain launches, structure 0 alone and the masked batch of three.
    plain.energyGradientDevice(1, dX.data(), dG.data(), dE.data(), nullptr, nullptr);
    const std::vector<double> g1 = dG.toHost(), e1 = dE.toHost();
    plain.energyGradientDevice(big, dX.data(), dG.data(), dE.data(), dActive.data(), nullptr);
    const std::vector<double> g3 = dG.toHost(), e3 = dE.toHost();
    EXPECT_EQ(plain.graphsCaptured(), 0u);

    // Two sets of output arrays: each seen once, launched plainly; then set a again (captured)
    // and once more (the graph).
    DeviceBuffer<double> dG1(n), dE1(1), dGOther(n), dEOther(1);
    const auto expectOne = [&](double* g, double* e, const char* where) {
      DeviceBuffer<double> sentinel(std::vector<double>(n, -1.0));
      LANDSCAPE_CUDA_CHECK(
          cudaMemcpy(g, sentinel.data(), n * sizeof(double), cudaMemcpyDeviceToDevice));
      graphs.energyGradientDevice(1, dX.data(), g, e, nullptr, nullptr);
      std::vector<double> gHost(n), eHost(1);
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(gHost.data(), g, n * sizeof(double), cudaMemcpyDeviceToHost));
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(eHost.data(), e, sizeof(double), cudaMemcpyDeviceToHost));
      EXPECT_TRUE(sameBits(eHost[0], e1[0])) << where;
      EXPECT_TRUE(sameBits(gHost.data(), g1.data(), n)) << where;
    };
    expectOne(dG1.data(), dE1.data(), "set a, first call");
    expectOne(dGOther.data(), dEOther.data(), "set b, first call");
    EXPECT_EQ(graphs.graphsCaptured(), 0u);
    expectOne(dG1.data(), dE1.data(), "set a, second call (captured)");
    ASSERT_TRUE(graphs.graphLaunches()) << "the capture failed and turned graphs off";
    EXPECT_EQ(graphs.graphsCaptured(), 1u);
    expectOne(dG1.data(), dE1.data(), "set a, third call (graph)");
    EXPECT_EQ(graphs.graphsCaptured(), 1u);
    EXPECT_TRUE(sameBits(graphs.breakdown(0).total(), e1[0]));

    // A larger batch grows the scratch (graphs dropped); repeated, it is captured on its own.
    for (int call = 0; call < 3; ++call) {
      DeviceBuffer<double> sentinel(std::vector<double>(big * n, -5.0));
      LANDSCAPE_CUDA_CHECK(cudaMemcpy(dG.data(), sentinel.data(), big * n * sizeof(double),
                                      cudaMemcpyDeviceToDevice));
      graphs.energyGradientDevice(big, dX.data(), dG.data(), dE.data(), dActive.data(), nullptr);
      const std::vector<double> g = dG.toHost(), e = dE.toHost();
      for (std::size_t b : {std::size_t(0), std::size_t(2)}) {
        EXPECT_TRUE(sameBits(e[b], e3[b])) << "call " << call << ", structure " << b;
        EXPECT_TRUE(sameBits(&g[b * n], &g3[b * n], n)) << "call " << call << ", structure " << b;
      }
      EXPECT_EQ(g[n], -5.0) << "the inactive structure's row was written";
    }
    EXPECT_EQ(graphs.graphsCaptured(), 2u);
    // Back to B = 1 on the old arrays: the old graph went with the old scratch.
    for (int call = 0; call < 2; ++call) {
      graphs.energyGradientDevice(1, dX.data(), dG1.data(), dE1.data(), nullptr, nullptr);
      EXPECT_TRUE(sameBits(dG1.toHost().data(), g1.data(), n)) << "after growth, call " << call;
    }
    EXPECT_EQ(graphs.graphsCaptured(), 3u);

    // Inside the caller's capture: plain launches recorded into the caller's graph.
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    DeviceBuffer<double> dG2(n), dE2(1);  // allocated first: no cudaMalloc inside a capture
    ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
    for (int call = 0; call < 2; ++call)
      graphs.energyGradientDevice(1, dX.data(), dG2.data(), dE2.data(), nullptr, stream);
    cudaGraph_t outer = nullptr;
    ASSERT_EQ(cudaStreamEndCapture(stream, &outer), cudaSuccess);
    EXPECT_EQ(graphs.graphsCaptured(), 3u) << "captured while the caller was capturing";
    cudaGraphExec_t outerExec = nullptr;
    ASSERT_EQ(cudaGraphInstantiate(&outerExec, outer, 0), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(outerExec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_TRUE(sameBits(dE2.toHost().data(), e1.data(), 1));
    EXPECT_TRUE(sameBits(dG2.toHost().data(), g1.data(), n));
    EXPECT_EQ(cudaGraphExecDestroy(outerExec), cudaSuccess);
    EXPECT_EQ(cudaGraphDestroy(outer), cudaSuccess);
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);

    // Plain launches, programmatic (where the device has it) and not.
    graphs.setGraphLaunches(false);
    for (bool programmatic : {true, false}) {
      graphs.setProgrammaticLaunches(programmatic);
      for (int call = 0; call < 2; ++call) {
        graphs.energyGradientDevice(1, dX.data(), dG1.data(), dE1.data(), nullptr, nullptr);
        EXPECT_TRUE(sameBits(dG1.toHost().data(), g1.data(), n))
            << "plain launches, programmatic " << programmatic;
        EXPECT_TRUE(sameBits(dE1.toHost().data(), e1.data(), 1))
            << "plain launches, programmatic " << programmatic;
      }
    }
    EXPECT_EQ(graphs.graphsCaptured(), 3u);
    // Graphs of non-programmatic launches.
    graphs.setGraphLaunches(true);
    for (int call = 0; call < 3; ++call) {
      graphs.energyGradientDevice(1, dX.data(), dG1.data(), dE1.data(), nullptr, nullptr);
      EXPECT_TRUE(sameBits(dG1.toHost().data(), g1.data(), n)) << "graph, not programmatic";
    }
    EXPECT_EQ(graphs.graphsCaptured(), 4u);
  }
}

// More structures than one grid's y dimension holds (65535): the driver cuts the batch into
// launches; structures on either side of the cut have their bits alone. ash: 25 atoms, about
// 40 KB of scratch per structure (2.8 GB for the batch).
TEST(BatchedAmberGbCuda, MoreStructuresThanOneGridHolds) {
  REQUIRE_GPU();
  Loaded sys;
  std::string why;
  if (!load(kAsh, &sys, &why)) GTEST_SKIP() << why;
  const std::size_t batch = 65535 + 1000;
  BatchedAmberGbCuda gpu(*sys.topology, sys.params);
  const std::size_t n = gpu.dimension();
  std::size_t freeBytes = 0, totalBytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&freeBytes, &totalBytes), cudaSuccess);
  if (batch * (gpu.bytesPerStructure() + 2 * n * sizeof(double)) > freeBytes / 2)
    GTEST_SKIP() << "not enough device memory for " << batch << " structures";
  const std::vector<double> x = perturbedBatch(sys.x, batch, 0.2, 11);
  std::vector<std::uint8_t> active(batch, 1);
  active[65535] = 0;  // the first structure of the second launch
  const Evaluated r = evaluateHost(gpu, x, active);
  EXPECT_TRUE(std::isnan(r.e[65535]));
  for (std::size_t b : {std::size_t(0), std::size_t(65534), std::size_t(65536), batch - 1}) {
    const Evaluated s = alone(sys, Precision::Double, x, b);
    EXPECT_TRUE(sameBits(r.e[b], s.e[0])) << "structure " << b;
    EXPECT_TRUE(sameBits(&r.g[b * n], s.g.data(), n)) << "structure " << b;
  }
  std::size_t finite = 0;
  for (std::size_t b = 0; b < batch; ++b) finite += std::isfinite(r.e[b]) ? 1 : 0;
  EXPECT_EQ(finite, batch - 1);
}

TEST(BatchedPotentialFactory, AmberGbOnCudaIsTheBatchedKernel) {
  REQUIRE_GPU();
  Loaded sys;
  std::string why;
  if (!load(kAsh, &sys, &why)) GTEST_SKIP() << why;
  PotentialSpec spec = amberSpec(sys);
  std::unique_ptr<BatchedPotential> p =
      makeBatchedPotentialForSpec(spec, Backend::Cuda, {1, {}, 8, AmberGbCudaLayout::Throughput});
  ASSERT_NE(dynamic_cast<BatchedAmberGbCuda*>(p.get()), nullptr);
  EXPECT_EQ(dynamic_cast<BatchedAmberGbCuda&>(*p).layout(), AmberGbCudaLayout::Throughput);
  EXPECT_TRUE(p->isDeviceResident());
  EXPECT_EQ(dynamic_cast<BatchedAmberGbCuda&>(*p).reserved(), 8u);
  const std::vector<double> x = perturbedBatch(sys.x, 3, 0.2, 3);
  const Evaluated r = evaluateHost(*p, x);
  for (std::size_t b = 0; b < 3; ++b) {
    const Evaluated s = alone(sys, Precision::Double, x, b, AmberGbCudaLayout::Throughput);
    EXPECT_TRUE(sameBits(r.e[b], s.e[0])) << "structure " << b;
  }
  spec.kind = PotentialSpec::Kind::LennardJones;
  spec.atoms = 13;
  EXPECT_EQ(makeBatchedPotentialForSpec(spec, Backend::Cuda)->dimension(), 39u);
}

// gmin's walkers quench in mixed precision by default (--quench-precision) and stop at gmin's
// AMBER SLOPPYCONV, RMS 0.01 kcal/mol/A: at such a loose trp-cage minimum (reached in double),
// the mixed gradient must differ from the double one by far less than that tolerance, or the
// quenches' stopping test would read the arithmetic's error. Both in the walkers' layout.
TEST(BatchedAmberGbCuda, MixedGradientErrorAtALooseMinimumIsFarBelowTheSloppyRms) {
  REQUIRE_GPU();
  Loaded sys;
  std::string why;
  if (!load(kTrpcage, &sys, &why)) GTEST_SKIP() << why;
  constexpr double kSloppyRms = 0.01;
  AmberGbCuda single(*sys.topology, sys.params, Precision::Double);
  LbfgsParams p;
  p.rmsTolerance = kSloppyRms;
  p.maxIterations = 20000;
  std::vector<double> x = sys.x;
  ASSERT_TRUE(Lbfgs(p).minimize(single, x).converged());
  BatchedAmberGbCuda dbl(*sys.topology, sys.params, Precision::Double, 1,
                         AmberGbCudaLayout::Throughput);
  BatchedAmberGbCuda mixed(*sys.topology, sys.params, Precision::Mixed, 1,
                           AmberGbCudaLayout::Throughput);
  const Evaluated d = evaluateHost(dbl, x), m = evaluateHost(mixed, x);
  const std::size_t n = x.size();
  double g2 = 0.0, e2 = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    g2 += d.g[k] * d.g[k];
    e2 += (m.g[k] - d.g[k]) * (m.g[k] - d.g[k]);
  }
  const double rms = std::sqrt(g2 / n), errorRms = std::sqrt(e2 / n);
  std::printf("trp-cage at RMS %.3g kcal/mol/A: mixed - double gradient RMS %.3g, energy %.3g\n",
              rms, errorRms, m.e[0] - d.e[0]);
  EXPECT_LT(rms, kSloppyRms);
  EXPECT_LT(errorRms, 0.1 * kSloppyRms);
}

#endif  // LANDSCAPE_HAVE_CUDA

}  // namespace
}  // namespace landscape
