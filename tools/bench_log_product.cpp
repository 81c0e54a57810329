// Benchmark (not a test): the cost of a molecule's mass-weighted log product on the CPU path
// (issue 19 item 6), in its three parts: the finite-difference Hessian (6N energy + gradient calls
// of the AMBER GB CPU reference; --rows of its 3N rows are timed and the whole extrapolated), the
// projection of the rigid-body modes and the Cholesky factorisation of the 3N x 3N matrix
// (HessianLogProduct; timed in full on a symmetric positive-definite matrix of the molecule's size,
// as their cost does not depend on the values), and optionally the eigen-decomposition a
// transition state needs (--eigen).
//
// Usage: bench_log_product [--prmtop FILE --inpcrd FILE] [--rows K] [--eigen]
//   default: tests/data/gb/myoglobin (2492 atoms).
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/minimisation/HessianLogProduct.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "src/OptionTable.h"

namespace {

using namespace landscape;

struct Options {
  std::string prmtop = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb/myoglobin/prmtop";
  std::string inpcrd = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb/myoglobin/inpcrd";
  int rows = 10;
  bool eigen = false;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_log_product");
  t.about =
      "usage: bench_log_product [--prmtop FILE --inpcrd FILE] [--rows K] [--eigen]\n"
      "Wall time of a mass-weighted log product on the CPU path: the finite-difference Hessian\n"
      "(K of its 3N rows timed, 2 gradient calls each, the rest extrapolated), the projection of\n"
      "the rigid-body modes and the Cholesky factorisation (timed in full on a positive-definite\n"
      "matrix of the size), and with --eigen the eigenvalues a transition state needs. Default:\n"
      "myoglobin (2492 atoms). Times in seconds.\n";
  t.helpCommand();
  t.add("prmtop", "FILE", "AMBER topology", fieldOf(&Options::prmtop));
  t.add("inpcrd", "FILE", "coordinates", fieldOf(&Options::inpcrd));
  t.add("rows", "K", "Hessian rows timed", fieldOf(&Options::rows)).atLeast(1);
  t.flag("eigen", "also time the eigenvalues of the 3N x 3N matrix (minutes for a protein)",
         fieldOf(&Options::eigen));
  return t;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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

int run(const Options& o) {
  const AmberTopology topology = readAmberTopology(o.prmtop);
  const std::vector<double> x = readAmberCoordinates(o.inpcrd, topology).positions;
  AmberGb gb(topology);
  const Eigen::Index n = static_cast<Eigen::Index>(x.size());
  std::printf("bench_log_product: %s, %d atoms, 3N = %ld\n", o.prmtop.c_str(),
              topology.atomCount, static_cast<long>(n));
  std::vector<double> y = x, g(x.size());
  const int rows = std::min<int>(o.rows, static_cast<int>(n));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < rows; ++i) {
    for (double sign : {1.0, -1.0}) {
      y[i] = x[i] + sign * 1e-5;
      gb.energyGradient(y.data(), g.data());
    }
    y[i] = x[i];
  }
  const double perRow = secondsSince(start) / rows;
  std::printf("  finite-difference Hessian: %.3f s per row (2 gradient calls), %d rows timed; "
              "all %ld rows: %.0f s (extrapolated)\n",
              perRow, rows, static_cast<long>(n), perRow * static_cast<double>(n));
  std::fflush(stdout);
  Eigen::MatrixXd h = positiveDefinite(n);
  const Eigen::MatrixXd copy = o.eigen ? h : Eigen::MatrixXd();
  start = std::chrono::steady_clock::now();
  massWeightHessian(h, topology.masses);
  const RigidBodyModes modes = RigidBodyModes::massWeighted(x, topology.masses);
  const HessianLogProduct f = hessianLogProduct(h, modes);
  const double factorise = secondsSince(start);
  std::printf("  mass weighting, projection and Cholesky: %.1f s (%s, %d terms)\n", factorise,
              f.method == LogProductMethod::Cholesky ? "Cholesky" : "eigenvalues",
              f.positiveEigenvalues);
  std::printf("  minimum, total: %.0f s (extrapolated)\n",
              perRow * static_cast<double>(n) + factorise);
  std::fflush(stdout);
  if (o.eigen) {
    start = std::chrono::steady_clock::now();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(copy, Eigen::EigenvaluesOnly);
    std::printf("  eigenvalues (transition state): %.1f s\n", secondsSince(start));
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
