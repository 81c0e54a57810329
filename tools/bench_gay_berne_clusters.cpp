// Benchmark (not a test): basin-hopping (GMIN's loop, landscape/search/BasinHopping) on clusters of
// n uniaxial Gay-Berne ellipsoids (Gay and Berne, J. Chem. Phys. 74, 3316 (1981);
// potentials/GayBerne, docs/gay-berne.md) as rigid bodies in angle-axis coordinates, on the CPU:
// for each n, R independent runs from the builder's lattice (axes along z at the side-by-side and
// end-to-end well distances) with rigid-body moves only (every body translated and rotated each
// step), Metropolis at kT; reports the lowest energy of each run (reduced units, eps0), how many
// runs reached the overall lowest (within EDIFF), the quench that first found it, and the
// orientational order of the lowest structure, <P2(u_i.u_j)> over pairs (1: all parallel, 0:
// isotropic), and how far its centres lie from one plane perpendicular to the axes. The energies
// are what this search found, not literature values.
//
// Usage: bench_gay_berne_clusters [--sizes 4,5,...,13] [--runs 4] [--steps 3000] [--seed 1]
//          [--temperature 1] [--translation 0.5] [--rotation 0.6] [--kappa 3] [--kappa-prime 5]
//          [--mu 2] [--nu 1]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/core/Random.h"
#include "landscape/search/BasinHopping.h"
#include "landscape/search/RigidBodyMoves.h"
#include "potentials/GayBerne.h"
#include "potentials/RigidBodyPotential.h"
#include "src/common/SharedOptions.h"

namespace {

using namespace landscape;

struct Options {
  std::vector<long> sizes = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
  long runs = 4, steps = 3000, seed = 1;
  double temperature = 1.0, translation = 0.5, rotation = 0.6;
  double kappa = 3.0, kappaPrime = 5.0, mu = 2.0, nu = 1.0;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_gay_berne_clusters");
  t.about =
      "usage: bench_gay_berne_clusters [--sizes LIST] [--runs R] [--steps N] [--seed S] "
      "[--temperature kT] [--translation D] [--rotation A] [--kappa K] [--kappa-prime K'] [--mu M] "
      "[--nu N]\n"
      "Basin-hopping on clusters of n Gay-Berne ellipsoids as rigid bodies (reduced units: "
      "sigma0,\n"
      "eps0); the lowest energy of each of R runs per n, as a Markdown table.\n";
  t.helpCommand();
  t.add("sizes", "LIST", "cluster sizes n (ellipsoids), comma-separated", fieldOf(&Options::sizes))
      .atLeast(2);
  t.add("runs", "R", "independent runs per size (seeds seed, seed + 1, ...)",
        fieldOf(&Options::runs))
      .atLeast(1);
  t.add("steps", "N", "basin-hopping steps per run", fieldOf(&Options::steps)).atLeast(1);
  t.add("seed", "S", "first seed", fieldOf(&Options::seed)).atLeast(0);
  t.add("temperature", "kT", "Metropolis temperature", fieldOf(&Options::temperature))
      .unit("eps0")
      .positive();
  t.add("translation", "D", "largest displacement of a body's centre per step",
        fieldOf(&Options::translation))
      .unit("sigma0")
      .positive();
  t.add("rotation", "A", "largest rotation of a body per step (<= pi)", fieldOf(&Options::rotation))
      .unit("radians")
      .positive();
  t.add("kappa", "K", "length / breadth", fieldOf(&Options::kappa)).positive();
  t.add("kappa-prime", "K'", "side-by-side / end-to-end well depth", fieldOf(&Options::kappaPrime))
      .positive();
  t.add("mu", "M", "exponent mu", fieldOf(&Options::mu)).positive();
  t.add("nu", "N", "exponent nu", fieldOf(&Options::nu));
  return t;
}

// <P2(u_i.u_j)> over pairs of the structure's axes, and the largest distance of a centre from the
// plane through the centres' mean perpendicular to the mean axis (0 for a monolayer of parallel
// ellipsoids, whose energy is then eps_side times the 2D Lennard-Jones energy of the centres).
struct Shape {
  double order, thickness;
};

Shape shapeOf(const RigidBodySystem& system, const std::vector<double>& q) {
  const std::vector<double> x = system.toAtoms(q);
  const std::size_t n = system.bodyCount();
  std::vector<double> u(3 * n);
  for (std::size_t k = 0; k < n; ++k) {
    double c[3];
    GayBerne::centreAndAxis(x.data(), k, c, &u[3 * k]);
  }
  double sum = 0.0, mean[3] = {0.0, 0.0, 0.0}, axis[3] = {0.0, 0.0, 0.0};
  for (std::size_t i = 0; i < n; ++i) {
    const double s = u[0] * u[3 * i] + u[1] * u[3 * i + 1] + u[2] * u[3 * i + 2] < 0.0 ? -1.0 : 1.0;
    for (int d = 0; d < 3; ++d) {
      mean[d] += q[3 * i + d] / static_cast<double>(n);
      axis[d] += s * u[3 * i + d];
    }
    for (std::size_t j = i + 1; j < n; ++j) {
      const double c =
          u[3 * i] * u[3 * j] + u[3 * i + 1] * u[3 * j + 1] + u[3 * i + 2] * u[3 * j + 2];
      sum += 1.5 * c * c - 0.5;
    }
  }
  const double len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double thickness = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double h = 0.0;
    for (int d = 0; d < 3; ++d) h += (q[3 * i + d] - mean[d]) * axis[d] / len;
    thickness = std::max(thickness, std::fabs(h));
  }
  return {sum / (0.5 * static_cast<double>(n * (n - 1))), thickness};
}

struct RunResult {
  double energy = INFINITY, order = NAN, thickness = NAN;
  long firstFound = -1;
};

RunResult runOnce(const GayBerneParams& gbParams, std::size_t n, const Options& o,
                  std::uint64_t seed) {
  const GayBerneCluster cluster = gayBerneCluster(gbParams, n);
  GayBerne markers(gbParams, n);
  RigidBodyPotential rigid(markers, cluster.rigidSystem());
  const RigidBodySystem* system = &rigid.system();

  BasinHoppingParams p;
  p.steps = o.steps;
  p.temperature = o.temperature;
  p.stepSize = 0.0;  // rigid-body moves only
  p.container = false;
  p.centre = true;
  p.saveCount = 5;
  p.energyDifference = 1e-4;
  p.sloppyRms = 1e-4;
  p.sloppyMaxIterations = 5000;
  p.tightRms = 1e-7;
  p.tightMaxIterations = 20000;
  p.seed = seed;
  RigidBodyMoveParams moves;
  moves.translation = o.translation;
  moves.rotation = o.rotation;
  moves.check();

  BasinHoppingHooks hooks;
  hooks.extraMove = [system, moves](std::vector<double>& q, Random& random) {
    moveRigidBodies(*system, moves, q, random);
    system->canonicalise(q);
  };
  hooks.centre = [system](std::vector<double>& q) {
    const std::size_t b = system->bodyCount();
    double c[3] = {0.0, 0.0, 0.0};
    for (std::size_t k = 0; k < b; ++k)
      for (int d = 0; d < 3; ++d) c[d] += q[3 * k + d] / static_cast<double>(b);
    system->translate(q, -c[0], -c[1], -c[2]);
  };
  hooks.maxRadius = [system](const std::vector<double>& q) {
    const std::vector<double> x = system->toAtoms(q);
    double r2 = 0.0;
    for (std::size_t i = 0; i < x.size(); i += 3)
      r2 = std::max(r2, x[i] * x[i] + x[i + 1] * x[i + 1] + x[i + 2] * x[i + 2]);
    return std::sqrt(r2);
  };
  const double ball = 1.5 * gbParams.kappa * gbParams.sigma0 * std::cbrt(static_cast<double>(n));
  hooks.randomStructure = [system, ball](Random& random) {
    return randomRigidStructure(*system, ball, random);
  };

  BasinHopping bh(rigid, p, {}, hooks);
  const BasinHoppingResult r = bh.run(system->fromAtoms(cluster.referenceMarkers));
  RunResult out;
  if (!r.lowest.empty()) {
    out.energy = r.lowest.front().energy;
    out.firstFound = r.lowest.front().firstFoundStep;
    const Shape shape = shapeOf(*system, r.lowest.front().coordinates);
    out.order = shape.order;
    out.thickness = shape.thickness;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    GayBerneParams gb;
    gb.kappa = o.kappa;
    gb.kappaPrime = o.kappaPrime;
    gb.mu = o.mu;
    gb.nu = o.nu;
    gb.check();
    // The side-by-side well depth eps0 (1 - chi^2)^(-nu/2) (docs/gay-berne.md).
    const double chi = (gb.kappa * gb.kappa - 1.0) / (gb.kappa * gb.kappa + 1.0);
    const double epsSide = gb.eps0 * std::pow(1.0 - chi * chi, -0.5 * gb.nu);
    std::printf(
        "Gay-Berne clusters (kappa %g, kappa' %g, mu %g, nu %g), basin-hopping on the CPU: %ld "
        "runs "
        "x %ld steps, kT %g, moves %g sigma0 / %g rad\n\n",
        gb.kappa, gb.kappaPrime, gb.mu, gb.nu, o.runs, o.steps, o.temperature, o.translation,
        o.rotation);
    std::printf(
        "| n | lowest E (eps0) | E / eps_side | runs reaching it | first found (quench) | <P2> | "
        "off-plane (sigma0) | run lowest energies | seconds "
        "|\n|---|---|---|---|---|---|---|---|---|\n");
    for (long n : o.sizes) {
      const auto t0 = std::chrono::steady_clock::now();
      std::vector<RunResult> runs;
      for (long k = 0; k < o.runs; ++k)
        runs.push_back(
            runOnce(gb, static_cast<std::size_t>(n), o, static_cast<std::uint64_t>(o.seed + k)));
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::size_t best = 0;
      for (std::size_t k = 1; k < runs.size(); ++k)
        if (runs[k].energy < runs[best].energy) best = k;
      int reached = 0;
      std::string all;
      for (const RunResult& r : runs) {
        if (r.energy < runs[best].energy + 1e-4) ++reached;
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%.6f", all.empty() ? "" : ", ", r.energy);
        all += buf;
      }
      std::printf("| %ld | %.6f | %.6f | %d of %zu | %ld | %.3f | %.1e | %s | %.1f |\n", n,
                  runs[best].energy, runs[best].energy / epsSide, reached, runs.size(),
                  runs[best].firstFound, runs[best].order, runs[best].thickness, all.c_str(), s);
      std::fflush(stdout);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gay_berne_clusters: error: %s\n", e.what());
    return 1;
  }
}
