// Benchmark (not a test): the cost of a molecule's mass-weighted log product on the CPU path
// in its three parts: the finite-difference Hessian (6N energy + gradient calls
// of the AMBER GB CPU reference; --rows of its 3N rows are timed and the whole extrapolated), the
// projection of the rigid-body modes and the Cholesky factorisation of the 3N x 3N matrix
// (HessianLogProduct; timed in full on a symmetric positive-definite matrix of the molecule's size,
// as their cost does not depend on the values), and optionally the eigen-decomposition a
// transition state needs (--eigen).
//
// With --gpu (CUDA builds, a device) the GPU path too: the whole finite-difference Hessian on the
// device (gpu/HessianLogProductCuda, the CUDA AMBER-GB potential, one displaced structure per
// call), the same Hessians batched (landscape/minimisation/BatchedNumericalHessian over the
// batched CUDA AMBER-GB potential: --points stationary points, --batch structures per call) with
// their floor (the batched potential's own time for as many structures), and the cuSOLVER
// factorisation.
//
// With --gpu --characterise P, characteriseTogether as pathsample grow's merge runs it (batched
// GPU Hessians, cuSOLVER factorisations on host threads) over P points, on each of --threads.
//
// Usage: bench_log_product [--prmtop FILE --inpcrd FILE] [--rows K] [--eigen] [--gpu]
//                          [--points P] [--batch B]
//                          [--characterise P [--minimum FILE] [--threads T,...]]
//   default: tests/data/gb/myoglobin (2492 atoms).
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/BatchedPotentialFactory.h"
#include "backends/HessianBackendFactory.h"
#include "gpu/GpuDevice.h"
#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/BatchedNumericalHessian.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "landscape/paths/Characterisation.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "src/common/OptionTable.h"

#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/AmberGbCuda.h"
#include "gpu/BatchedNumericalHessianCuda.h"
#include "gpu/HessianLogProductCuda.h"
#endif

namespace {

using namespace landscape;

struct Options {
  std::string prmtop = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb/myoglobin/prmtop";
  std::string inpcrd = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb/myoglobin/inpcrd";
  int rows = 10;
  bool eigen = false;
  bool gpu = false;
  int points = 4;
  int batch = 1024;
  int characterise = 0;
  std::string minimum;
  std::vector<std::string> threads{"1"};
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_log_product");
  t.about =
      "usage: bench_log_product [--prmtop FILE --inpcrd FILE] [--rows K] [--eigen] [--gpu]\n"
      "Wall time of a mass-weighted log product on the CPU path: the finite-difference Hessian\n"
      "(K of its 3N rows timed, 2 gradient calls each, the rest extrapolated), the projection of\n"
      "the rigid-body modes and the Cholesky factorisation (timed in full on a positive-definite\n"
      "matrix of the size), and with --eigen the eigenvalues a transition state needs. Default:\n"
      "myoglobin (2492 atoms). Times: processor seconds of the one thread (wall in parentheses).\n"
      "--gpu adds the device: one structure per call, then --points Hessians batched in calls\n"
      "of --batch structures, with the floor (the batched potential alone) and the ratio.\n"
      "--characterise P (with --gpu) times characteriseTogether as pathsample grow's merge runs\n"
      "it (batched GPU Hessians, cuSOLVER factorisations) over P points on each of --threads "
      "T,...\n"
      "host threads: half of them the --minimum FILE's coordinates (a Cholesky each), half the\n"
      "input's (not a stationary point: the eigenvalues, as at a transition state).\n";
  t.helpCommand();
  t.add("prmtop", "FILE", "AMBER topology", fieldOf(&Options::prmtop));
  t.add("inpcrd", "FILE", "coordinates", fieldOf(&Options::inpcrd));
  t.add("rows", "K", "Hessian rows timed", fieldOf(&Options::rows)).atLeast(1);
  t.flag("eigen", "also time the eigenvalues of the 3N x 3N matrix (minutes for a protein)",
         fieldOf(&Options::eigen));
  t.flag("gpu", "also time the GPU path (CUDA builds with a device)", fieldOf(&Options::gpu));
  t.add("points", "P", "--gpu: stationary points whose Hessians are batched together",
        fieldOf(&Options::points))
      .atLeast(1);
  t.add("batch", "B", "--gpu: displaced structures per batched potential call",
        fieldOf(&Options::batch))
      .atLeast(2);
  t.add("characterise", "P", "--gpu: time characteriseTogether over P points",
        fieldOf(&Options::characterise))
      .atLeast(0);
  t.add("minimum", "FILE", "--characterise: a minimum's coordinates (x y z per line, # comments)",
        fieldOf(&Options::minimum));
  t.add("threads", "T,...", "--characterise: host thread counts to time",
        fieldOf(&Options::threads));
  return t;
}

/// Processor time of this thread (s): unlike wall time it does not count what other processes on
/// a shared machine take from this core. Everything here runs on one thread.
double threadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = threadSeconds();
  double cpuSeconds() const { return threadSeconds() - cpu; }
  double wallSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  }
};

/// A symmetric, diagonally dominant (so positive-definite) n x n matrix.
Eigen::MatrixXd positiveDefinite(Eigen::Index n) {
  std::mt19937_64 random(1);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  Eigen::MatrixXd m(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = j; i < n; ++i) m(i, j) = m(j, i) = entry(random);
  m.diagonal().array() += static_cast<double>(n);
  return m;
}

#ifdef LANDSCAPE_HAVE_CUDA
PotentialSpec gbSpecOf(const AmberTopology& topology) {
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::AmberGb;
  spec.atoms = static_cast<std::size_t>(topology.atomCount);
  spec.amberTopology = std::make_shared<const AmberTopology>(topology);
  return spec;
}

/// --points Hessians through the batched CUDA AMBER-GB potential, --batch structures per call,
/// against the one-structure GPU Hessian (`single` s, `reference` its matrix) and the floor: the
/// batched potential's own time for the same structures (calls of --batch copies of x).
void runBatchedHessians(const Options& o, const AmberTopology& topology,
                        const std::vector<double>& x, const Eigen::MatrixXd& reference,
                        double single) {
  const PotentialSpec spec = gbSpecOf(topology);
  BatchedPotentialOptions options;
  options.reserveBatch = static_cast<std::size_t>(o.batch);
  options.gbLayout = AmberGbCudaLayout::Throughput;
  std::unique_ptr<BatchedPotential> batched =
      makeBatchedPotentialForSpec(spec, Backend::Cuda, options);
  const std::vector<std::vector<double>> points(static_cast<std::size_t>(o.points), x);
  BatchedHessianParams params;
  params.maxBatch = static_cast<std::size_t>(o.batch);
  batchedNumericalHessians(*batched, {x}, params);  // warm-up: kernels loaded, scratch touched
  Stopwatch timer;
  const std::vector<Eigen::MatrixXd> h = batchedNumericalHessians(*batched, points, params);
  const double seconds = timer.wallSeconds();
  const std::size_t structures = 2 * x.size() * points.size();
  const std::size_t b = std::min<std::size_t>(params.maxBatch - params.maxBatch % 2, structures);
  std::vector<double> copies, g(b * x.size()), e(b);
  for (std::size_t k = 0; k < b; ++k) copies.insert(copies.end(), x.begin(), x.end());
  const std::size_t calls = (structures + b - 1) / b;
  Stopwatch floorTimer;
  for (std::size_t c = 0; c < calls; ++c)
    batched->energyGradient(b, copies.data(), g.data(), e.data(), nullptr);
  const double floor = floorTimer.wallSeconds();
  const double difference =
      (h.front() - reference).cwiseAbs().maxCoeff() / reference.cwiseAbs().maxCoeff();
  std::printf(
      "  GPU batched Hessians: %d points, %zu structures in %zu calls of <= %zu: %.3f s wall, "
      "%.4f s per Hessian (%.1fx the one-structure GPU Hessian); floor (the batched potential "
      "alone) %.3f s: %.2fx the floor; %.3g evaluations/s; max |H - H_single| / max |H| = %.2g\n",
      o.points, structures, calls, b, seconds, seconds / o.points,
      single / (seconds / o.points), floor, seconds / floor,
      static_cast<double>(structures) / seconds, difference);
  batchedNumericalHessiansCuda(*batched, {x}, params);  // warm-up
  Stopwatch deviceTimer;
  const std::vector<Eigen::MatrixXd> d = batchedNumericalHessiansCuda(*batched, points, params);
  const double onDevice = deviceTimer.wallSeconds();
  std::printf(
      "  GPU batched Hessians, structures and differences on the device: %.3f s wall, %.4f s "
      "per Hessian, %.2fx the floor; the host path's bits: %s\n",
      onDevice, onDevice / o.points, onDevice / floor,
      (d.front() - h.front()).cwiseAbs().maxCoeff() == 0.0 ? "yes" : "NO");
}
#endif

/// x y z per line ('#' starts a comment line), as tests/data/gb/trpcage/minimum_igb2.txt.
std::vector<double> readXyzLines(const std::string& path, std::size_t atoms) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) throw std::runtime_error(path + ": cannot open");
  std::vector<double> x;
  char line[512];
  int number = 0;
  while (std::fgets(line, sizeof line, f)) {
    ++number;
    if (line[0] == '#') continue;
    double a = 0, b = 0, c = 0;
    if (std::sscanf(line, "%lf %lf %lf", &a, &b, &c) != 3) {
      std::fclose(f);
      throw std::runtime_error(path + ":" + std::to_string(number) + ": expected x y z");
    }
    x.insert(x.end(), {a, b, c});
  }
  std::fclose(f);
  if (x.size() != 3 * atoms)
    throw std::runtime_error(path + ": " + std::to_string(x.size() / 3) +
                             " atoms, the topology has " + std::to_string(atoms));
  return x;
}

#ifdef LANDSCAPE_HAVE_CUDA
/// characteriseTogether as pathsample grow's merge runs it on the device, over --characterise
/// points (half a minimum's, half the input's), on each of --threads host threads.
void runCharacterise(const Options& o, const AmberTopology& topology,
                     const std::vector<double>& x) {
  const std::vector<double> minimum =
      o.minimum.empty() ? x : readXyzLines(o.minimum, static_cast<std::size_t>(topology.atomCount));
  std::vector<std::vector<double>> points;
  for (int p = 0; p < o.characterise; ++p) points.push_back(p % 2 == 0 ? minimum : x);
  AmberGbCuda device(topology);
  AmberGb cpu(topology);
  CharacterisationParams params;
  params.masses = topology.masses;
  params.pointGroup.atomTypes = topology.atomicNumbers;
  params.pointGroup.distanceTolerance = 1e-2;  // optim's molecule default (Angstrom)
  params.backend = gpuHessianBackend(device);
  useBatchedGpuHessians(params.backend, gbSpecOf(topology));
  characteriseTogether(cpu, {points[0]}, params);  // the device's handles and buffers made
  std::vector<StationaryPointProperties> first;
  for (const std::string& text : o.threads) {
    params.threads = std::stoi(text);
    Stopwatch wall;
    const std::vector<StationaryPointProperties> got = characteriseTogether(cpu, points, params);
    const double seconds = wall.wallSeconds();
    bool same = true;
    if (first.empty()) first = got;
    for (std::size_t k = 0; k < got.size(); ++k)
      same = same &&
             got[k].logProductOfPositiveEigenvalues == first[k].logProductOfPositiveEigenvalues &&
             got[k].pointGroupOrder == first[k].pointGroupOrder;
    std::printf(
        "  characteriseTogether, %zu points (%s and the input), %d host threads: %.3f s wall, "
        "%.2f ms per point; the bits of the first row: %s\n",
        points.size(), o.minimum.empty() ? "the input" : o.minimum.c_str(), params.threads, seconds,
        1e3 * seconds / static_cast<double>(points.size()), same ? "yes" : "NO");
    std::fflush(stdout);
  }
}
#endif

/// The GPU path: the whole finite-difference Hessian on the device, then the factorisation of
/// `spd` (Cholesky) and, with --eigen, of the Hessian itself (indefinite away from a minimum).
void runGpu(const Options& o, const AmberTopology& topology, const std::vector<double>& x,
            const Eigen::MatrixXd& spd) {
#ifdef LANDSCAPE_HAVE_CUDA
  if (!gpuAvailable()) {
    std::printf("  GPU: %s\n", gpuDescription().c_str());
    return;
  }
  std::printf("  GPU: %s\n", gpuDescription().c_str());
  if (o.characterise > 0) {
    runCharacterise(o, topology, x);
    return;
  }
  AmberGbCuda gpu(topology);
  Stopwatch fd;
  Eigen::MatrixXd h = numericalHessianCuda(gpu, x);
  const double single = fd.wallSeconds();
  std::printf("  GPU finite-difference Hessian, all %ld rows, one structure per call: %.3f s wall\n",
              static_cast<long>(h.rows()), single);
  runBatchedHessians(o, topology, x, h, single);
  Eigen::MatrixXd m = spd;
  const RigidBodyModes modes = RigidBodyModes::massWeighted(x, topology.masses);
  Stopwatch factorisation;
  massWeightHessian(m, topology.masses);
  const HessianLogProduct f = hessianLogProductCuda(m, modes);
  std::printf("  GPU mass weighting, projection (host) and Cholesky (cuSOLVER): %.2f s wall (%s)\n",
              factorisation.wallSeconds(),
              f.method == LogProductMethod::Cholesky ? "Cholesky" : "eigenvalues");
  if (o.eigen) {
    massWeightHessian(h, topology.masses);
    Stopwatch eigen;
    const HessianLogProduct g = hessianLogProductCuda(h, modes);
    std::printf(
        "  GPU log product of the Hessian at the input coordinates: %.2f s wall (%s, %d "
        "negative)\n",
        eigen.wallSeconds(), g.method == LogProductMethod::Cholesky ? "Cholesky" : "eigenvalues",
        g.negativeEigenvalues);
  }
#else
  (void)o, (void)topology, (void)x, (void)spd;
  std::printf("  GPU: this build has no CUDA support\n");
#endif
}

int run(const Options& o) {
  const AmberTopology topology = readAmberTopology(o.prmtop);
  const std::vector<double> x = readAmberCoordinates(o.inpcrd, topology).positions;
  AmberGb gb(topology);
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  std::printf("bench_log_product: %s, %d atoms, 3N = %ld\n", o.prmtop.c_str(), topology.atomCount,
              static_cast<long>(n));
  std::vector<double> y = x, g(x.size());
  const int rows = std::min<int>(o.rows, static_cast<int>(n));
  Stopwatch fd;
  for (int i = 0; i < rows; ++i) {
    for (double sign : {1.0, -1.0}) {
      y[i] = x[i] + sign * 1e-5;
      gb.energyGradient(y.data(), g.data());
    }
    y[i] = x[i];
  }
  const double perRow = fd.cpuSeconds() / rows;
  std::printf(
      "  finite-difference Hessian: %.3g s per row (2 gradient calls; wall %.3g s), %d rows "
      "timed; all %ld rows: %.4g s (extrapolated)\n",
      perRow, fd.wallSeconds() / rows, rows, static_cast<long>(n), perRow * static_cast<double>(n));
  std::fflush(stdout);
  Eigen::MatrixXd h = positiveDefinite(n);
  const Eigen::MatrixXd copy = o.eigen || o.gpu ? h : Eigen::MatrixXd();
  Stopwatch factorisation;
  massWeightHessian(h, topology.masses);
  const RigidBodyModes modes = RigidBodyModes::massWeighted(x, topology.masses);
  const HessianLogProduct f = hessianLogProduct(h, modes);
  const double factorise = factorisation.cpuSeconds();
  std::printf("  mass weighting, projection and Cholesky: %.3g s (wall %.3g s; %s, %d terms)\n",
              factorise, factorisation.wallSeconds(),
              f.method == LogProductMethod::Cholesky ? "Cholesky" : "eigenvalues",
              f.positiveEigenvalues);
  std::printf("  minimum, total: %.4g s processor time (extrapolated)\n",
              perRow * static_cast<double>(n) + factorise);
  std::fflush(stdout);
  if (o.gpu) runGpu(o, topology, x, copy);
  if (o.eigen) {
    Stopwatch eigen;
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(copy, Eigen::EigenvaluesOnly);
    std::printf("  eigenvalues (transition state): %.3g s (wall %.3g s)\n", eigen.cpuSeconds(),
                eigen.wallSeconds());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    return run(o);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_log_product: %s\n", error.what());
    return 1;
  }
}
