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
//                   [--profile 0|1]
// --profile 1 prints the final energy profile with each segment length, raw and after a rigid
// (Kabsch) fit, so that rotational drift of the images can be told from a genuinely long path.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/Dneb.h"
#include "potentials/LennardJones.h"
#include "src/OdataFile.h"

using namespace landscape;

namespace {

double parseNumber(const std::string& flag, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0') throw std::invalid_argument(flag + " needs a number");
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string odata, finishFile;
    DnebParams overrides;
    bool haveK = false, haveFactor = false, haveTol = false, haveSegment = false,
         haveDoubly = false, haveStep = false, haveGuess = false, haveM = false;
    int images = 0, iterations = 0, every = 50, randomOrientations = -1, orientationTrials = 0;
    bool profile = false;
    long long alignmentSeed = -1;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      const char* v = argv[++i];
      if (a == "--odata")
        odata = v;
      else if (a == "--finish")
        finishFile = v;
      else if (a == "--iterations")
        iterations = static_cast<int>(parseNumber(a, v));
      else if (a == "--images")
        images = static_cast<int>(parseNumber(a, v));
      else if (a == "--every")
        every = static_cast<int>(parseNumber(a, v));
      else if (a == "--random-orientations")
        randomOrientations = static_cast<int>(parseNumber(a, v));
      else if (a == "--orientation-trials")
        orientationTrials = static_cast<int>(parseNumber(a, v));
      else if (a == "--profile")
        profile = parseNumber(a, v) != 0.0;
      else if (a == "--alignment-seed")
        alignmentSeed = static_cast<long long>(parseNumber(a, v));
      else if (a == "--k")
        overrides.springConstant = parseNumber(a, v), haveK = true;
      else if (a == "--k-factor")
        overrides.springAdjustFactor = parseNumber(a, v), haveFactor = true;
      else if (a == "--spacing-tol")
        overrides.spacingTolerance = parseNumber(a, v), haveTol = true;
      else if (a == "--segment")
        overrides.segmentSprings = parseNumber(a, v) != 0.0, haveSegment = true;
      else if (a == "--doubly")
        overrides.doublyNudged = parseNumber(a, v) != 0.0, haveDoubly = true;
      else if (a == "--max-step")
        overrides.maxStepPerImage = parseNumber(a, v), haveStep = true;
      else if (a == "--guess")
        overrides.initialGuess = parseNumber(a, v), haveGuess = true;
      else if (a == "--m")
        overrides.historySize = static_cast<int>(parseNumber(a, v)), haveM = true;
      else
        throw std::invalid_argument("unknown option " + a);
    }
    if (odata.empty() || finishFile.empty()) {
      throw std::invalid_argument("usage: bench_dneb --odata FILE --finish FILE [options]");
    }
    const OptimRunConfig config = readOdataFile(odata);
    std::vector<double> start = config.odataPoints, finish = readCoordinates(finishFile);
    if (start.empty()) throw std::invalid_argument(odata + ": no POINTS");
    LennardJones lj(start.size() / 3);
    const Lbfgs minimiser(config.settings.endpointMinimiser);
    const LbfgsResult rs = minimiser.minimize(lj, start);
    const LbfgsResult rf = minimiser.minimize(lj, finish);
    std::printf("endpoints: E = %.7f (RMS %.1e), %.7f (RMS %.1e)\n", rs.energy, rs.rmsGradient,
                rf.energy, rf.rmsGradient);

    DnebParams p = config.settings.connect.dneb;
    p.images = images > 0 ? images : config.settings.connect.firstImages;
    p.iterations = iterations > 0 ? iterations : config.settings.connect.firstIterations;
    if (haveK) p.springConstant = overrides.springConstant;
    if (haveFactor) p.springAdjustFactor = overrides.springAdjustFactor;
    if (haveTol) p.spacingTolerance = overrides.spacingTolerance;
    if (haveSegment) p.segmentSprings = overrides.segmentSprings;
    if (haveDoubly) p.doublyNudged = overrides.doublyNudged;
    if (haveStep) p.maxStepPerImage = overrides.maxStepPerImage;
    if (haveGuess) p.initialGuess = overrides.initialGuess;
    if (haveM) p.historySize = overrides.historySize;
    if (randomOrientations >= 0) p.alignment.randomOrientations = randomOrientations;
    if (orientationTrials > 0) p.alignment.orientationTrials = orientationTrials;
    if (alignmentSeed >= 0) p.alignment.seed = static_cast<std::uint64_t>(alignmentSeed);
    std::printf("endpoint alignment: %d orientation trials, %d random orientations\n",
                p.alignment.orientationTrials, p.alignment.randomOrientations);
    std::printf(
        "DNEB: %d images, %d iterations, k %.3g (factor %.3g), segment %d, doubly %d, "
        "step %.3g, H0 %.3g, m %d\n",
        p.images, p.iterations, p.springConstant, p.springAdjustFactor, p.segmentSprings ? 1 : 0,
        p.doublyNudged ? 1 : 0, p.maxStepPerImage, p.initialGuess, p.historySize);
    const Dneb dneb(p);
    const DnebResult r = dneb.run(lj, start, finish, [&](const LbfgsIteration& it) {
      if (every > 0 && it.iteration % every == 0) {
        std::printf("  %5d  RMS %.4f  E/image %.5f  step %.4f%s%s\n", it.iteration, it.rmsGradient,
                    it.energy / p.images, it.stepLength, it.reversed ? " reversed" : "",
                    it.historyCleared ? " cleared" : "");
      }
    });
    std::printf("Double-ended search iterations= %d RMS= %.4f Dev= %.2f%% S= %.2f k= %.4g %s\n",
                r.iterations, r.rmsGradient, r.meanSpacingDeviation, r.pathLength, r.springConstant,
                lbfgsStatusName(r.status).c_str());
    std::printf("endpoint distance %.4f; candidates: %zu, highest image E = ", r.endpointDistance,
                r.candidates.size());
    double emax = -1e300;
    for (int c : r.candidates) emax = std::max(emax, r.energies[c]);
    std::printf("%.6f\n", emax);
    if (profile) {
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
