#pragma once
// Network growth's connect runs (landscape/paths/ConnectJobs.h) spread over the ranks of an MPI
// job (docs/cluster.md): pair i runs on rank i mod K, on that rank's thread pool; then
// every rank receives every run's minima, transition states and result, in pair order: what
// runConnectJobs returns in one process, bit for bit, since a run depends on its two endpoints
// only. Each rank then merges them into its copy of the network with mergeConnectJob in pair
// order, so that every rank holds the same network and rank 0 writes it: no report is lost (every
// run reaches every rank) or stored twice (the merge's duplicate detection, as in one process).
// The growth driver (src/pathsample/PathsampleGrowth.cpp, runCycle) calls it for every cycle; with one rank
// it is runConnectJobs.
#include <array>
#include <functional>
#include <vector>

#include "landscape/paths/ConnectJobs.h"
#include "landscape/core/ByteStream.h"
#include "src/common/Communicator.h"

namespace landscape {

/// runConnectJobs over `ranks` (collective: every rank calls it with the same network and pairs).
/// `stopRequested` is asked by each rank before each of its runs; a run it stops is left out
/// (ran = false) on every rank alike. `progress` hears of the runs of this rank only (pair indices
/// into `pairs`).
std::vector<ConnectJobResult> runConnectJobsOverRanks(
    const Connect& connect, const ConnectEngineMaker& engine, const TransitionNetwork& network,
    const std::vector<std::array<int, 2>>& pairs, ThreadPool& pool, int runsInFlight,
    Communicator& ranks, const std::function<bool()>& stopRequested = {},
    const ConnectJobProgress& progress = {});

/// The two halves of runConnectJobsOverRanks, for cycles that overlap (pathsample grow
/// --cycles-in-flight): this rank's runs of the pairs whose endpoints `ends` holds (pair i on rank
/// i mod `ranks`), which pass no message and may run on any thread; then, on the thread that makes
/// the run's collective calls, every rank's runs in pair order (collective).
std::vector<ConnectJobResult> runOwnConnectJobs(const Connect& connect,
                                                const ConnectEngineMaker& engine,
                                                const ConnectJobEnds& ends, ThreadPool& pool,
                                                int runsInFlight, int rank, int ranks,
                                                const std::function<bool()>& stopRequested = {},
                                                const ConnectJobProgress& progress = {});
std::vector<ConnectJobResult> gatherConnectJobs(const std::vector<ConnectJobResult>& own,
                                                std::size_t pairs, Communicator& ranks);

/// One run's result on the wire, every field.
void putConnectJob(ByteWriter& out, const ConnectJobResult& job);
ConnectJobResult getConnectJob(ByteReader& in);

}  // namespace landscape
