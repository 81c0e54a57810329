#include "landscape/paths/ConnectJobs.h"

#include <algorithm>
#include <atomic>

#include "landscape/core/Fibres.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/paths/SharedDnebBands.h"
#include "landscape/paths/SharedTransitionStateSearches.h"

namespace landscape {

ConnectJobEnds connectJobEnds(const TransitionNetwork& network,
                              const std::vector<std::array<int, 2>>& pairs) {
  ConnectJobEnds e{network.params(), std::vector<std::array<NetworkMinimum, 2>>(pairs.size())};
  for (std::size_t i = 0; i < pairs.size(); ++i)
    for (int side = 0; side < 2; ++side) e.ends[i][side] = network.minima().at(pairs[i][side]);
  return e;
}

std::vector<ConnectJobResult> runConnectJobs(
    const Connect& connect, const ConnectEngineMaker& engine, const TransitionNetwork& network,
    const std::vector<std::array<int, 2>>& pairs, ThreadPool& pool, int runsInFlight,
    const std::function<bool()>& stopRequested, const ConnectJobProgress& progress) {
  // Copies of the endpoints first: the network is not touched by the workers.
  return runConnectJobs(connect, engine, connectJobEnds(network, pairs), pool, runsInFlight,
                        stopRequested, progress);
}

std::vector<ConnectJobResult> runConnectJobs(const Connect& connect,
                                             const ConnectEngineMaker& engine,
                                             const ConnectJobEnds& endpoints, ThreadPool& pool,
                                             int runsInFlight,
                                             const std::function<bool()>& stopRequested,
                                             const ConnectJobProgress& progress) {
  const std::vector<std::array<NetworkMinimum, 2>>& ends = endpoints.ends;
  ConnectObserver observer;
  observer.onAttempt = progress.attemptMade;
  std::vector<ConnectJobResult> results(ends.size());
  const auto runOne = [&](std::size_t i) {
    if (stopRequested && stopRequested()) return;
    TransitionNetwork own(endpoints.params);
    const int start = own.addMinimum(ends[i][0].coordinates, ends[i][0].energy).index;
    const int finish = own.addMinimum(ends[i][1].coordinates, ends[i][1].energy).index;
    ConnectJobResult& r = results[i];
    r.ran = true;
    if (start != finish) {
      const ConnectJobEngine e = engine();
      r.result = connect.connect(*e.potential, own, start, finish, observer, e.batching());
      // A run the stop request cut short counts as one never started: what it found so far
      // depends on when the signal came, so it is dropped and the pair runs again from scratch.
      if (r.result.status == ConnectStatus::Stopped) {
        r = ConnectJobResult{};
        return;
      }
    }
    r.minima = own.minima();
    r.transitionStates = own.transitionStates();
    if (progress.runEnded) progress.runEnded(i, r);
  };
  // Each thread keeps its share of the runs in flight as fibres, each fibre taking the next pair
  // as its run ends; which thread runs a pair does not matter (a run depends on its pair alone).
  const std::size_t threads = static_cast<std::size_t>(pool.threads());
  const std::size_t perThread =
      std::max<std::size_t>(1, (static_cast<std::size_t>(std::max(runsInFlight, 1)) + threads - 1) /
                                   threads);
  std::atomic<std::size_t> next{0};
  const FibreScheduler::Task runs = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < ends.size();) runOne(i);
  };
  pool.forEach(threads, [&](std::size_t) {
    FibreScheduler::run(std::vector<FibreScheduler::Task>(perThread, runs));
  });
  return results;
}

std::vector<ConnectJobResult> runConnectJobs(const Connect& connect, const PotentialMaker& potential,
                                             const TransitionNetwork& network,
                                             const std::vector<std::array<int, 2>>& pairs,
                                             ThreadPool& pool,
                                             const std::function<bool()>& stopRequested) {
  return runConnectJobs(connect, potentialOnly(potential), network, pairs, pool, pool.threads(),
                        stopRequested);
}

ConnectEngineMaker potentialOnly(PotentialMaker potential) {
  return [potential = std::move(potential)] {
    ConnectJobEngine e;
    e.potential = potential();
    return e;
  };
}

ConnectJobEngine sharedConnectEngine(SharedBatchedPotential& shared,
                                     const LbfgsParams& descentMinimiser, int searches,
                                     SharedWholeSearches whole) {
  ConnectJobEngine e;
  e.member = std::make_unique<SharedBatchedPotential::Member>(shared);
  e.potential = e.member->potential();
  e.images = e.member->batched();
  e.descents = std::make_unique<BatchedLbfgs>(*e.images, descentMinimiser, 1);
  e.searches = std::make_unique<SharedConcurrentSearches>(*e.member, searches, whole);
  if (whole.bands) {
    e.bands = whole.bands->view(*e.member);
    e.alignments = whole.bands->alignmentView(*e.member);
  }
  if (whole.transitionStates) e.transitionStates = whole.transitionStates->view(*e.member);
  return e;
}

MergeCounts mergeConnectJob(TransitionNetwork& network, const ConnectJobResult& job,
                            std::size_t statesBeforeCycle, const JobLookups* ahead) {
  MergeCounts counts;
  std::vector<int> index(job.minima.size(), -1);  // job minimum -> network minimum
  auto merged = [&](int m) {
    if (index[m] < 0) {
      const TransitionNetwork::Added added = network.addMinimum(
          job.minima[m].coordinates, job.minima[m].energy, ahead ? &ahead->minima[m] : nullptr);
      index[m] = added.index;
      counts.newMinima += added.isNew;
    }
    return index[m];
  };
  for (std::size_t t = 0; t < job.transitionStates.size(); ++t) {
    const NetworkTransitionState& ts = job.transitionStates[t];
    const int plus = merged(ts.plusMinimum), minus = merged(ts.minusMinimum);
    if (plus == minus) continue;  // its minima are one under the network's tolerances
    const TransitionNetwork::Added added =
        network.addTransitionState(ts.coordinates, ts.energy, ts.eigenvalue, plus, minus,
                                   ahead ? &ahead->transitionStates[t] : nullptr);
    if (added.isNew)
      ++counts.newTransitionStates;
    else if (static_cast<std::size_t>(added.index) < statesBeforeCycle)
      ++counts.knownTransitionStates;
    else
      ++counts.repeatedInCycle;
  }
  return counts;
}

std::vector<JobLookups> lookUpCycleAhead(const TransitionNetwork& network,
                                         const std::vector<ConnectJobResult>& jobs,
                                         ThreadPool& pool) {
  std::vector<JobLookups> lookups(jobs.size());
  struct Point {
    std::size_t job;
    bool minimum;
    std::size_t index;
  };
  std::vector<Point> points;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const ConnectJobResult& job = jobs[j];
    lookups[j].minima.resize(job.minima.size());  // {-1, 0}: nothing seen, the add compares all
    lookups[j].transitionStates.resize(job.transitionStates.size());
    std::vector<char> reached(job.minima.size(), 0);
    for (std::size_t t = 0; t < job.transitionStates.size(); ++t) {
      const NetworkTransitionState& ts = job.transitionStates[t];
      reached.at(static_cast<std::size_t>(ts.plusMinimum)) = 1;
      reached.at(static_cast<std::size_t>(ts.minusMinimum)) = 1;
      points.push_back({j, false, t});
    }
    for (std::size_t m = 0; m < job.minima.size(); ++m)
      if (reached[m]) points.push_back({j, true, m});
  }
  pool.forEach(points.size(), [&](std::size_t k) {
    const Point& p = points[k];
    const ConnectJobResult& job = jobs[p.job];
    if (p.minimum) {
      const NetworkMinimum& m = job.minima[p.index];
      lookups[p.job].minima[p.index] = network.lookUpMinimum(m.coordinates, m.energy);
    } else {
      const NetworkTransitionState& t = job.transitionStates[p.index];
      lookups[p.job].transitionStates[p.index] =
          network.lookUpTransitionState(t.coordinates, t.energy);
    }
  });
  return lookups;
}

}  // namespace landscape
