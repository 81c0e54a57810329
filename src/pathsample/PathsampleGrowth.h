#pragma once
// `pathsample grow` (docs/pathsample.md): grows a transition network by cycles of connect runs
// between pairs chosen by UNTRAP, SHORTCUT or DIJKSTRA, merging what each run finds into the
// network and rewriting DIR/network.h5 (atomically, with the growth record) after every cycle, so
// that `--resume DIR` continues a killed run exactly where its last saved cycle ended.
// Under `mpirun -n K` (docs/cluster.md) each cycle's connect runs are spread over the ranks
// (src/common/DistributedConnectJobs.h: pair i on rank i mod K, rank 0 included); every rank merges every
// run in pair order, so every rank holds the network one process would grow and chooses the same
// next pairs, and rank 0 alone writes network.h5: the database does not depend on K.
#include <functional>

#include "src/common/Communicator.h"
#include "src/optim/OptimConfig.h"
#include "src/pathsample/PathsampleCommands.h"
#include "src/pathsample/PathsampleConfig.h"

namespace landscape {

/// The settings of growth's connect runs: --odata's keywords (up to its POINTS line) on optim's
/// keyword defaults, or optim's defaults; --seed applied. Warnings go to `print`.
OptimConfig growthConnectSettings(const PathsampleConfig& config, const ProgressPrinter& print);

/// Runs config.cycles growth cycles (or continues config.resumeDir). stopRequested is asked
/// between connect runs: a run it stops saves what the finished connect runs found and returns.
/// Returns true when it stopped early on request. Collective over `ranks`: every rank calls it with
/// the same config; stopRequested is this rank's own (a signal to it), and the ranks agree on a
/// stop between cycles. Runs the fault drill (src/common/FaultDrill.h) as each cycle starts, once the
/// cycle before it is saved.
bool growNetwork(const PathsampleConfig& config, const ProgressPrinter& print,
                 const std::function<bool()>& stopRequested, Communicator& ranks);

}  // namespace landscape
