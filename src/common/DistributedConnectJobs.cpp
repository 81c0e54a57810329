#include "src/common/DistributedConnectJobs.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace landscape {

void putConnectJob(ByteWriter& out, const ConnectJobResult& job) {
  out.put(static_cast<std::int32_t>(job.ran));
  const ConnectResult& r = job.result;
  out.put(static_cast<std::int32_t>(r.status));
  out.put(static_cast<std::int32_t>(r.cycles));
  out.put(static_cast<std::int32_t>(r.dnebRuns));
  out.put(static_cast<std::int32_t>(r.transitionStateSearches));
  out.put(static_cast<std::int64_t>(r.gradientCalls));
  out.putVector(r.path);
  out.put(static_cast<std::uint64_t>(job.minima.size()));
  for (const NetworkMinimum& m : job.minima) {
    out.put(m.energy);
    out.putVector(m.coordinates);
  }
  out.put(static_cast<std::uint64_t>(job.transitionStates.size()));
  for (const NetworkTransitionState& t : job.transitionStates) {
    out.put(t.energy);
    out.putVector(t.coordinates);
    out.put(t.eigenvalue);
    out.put(static_cast<std::int32_t>(t.plusMinimum));
    out.put(static_cast<std::int32_t>(t.minusMinimum));
  }
}

ConnectJobResult getConnectJob(ByteReader& in) {
  ConnectJobResult job;
  job.ran = in.get<std::int32_t>() != 0;
  ConnectResult& r = job.result;
  r.status = static_cast<ConnectStatus>(in.get<std::int32_t>());
  r.cycles = in.get<std::int32_t>();
  r.dnebRuns = in.get<std::int32_t>();
  r.transitionStateSearches = in.get<std::int32_t>();
  r.gradientCalls = static_cast<long>(in.get<std::int64_t>());
  r.path = in.getVector<PathStep>();
  job.minima.resize(in.getCount(2 * sizeof(double)));
  for (NetworkMinimum& m : job.minima) {
    m.energy = in.get<double>();
    m.coordinates = in.getVector<double>();
  }
  job.transitionStates.resize(in.getCount(3 * sizeof(double)));
  for (NetworkTransitionState& t : job.transitionStates) {
    t.energy = in.get<double>();
    t.coordinates = in.getVector<double>();
    t.eigenvalue = in.get<double>();
    t.plusMinimum = in.get<std::int32_t>();
    t.minusMinimum = in.get<std::int32_t>();
  }
  return job;
}

std::vector<ConnectJobResult> runOwnConnectJobs(const Connect& connect,
                                                const ConnectEngineMaker& engine,
                                                const ConnectJobEnds& ends, ThreadPool& pool,
                                                int runsInFlight, int rank, int ranks,
                                                const std::function<bool()>& stopRequested,
                                                const ConnectJobProgress& progress) {
  const std::size_t size = static_cast<std::size_t>(ranks);
  ConnectJobEnds mine{ends.params, {}};
  for (std::size_t i = static_cast<std::size_t>(rank); i < ends.ends.size(); i += size)
    mine.ends.push_back(ends.ends[i]);
  ConnectJobProgress own{{}, progress.attemptMade};
  if (progress.runEnded)  // this rank's i-th run is pair rank + i * ranks
    own.runEnded = [&](std::size_t i, const ConnectJobResult& job) {
      progress.runEnded(static_cast<std::size_t>(rank) + i * size, job);
    };
  return runConnectJobs(connect, engine, mine, pool, runsInFlight, stopRequested, own);
}

std::vector<ConnectJobResult> gatherConnectJobs(const std::vector<ConnectJobResult>& own,
                                                std::size_t pairs, Communicator& ranks) {
  const std::size_t size = static_cast<std::size_t>(ranks.size());
  ByteWriter out;
  for (const ConnectJobResult& job : own) putConnectJob(out, job);
  const std::vector<std::vector<char>> received = ranks.allGather(out.bytes());
  std::vector<ConnectJobResult> jobs(pairs);
  for (std::size_t r = 0; r < size; ++r) {
    ByteReader in(received[r], "rank " + std::to_string(r) + "'s connect runs");
    for (std::size_t i = r; i < pairs; i += size) jobs[i] = getConnectJob(in);
    if (!in.done())
      throw std::runtime_error("rank " + std::to_string(r) + " sent more connect runs than its " +
                               "pairs");
  }
  return jobs;
}

std::vector<ConnectJobResult> runConnectJobsOverRanks(
    const Connect& connect, const ConnectEngineMaker& engine, const TransitionNetwork& network,
    const std::vector<std::array<int, 2>>& pairs, ThreadPool& pool, int runsInFlight,
    Communicator& ranks, const std::function<bool()>& stopRequested,
    const ConnectJobProgress& progress) {
  return gatherConnectJobs(
      runOwnConnectJobs(connect, engine, connectJobEnds(network, pairs), pool, runsInFlight,
                        ranks.rank(), ranks.size(), stopRequested, progress),
      pairs.size(), ranks);
}

}  // namespace landscape
