// bench_dneb: the first DNEB run of an OPTIM-style connect, traced. Reads an odata file (the
// settings and the POINTS start) and a finish file, minimises both endpoints with the odata's
// endpoint minimiser, then runs DNEB with the NEWNEB images and iterations and prints, every
// --every iterations, the band RMS gradient, the mean spacing deviation (OPTIM's Dev) and k;
// then the final line in the layout of OPTIM's "Double-ended search iterations= ... RMS= ...
// Dev= ...% S= ..." line. Options override single DnebParams fields, so that variants can be
// compared one at a time (docs/benchmarks.md, DNEB on the LJ38 example).
//
// Usage: bench_dneb --odata FILE --finish FILE [--iterations N] [--images N] [--k K]
//                   [--k-factor F] [--spacing-tol T] [--segment 0|1] [--doubly 0|1]
//                   [--max-step S] [--guess H0] [--m M] [--every N]
//                   [--random-orientations N] [--orientation-trials N] [--alignment-seed S]
//                   [--profile 0|1] [--threads T]
// --threads T > 1 evaluates the band's images as one batch over T copies of the potential
// (potentials/PerStructureBatchedPotential; the same run bit for bit), so that the DNEB time with
// and without batching can be compared; the wall time of the run is printed.
// --profile 1 prints the final energy profile with each segment length, raw and after a rigid
// (Kabsch) fit, so that rotational drift of the images can be told from a genuinely long path.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/Dneb.h"
#include "potentials/LennardJones.h"
#include "potentials/PerStructureBatchedPotential.h"
#include "src/optim/OptimOdataFile.h"
#include "src/common/SharedOptions.h"

using namespace landscape;

namespace {

// Unset optionals keep the odata file's values.
struct Options {
  std::string odata, finish;
  int images = 0, iterations = 0, every = 50, randomOrientations = -1, orientationTrials = 0;
  int threads = 1;
  long long alignmentSeed = -1;
  bool profile = false;
  std::optional<double> k, kFactor, spacingTolerance, maxStep, guess;
  std::optional<bool> segment, doubly;
  std::optional<int> m;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_dneb");
  t.about =
      "usage: bench_dneb --odata FILE --finish FILE [options]\n"
      "The first DNEB run of an OPTIM-style connect on the odata's POINTS and the finish file,\n"
      "traced; options override single DnebParams fields (unset: the odata's).\n";
  t.helpCommand();
  t.add("odata", "FILE", "OPTIM odata: the settings and the POINTS start",
        fieldOf(&Options::odata));
  t.add("finish", "FILE", "the second endpoint", fieldOf(&Options::finish));
  t.add("iterations", "N", "DNEB iterations (0: NEWNEB's)", fieldOf(&Options::iterations));
  t.add("images", "N", "DNEB images (0: NEWNEB's)", fieldOf(&Options::images));
  t.add("k", "K", "spring constant", fieldOf(&Options::k));
  t.add("k-factor", "F", "spring adjustment factor", fieldOf(&Options::kFactor));
  t.add("spacing-tol", "T", "spacing tolerance", fieldOf(&Options::spacingTolerance));
  t.add("segment", "0|1", "segment springs", fieldOf(&Options::segment));
  t.add("doubly", "0|1", "doubly nudged", fieldOf(&Options::doubly));
  t.add("max-step", "S", "L-BFGS step cap per image", fieldOf(&Options::maxStep));
  t.add("guess", "H0", "initial inverse-Hessian guess", fieldOf(&Options::guess));
  addLbfgsHistoryOption(t, "L-BFGS history size", fieldOf(&Options::m)).alias("m");
  t.add("every", "N", "iterations between trace lines (0: none)", fieldOf(&Options::every));
  t.add("random-orientations", "N", "of the endpoint alignment (-1: the odata's)",
        fieldOf(&Options::randomOrientations));
  t.add("orientation-trials", "N", "of the endpoint alignment (0: the default)",
        fieldOf(&Options::orientationTrials));
  t.add("alignment-seed", "S", "of the endpoint alignment (-1: the default)",
        fieldOf(&Options::alignmentSeed));
  t.add("threads", "T", "CPU threads evaluating the band's images as one batch (1: one at a time)",
        fieldOf(&Options::threads))
      .atLeast(1);
  t.add("profile", "0|1", "print the final energy profile with raw and rigidly aligned segments",
        fieldOf(&Options::profile));
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  try {
    if (o.odata.empty() || o.finish.empty())
      throw std::invalid_argument("usage: bench_dneb --odata FILE --finish FILE [options]");
    const std::string& odata = o.odata;
    const int every = o.every;
    const OptimConfig config = readOdataFile(odata);
    std::vector<double> start = config.odataPoints, finish = readCoordinates(o.finish);
    if (start.empty()) throw std::invalid_argument(odata + ": no POINTS");
    LennardJones lj(start.size() / 3);
    const Lbfgs minimiser(config.settings.endpointMinimiser);
    const LbfgsResult rs = minimiser.minimize(lj, start);
    const LbfgsResult rf = minimiser.minimize(lj, finish);
    std::printf("endpoints: E = %.7f (RMS %.1e), %.7f (RMS %.1e)\n", rs.energy, rs.rmsGradient,
                rf.energy, rf.rmsGradient);

    DnebParams p = config.settings.connect.dneb;
    p.images = o.images > 0 ? o.images : config.settings.connect.firstImages;
    p.iterations = o.iterations > 0 ? o.iterations : config.settings.connect.firstIterations;
    p.springConstant = o.k.value_or(p.springConstant);
    p.springAdjustFactor = o.kFactor.value_or(p.springAdjustFactor);
    p.spacingTolerance = o.spacingTolerance.value_or(p.spacingTolerance);
    p.segmentSprings = o.segment.value_or(p.segmentSprings);
    p.doublyNudged = o.doubly.value_or(p.doublyNudged);
    p.maxStepPerImage = o.maxStep.value_or(p.maxStepPerImage);
    p.initialGuess = o.guess.value_or(p.initialGuess);
    p.historySize = o.m.value_or(p.historySize);
    if (o.randomOrientations >= 0) p.alignment.randomOrientations = o.randomOrientations;
    if (o.orientationTrials > 0) p.alignment.orientationTrials = o.orientationTrials;
    if (o.alignmentSeed >= 0) p.alignment.seed = static_cast<std::uint64_t>(o.alignmentSeed);
    std::printf("endpoint alignment: %d orientation trials, %d random orientations\n",
                p.alignment.orientationTrials, p.alignment.randomOrientations);
    std::printf(
        "DNEB: %d images, %d iterations, k %.3g (factor %.3g), segment %d, doubly %d, "
        "step %.3g, H0 %.3g, m %d\n",
        p.images, p.iterations, p.springConstant, p.springAdjustFactor, p.segmentSprings ? 1 : 0,
        p.doublyNudged ? 1 : 0, p.maxStepPerImage, p.initialGuess, p.historySize);
    const Dneb dneb(p);
    std::vector<std::unique_ptr<LennardJones>> copies;
    std::vector<Potential*> threads;
    for (int t = 0; t < o.threads; ++t) {
      copies.push_back(std::make_unique<LennardJones>(lj.atomCount()));
      threads.push_back(copies.back().get());
    }
    PerStructureBatchedPotential batched(threads);
    BatchedPotential* images = o.threads > 1 ? &batched : nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    const DnebResult r = dneb.run(lj, start, finish, [&](const LbfgsIteration& it) {
      if (every > 0 && it.iteration % every == 0) {
        std::printf("  %5d  RMS %.4f  E/image %.5f  step %.4f%s%s\n", it.iteration, it.rmsGradient,
                    it.energy / p.images, it.stepLength, it.reversed ? " reversed" : "",
                    it.historyCleared ? " cleared" : "");
      }
    }, images);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("Double-ended search iterations= %d RMS= %.4f Dev= %.2f%% S= %.2f k= %.4g %s\n",
                r.iterations, r.rmsGradient, r.meanSpacingDeviation, r.pathLength, r.springConstant,
                lbfgsStatusName(r.status).c_str());
    std::printf("DNEB wall time %.3f s (images %s)\n", seconds,
                images ? batched.name().c_str() : "one at a time");
    std::printf("endpoint distance %.4f; candidates: %zu, highest image E = ", r.endpointDistance,
                r.candidates.size());
    double emax = -1e300;
    for (int c : r.candidates) emax = std::max(emax, r.energies[c]);
    std::printf("%.6f\n", emax);
    if (o.profile) {
      AlignmentParams rigid;
      rigid.permutations = false;
      rigid.inversion = false;
      double aligned = 0.0;
      for (std::size_t i = 0; i + 1 < r.images.size(); ++i) {
        double raw = 0.0;
        for (std::size_t j = 0; j < start.size(); ++j) {
          raw += (r.images[i + 1][j] - r.images[i][j]) * (r.images[i + 1][j] - r.images[i][j]);
        }
        const double a = alignStructures(r.images[i], r.images[i + 1], rigid).distance;
        aligned += a;
        std::printf("  %3zu  E %.5f  d %.4f  d(rigidly aligned) %.4f\n", i, r.energies[i],
                    std::sqrt(raw), a);
      }
      std::printf("S rigidly aligned = %.3f, endpoint distance %.3f\n", aligned,
                  r.endpointDistance);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench_dneb: " << e.what() << "\n";
    return 1;
  }
}
