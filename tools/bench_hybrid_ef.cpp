// bench_hybrid_ef: hybrid eigenvector-following searches run whole, many at once
// (landscape/paths/TransitionStateSearches.h), against HybridEigenvectorFollowing one search at a
// time on one CPU core. Reads an OPTIM odata file (its POINTS start, DNEB and BFGSTS settings) and
// a finish file, minimises both endpoints, relaxes the first DNEB band on the CPU and takes its
// candidates (the images at the band's maxima, with their tangents as eigenvector guesses); then
// searches --searches searches (the candidates in turn) with the CPU reference, the CPU twin of the
// kernel on --threads threads, and the GPU kernel (cuda builds with a device), its arrays in shared
// and in global memory. Prints searches per second, gradient calls per second and each row's ratio
// to one CPU core (docs/benchmarks.md); the GPU also with 1 and 16 searches per launch, whose
// seconds are a search's latency.
//
// Usage: bench_hybrid_ef --odata FILE --finish FILE [--searches S] [--warps W] [--threads T]
//                        [--history M] [--reference-searches R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/minimisation/Lbfgs.h"
#include "landscape/paths/Dneb.h"
#include "landscape/paths/HybridEfTwin.h"
#include "landscape/paths/HybridEigenvectorFollowing.h"
#include "potentials/LennardJones.h"
#include "src/common/SharedOptions.h"
#include "src/optim/OptimOdataFile.h"
#ifdef LANDSCAPE_HAVE_CUDA
#include "gpu/BatchedHybridEfCuda.h"
#endif

using namespace landscape;

namespace {

struct Options {
  std::string odata, finish;
  int searches = 1024, warps = kHybridEfWarps, threads = 1, referenceSearches = 10, history = 0;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("bench_hybrid_ef");
  t.about =
      "usage: bench_hybrid_ef --odata FILE --finish FILE [options]\n"
      "Hybrid EF searches run whole, many at once (CPU twin, GPU kernel), against\n"
      "HybridEigenvectorFollowing one search at a time on one core; reduced units "
      "(Lennard-Jones).\n";
  t.helpCommand();
  t.add("odata", "FILE", "OPTIM odata: the DNEB and BFGSTS settings and the POINTS start",
        fieldOf(&Options::odata));
  t.add("finish", "FILE", "the second endpoint", fieldOf(&Options::finish));
  t.add("searches", "S", "searches per call of the twin and the kernel",
        fieldOf(&Options::searches))
      .atLeast(1);
  t.add("warps", "W", "warps per search (1 to 32)", fieldOf(&Options::warps)).atLeast(1);
  t.add("threads", "T", "CPU threads of the twin", fieldOf(&Options::threads)).atLeast(1);
  t.add("history", "M",
        "L-BFGS history of both minimisations of a search (OPTIM's UPDATES; 0: the odata's)",
        fieldOf(&Options::history))
      .atLeast(0);
  t.add("reference-searches", "R", "searches timed with HybridEigenvectorFollowing on one core",
        fieldOf(&Options::referenceSearches))
      .atLeast(1);
  return t;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Row {
  std::string what;
  int searches = 0;
  double seconds = 0.0;
  long long gradientCalls = 0;
  int converged = 0;
};

void printRow(const Row& r, double referencePerSecond) {
  const double perSecond = r.searches / r.seconds;
  std::printf("| %s | %d | %.4f | %.1f | %.3g | %d/%d | %.2f |\n", r.what.c_str(), r.searches,
              r.seconds, perSecond, r.gradientCalls / r.seconds, r.converged, r.searches,
              perSecond / referencePerSecond);
}

Row searchAll(TransitionStateSearches& searcher, const HybridEigenvectorFollowingParams& p,
              const std::vector<TransitionStateJob>& jobs, const std::string& what) {
  std::vector<TransitionStateResult> out;
  const auto t0 = std::chrono::steady_clock::now();
  searcher.search(p, jobs, out);
  Row r{what, static_cast<int>(jobs.size()), secondsSince(t0), 0, 0};
  for (const TransitionStateResult& ts : out) {
    r.gradientCalls += ts.gradientCalls;
    r.converged += ts.converged() ? 1 : 0;
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  try {
    if (o.odata.empty() || o.finish.empty())
      throw std::invalid_argument("usage: bench_hybrid_ef --odata FILE --finish FILE [options]");
    if (o.warps > 32) throw std::invalid_argument("--warps: 1 to 32");
    const OptimConfig config = readOdataFile(o.odata);
    std::vector<double> start = config.odataPoints, finish = readCoordinates(o.finish);
    if (start.empty()) throw std::invalid_argument(o.odata + ": no POINTS");
    if (finish.size() != start.size())
      throw std::invalid_argument(o.finish + ": " + std::to_string(finish.size()) +
                                  " coordinates, the odata's POINTS have " +
                                  std::to_string(start.size()));
    const std::size_t atoms = start.size() / 3;
    LennardJones lj(atoms);
    const Lbfgs minimiser(config.settings.endpointMinimiser);
    minimiser.minimize(lj, start);
    minimiser.minimize(lj, finish);
    DnebParams dp = config.settings.connect.dneb;
    if (config.settings.connect.firstImages > 0) dp.images = config.settings.connect.firstImages;
    if (config.settings.connect.firstIterations > 0)
      dp.iterations = config.settings.connect.firstIterations;
    const DnebResult band = Dneb(dp).run(lj, start, finish);
    if (band.candidates.empty()) throw std::runtime_error("the first DNEB band has no maximum");
    HybridEigenvectorFollowingParams p = config.settings.connect.transitionStateSearch;
    if (o.history > 0) p.rayleighRitz.lbfgs.historySize = p.tangentSpace.historySize = o.history;
    std::vector<TransitionStateJob> jobs;
    for (int s = 0; s < o.searches; ++s) {
      const int k = band.candidates[static_cast<std::size_t>(s) % band.candidates.size()];
      jobs.push_back({band.images[k].data(), band.tangents[k].data()});
    }
    std::printf(
        "LJ%zu: %d searches from the %zu candidates of the first DNEB band, %d warps per "
        "search, L-BFGS history %d / %d\n",
        atoms, o.searches, band.candidates.size(), o.warps, p.rayleighRitz.lbfgs.historySize,
        p.tangentSpace.historySize);
    std::printf(
        "| row | searches | seconds | searches/s | gradient calls/s | converged | x 1 core "
        "|\n|---|---|---|---|---|---|---|\n");
    Row reference{"HybridEigenvectorFollowing, 1 core", o.referenceSearches, 0.0, 0, 0};
    const HybridEigenvectorFollowing search(p);
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < o.referenceSearches; ++s) {
      const TransitionStateJob& job = jobs[static_cast<std::size_t>(s) % jobs.size()];
      const std::vector<double> x(job.start, job.start + 3 * atoms);
      const std::vector<double> v(job.guess, job.guess + 3 * atoms);
      const TransitionStateResult r = search.findTransitionState(lj, x, v);
      reference.gradientCalls += r.gradientCalls;
      reference.converged += r.converged() ? 1 : 0;
    }
    reference.seconds = secondsSince(t0);
    const double referencePerSecond = reference.searches / reference.seconds;
    printRow(reference, referencePerSecond);
    HybridEfTwin twin(atoms, o.warps, o.threads);
    const int twinSearches = std::min(o.searches, 2 * o.threads * o.referenceSearches);
    printRow(searchAll(twin, p,
                       std::vector<TransitionStateJob>(jobs.begin(), jobs.begin() + twinSearches),
                       "twin, " + std::to_string(o.threads) + " threads"),
             referencePerSecond);
#ifdef LANDSCAPE_HAVE_CUDA
    if (gpuAvailable()) {
      for (bool inShared : {true, false}) {
        HybridEfSearchesCuda device(atoms, o.warps, inShared);
        const std::string where = inShared ? "shared" : "global";
        searchAll(device, p, {jobs.front()}, "warm-up");
        for (int alone : {1, 16})
          printRow(
              searchAll(device, p,
                        std::vector<TransitionStateJob>(jobs.begin(),
                                                        jobs.begin() + std::min(alone, o.searches)),
                        "gpu (" + where + "), " + std::to_string(alone) + " search(es) per launch"),
              referencePerSecond);
        printRow(searchAll(device, p, jobs, "gpu (" + where + ", " + gpuDescription() + ")"),
                 referencePerSecond);
      }
    } else {
      std::printf("(no CUDA device: %s)\n", gpuDescription().c_str());
    }
#endif
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "bench_hybrid_ef: " << e.what() << "\n";
    return 1;
  }
}
