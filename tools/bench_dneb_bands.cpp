// bench_dneb_bands: DNEB bands relaxed whole, many at once (landscape/paths/DnebBands.h), against
// Dneb::run one band at a time on one CPU core. Reads an OPTIM odata file (its POINTS start and
// DNEB settings) and a finish file, minimises both endpoints, aligns the finish onto the start
// once, then relaxes --bands bands of --images images and at most --iterations steps (the pair
// in both directions, alternately): with the CPU reference (Dneb::run, the band's images through
// the Lennard-Jones potential one after the other), the CPU twin of the kernel on --threads
// threads, and the GPU kernel (cuda builds with a device). Prints bands per second, image
// evaluations per second and each row's ratio to one CPU core (docs/benchmarks.md); the GPU also
// with 1 and 16 bands per launch, whose seconds are a band's latency.
//
// Usage: bench_dneb_bands --odata FILE --finish FILE [--bands B] [--images N] [--iterations N]
//                         [--warps W] [--threads T] [--reference-bands R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/DnebBandTwin.h"
#include "potentials/LennardJones.h"
#include "src/common/SharedOptions.h"
#include "src/optim/OptimOdataFile.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedDnebCuda.h"
#endif

using namespace landscape;

namespace {

struct Options {
  std::string odata, finish;
  int bands = 256, images = 20, iterations = 400, warps = kDnebBandWarps, threads = 1;
  int referenceBands = 8;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_dneb_bands");
  t.about =
      "usage: bench_dneb_bands --odata FILE --finish FILE [options]\n"
      "DNEB bands relaxed whole, many at once (CPU twin, GPU kernel), against Dneb::run one\n"
      "band at a time on one core; reduced units (Lennard-Jones).\n";
  t.helpCommand();
  t.add("odata", "FILE", "OPTIM odata: the DNEB settings and the POINTS start",
        fieldOf(&Options::odata));
  t.add("finish", "FILE", "the second endpoint", fieldOf(&Options::finish));
  t.add("bands", "B", "bands per call of the twin and the kernel", fieldOf(&Options::bands))
      .atLeast(1);
  t.add("images", "N", "interior images per band", fieldOf(&Options::images)).atLeast(1);
  t.add("iterations", "N", "L-BFGS iteration cap per band", fieldOf(&Options::iterations))
      .atLeast(1);
  t.add("warps", "W", "warps per band (1 to 8)", fieldOf(&Options::warps)).atLeast(1);
  t.add("threads", "T", "CPU threads of the twin", fieldOf(&Options::threads)).atLeast(1);
  t.add("reference-bands", "R", "bands timed with Dneb::run on one core",
        fieldOf(&Options::referenceBands))
      .atLeast(1);
  return t;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Row {
  std::string what;
  int bands = 0;
  double seconds = 0.0;
  long long imageEvaluations = 0;
  int iterations = 0;  // of the first band
  int converged = 0;
};

void printRow(const Row& r, double referencePerSecond) {
  const double perSecond = r.bands / r.seconds;
  std::printf("| %s | %d | %.3f | %.1f | %.3g | %d | %d/%d | %.2f |\n", r.what.c_str(), r.bands,
              r.seconds, perSecond, r.imageEvaluations / r.seconds, r.iterations, r.converged,
              r.bands, perSecond / referencePerSecond);
}

Row relaxAll(DnebBands& bands, const DnebParams& p, const std::vector<DnebBandJob>& jobs,
             const std::string& what) {
  std::vector<DnebRelaxedBand> out;
  const auto t0 = std::chrono::steady_clock::now();
  bands.relax(p, jobs, out);
  Row r{what, static_cast<int>(jobs.size()),      secondsSince(t0),
        0,    out.front().outcome.run.iterations, 0};
  for (std::size_t k = 0; k < out.size(); ++k) {
    r.imageEvaluations += (out[k].outcome.run.functionCalls + 1) * jobs[k].images;
    r.converged += out[k].outcome.run.converged() ? 1 : 0;
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  try {
    if (o.odata.empty() || o.finish.empty())
      throw std::invalid_argument("usage: bench_dneb_bands --odata FILE --finish FILE [options]");
    const OptimConfig config = readOdataFile(o.odata);
    std::vector<double> start = config.odataPoints, finish = readCoordinates(o.finish);
    if (start.empty()) throw std::invalid_argument(o.odata + ": no POINTS");
    const std::size_t atoms = start.size() / 3;
    LennardJones lj(atoms);
    const Lbfgs minimiser(config.settings.endpointMinimiser);
    minimiser.minimize(lj, start);
    minimiser.minimize(lj, finish);
    DnebParams p = config.settings.connect.dneb;
    finish = alignStructures(start, finish, p.alignment).alignedB;
    p.alignEndpoints = false;  // aligned once above: the rows time the bands alone
    p.images = o.images;
    p.iterations = o.iterations;
    std::vector<DnebBandJob> jobs;
    for (int b = 0; b < o.bands; ++b)
      jobs.push_back(b % 2 == 0 ? DnebBandJob{start.data(), finish.data(), o.images, o.iterations}
                                : DnebBandJob{finish.data(), start.data(), o.images, o.iterations});
    std::printf("LJ%zu: %d bands of %d images, at most %d iterations, %d warps per band\n", atoms,
                o.bands, o.images, o.iterations, o.warps);
    std::printf(
        "| row | bands | seconds | bands/s | image evaluations/s | iterations (band 0) "
        "| converged | x 1 core |\n|---|---|---|---|---|---|---|---|\n");
    // One core: Dneb::run, the images one after the other.
    Row reference{"Dneb::run, 1 core", o.referenceBands, 0.0, 0, 0, 0};
    const Dneb dneb(p);
    const auto t0 = std::chrono::steady_clock::now();
    for (int b = 0; b < o.referenceBands; ++b) {
      const DnebResult r = b % 2 == 0 ? dneb.run(lj, start, finish) : dneb.run(lj, finish, start);
      reference.imageEvaluations += r.functionCalls;
      reference.converged += r.converged() ? 1 : 0;
      if (b == 0) reference.iterations = r.iterations;
    }
    reference.seconds = secondsSince(t0);
    const double referencePerSecond = reference.bands / reference.seconds;
    printRow(reference, referencePerSecond);
    DnebBandTwin twin(atoms, o.warps, o.threads);
    const int twinBands = std::min(o.bands, 4 * o.threads * o.referenceBands);
    const std::vector<DnebBandJob> twinJobs(jobs.begin(), jobs.begin() + twinBands);
    printRow(relaxAll(twin, p, twinJobs, "twin, " + std::to_string(o.threads) + " threads"),
             referencePerSecond);
#ifdef LANDSCAPE_HAVE_CUDA
    if (gpuAvailable()) {
      DnebBandsCuda device(atoms, o.warps);
      relaxAll(device, p, {jobs.front()}, "warm-up");
      // A band's latency (what a connect run waits for its band): one band alone, then 16.
      for (int alone : {1, 16})
        printRow(relaxAll(device, p,
                          std::vector<DnebBandJob>(jobs.begin(),
                                                   jobs.begin() + std::min(alone, o.bands)),
                          "gpu, " + std::to_string(alone) + " band(s) per launch"),
                 referencePerSecond);
      printRow(relaxAll(device, p, jobs, "gpu (" + gpuDescription() + ")"), referencePerSecond);
    } else {
      std::printf("(no CUDA device: %s)\n", gpuDescription().c_str());
    }
#endif
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench_dneb_bands: " << e.what() << "\n";
    return 1;
  }
}
