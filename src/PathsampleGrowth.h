#pragma once
// `pathsample grow` (docs/pathsample.md): grows a transition network by cycles of connect runs
// between pairs chosen by UNTRAP, SHORTCUT or DIJKSTRA, merging what each run finds into the
// network and rewriting DIR/network.h5 (atomically, with the growth record) after every cycle, so
// that `--resume DIR` continues a killed run exactly where its last saved cycle ended.
#include <functional>

#include "src/PathsampleCommands.h"
#include "src/PathsampleOptions.h"

namespace landscape {

/// Runs config.cycles growth cycles (or continues config.resumeDir). stopRequested is asked
/// between connect runs: a run it stops saves what the finished connect runs found and returns.
/// Returns true when it stopped early on request.
bool growNetwork(const PathsampleRunConfig& config, const ProgressPrinter& print,
                 const std::function<bool()>& stopRequested);

}  // namespace landscape
