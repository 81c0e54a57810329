// Far GB pairs of the GPU pair kernel (docs/benchmarks.md "Large sizes, step 3"): on
// the CPU, with each system's real Born radii (the CPU reference, REFERENCE.md conditions: igb 2,
// 0.2 M, rgbmax 12 A), the fraction of pairs i < j with x = r^2 / (4 BiBj) > X and the fraction
// of the pair kernel's warp steps that take the far path, for several thresholds X.
//
// The warp steps are those of gbPairsKernel (gpu/AmberGbKernels.cu): row tile I of 32 atoms
// against column tile J >= I, rotation step s = 0..31, lane l meets column atom (l + s) mod 32;
// a step takes the far path when every pair it holds is far (the kernel's __all_sync vote). Steps
// that hold no pair (s = 0 of a diagonal tile pair) are not counted. "tile pairs" is the
// alternative test from tile boxes and each tile's largest Born radius (a step is far when its
// tile pair's box gap g has g^2 / (4 maxB_I maxB_J) > X), for comparison. The tile width is
// kGbTile of gpu/AmberGbKernels.cuh, repeated here so that the tool builds without CUDA.
//
// Usage: gb_far_pairs [--data DIR] [--systems myoglobin,myoglobin_x10] [--thresholds 18,40]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "src/common/OptionTable.h"
#include "tools/GbTestData.h"

namespace {

using namespace landscape;

constexpr int kTile = 32;  // kGbTile

struct Options {
  std::string data = std::string(LANDSCAPE_SOURCE_DIR) + "/tests/data/gb";
  std::vector<std::string> systems = {"myoglobin", "myoglobin_x10"};
  std::vector<double> thresholds = {18, 25, 30, 40, 50};
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("gb_far_pairs");
  t.about =
      "usage: gb_far_pairs [--data DIR] [--systems a,b] [--thresholds X1,X2,...]\n"
      "Fraction of far GB pairs (x = r^2 / (4 BiBj) > X, real Born radii from the CPU reference,\n"
      "igb 2, 0.2 M, rgbmax 12 A) and of the GPU pair kernel's warp steps that take the far path,\n"
      "per threshold X, as a Markdown table.\n";
  t.helpCommand();
  t.add("data", "DIR",
        "GB test systems (default <source>/tests/data/gb; myoglobin_x4/_x10 from build/data/gb "
        "when DIR lacks them)",
        fieldOf(&Options::data));
  t.add("systems", "LIST", "comma-separated subset of trpcage,trx,myoglobin,myoglobin_x4,"
        "myoglobin_x10 (default myoglobin,myoglobin_x10)", fieldOf(&Options::systems));
  t.add("thresholds", "LIST", "thresholds X on x = r^2 / (4 BiBj) (default 18,25,30,40,50)",
        fieldOf(&Options::thresholds));
  return t;
}

struct SystemFiles {
  const char* name;
  const char* prmtop;
  const char* inpcrd;
};

const SystemFiles kSystems[] = {
    {"trpcage", "trpcage/prmtop", "trpcage/inpcrd"},
    {"trx", "trx/prmtop.gb2", "trx/trxox.2.4ns.x"},
    {"myoglobin", "myoglobin/prmtop", "myoglobin/inpcrd"},
    {"myoglobin_x4", "myoglobin_x4/prmtop", "myoglobin_x4/inpcrd"},
    {"myoglobin_x10", "myoglobin_x10/prmtop", "myoglobin_x10/inpcrd"},
};

struct Counts {
  double pairs = 0, farPairs = 0;
  double steps = 0, farSteps = 0, farBoxSteps = 0;
};

/// Counts of one system for each threshold, in one sweep over the kernel's warp steps.
std::vector<Counts> census(const std::vector<double>& x, const std::vector<double>& born,
                           const std::vector<double>& thresholds) {
  const int n = static_cast<int>(born.size());
  const int tiles = (n + kTile - 1) / kTile;
  std::vector<double> lo(3 * tiles, 1e300), hi(3 * tiles, -1e300), maxBorn(tiles, 0.0);
  for (int i = 0; i < n; ++i) {
    const int t = i / kTile;
    for (int c = 0; c < 3; ++c) {
      lo[3 * t + c] = std::min(lo[3 * t + c], x[3 * i + c]);
      hi[3 * t + c] = std::max(hi[3 * t + c], x[3 * i + c]);
    }
    maxBorn[t] = std::max(maxBorn[t], born[i]);
  }
  const std::size_t k = thresholds.size();
  std::vector<Counts> counts(k);
  std::vector<int> stepFar(k);
  std::vector<bool> boxFar(k);
  for (int row = 0; row < tiles; ++row)
    for (int column = row; column < tiles; ++column) {
      double gap2 = 0.0;
      for (int c = 0; c < 3; ++c) {
        const double gap = std::max({0.0, lo[3 * column + c] - hi[3 * row + c],
                                     lo[3 * row + c] - hi[3 * column + c]});
        gap2 += gap * gap;
      }
      const double boxX = gap2 / (4.0 * maxBorn[row] * maxBorn[column]);
      for (std::size_t t = 0; t < k; ++t) boxFar[t] = boxX > thresholds[t];
      for (int s = 0; s < kTile; ++s) {
        int pairsInStep = 0;
        std::fill(stepFar.begin(), stepFar.end(), 1);
        for (int lane = 0; lane < kTile; ++lane) {
          const int i = row * kTile + lane, m = (lane + s) % kTile, j = column * kTile + m;
          if (i >= n || j >= n || (column == row && m <= lane)) continue;
          ++pairsInStep;
          double r2 = 0.0;
          for (int c = 0; c < 3; ++c) r2 += (x[3 * i + c] - x[3 * j + c]) * (x[3 * i + c] - x[3 * j + c]);
          const double xx = r2 / (4.0 * born[i] * born[j]);
          for (std::size_t t = 0; t < k; ++t) {
            counts[t].pairs += 1;
            if (xx > thresholds[t])
              counts[t].farPairs += 1;
            else
              stepFar[t] = 0;
          }
        }
        if (pairsInStep == 0) continue;
        for (std::size_t t = 0; t < k; ++t) {
          counts[t].steps += 1;
          counts[t].farSteps += stepFar[t];
          counts[t].farBoxSteps += boxFar[t] ? 1 : 0;
        }
      }
    }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  for (double t : o.thresholds)
    if (!(t > 0.0)) {
      std::fprintf(stderr, "gb_far_pairs: --thresholds must be positive, got %g\n", t);
      return 1;
    }
  if (o.thresholds.empty() || o.systems.empty()) {
    std::fprintf(stderr, "gb_far_pairs: --thresholds and --systems need at least one entry\n");
    return 1;
  }
  try {
    std::printf(
        "| system | atoms | X | far pairs | far warp steps (vote) | far warp steps (tile boxes) "
        "| Born radius min / median / max (A) |\n|---|---|---|---|---|---|---|\n");
    for (const std::string& name : o.systems) {
      const SystemFiles* s = nullptr;
      for (const SystemFiles& f : kSystems)
        if (name == f.name) s = &f;
      if (s == nullptr) {
        std::fprintf(stderr, "gb_far_pairs: unknown system '%s' (--systems)\n", name.c_str());
        return 1;
      }
      const AmberTopology topology = readAmberTopology(gbDataFile(o.data, s->prmtop));
      const std::vector<double> x =
          readAmberCoordinates(gbDataFile(o.data, s->inpcrd), topology).positions;
      AmberGb gb(topology, AmberGbParams{});  // igb 2, 0.2 M, rgbmax 12
      std::vector<double> born = gb.bornRadii(x.data());
      std::vector<double> sorted = born;
      std::sort(sorted.begin(), sorted.end());
      const std::vector<Counts> counts = census(x, born, o.thresholds);
      for (std::size_t t = 0; t < counts.size(); ++t) {
        const Counts& c = counts[t];
        std::printf("| %s | %d | %g | %.3f | %.3f | %.3f | %.2f / %.2f / %.2f |\n", s->name,
                    topology.atomCount, o.thresholds[t], c.farPairs / c.pairs,
                    c.farSteps / c.steps, c.farBoxSteps / c.steps, sorted.front(),
                    sorted[sorted.size() / 2], sorted.back());
      }
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gb_far_pairs: %s\n", e.what());
    return 1;
  }
  return 0;
}
