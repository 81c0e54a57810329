#pragma once
// The modes of the `pathsample` program (docs/pathsample.md): each reads what it needs, writes
// its files atomically and returns the lines it prints (flushed by the caller).
#include <functional>
#include <string>

#include "src/pathsample/PathsampleConfig.h"

namespace landscape {

using ProgressPrinter = std::function<void(const std::string& line)>;

/// PATHSAMPLE's way: a run configured by a pathdata file (or --no-points) without --database
/// reads the PATHSAMPLE files (min.data, ...) of --directory (docs/pathsample.md, "Running in a
/// PATHSAMPLE folder"); grow then imports them into its output's network.h5 first.
bool readsPathsampleFolder(const PathsampleConfig& config);

/// Runs config.mode. Throws std::runtime_error / std::invalid_argument with a sentence on bad
/// input (missing endpoint sets, unknown log products, a disconnected network).
void runPathsampleMode(const PathsampleConfig& config, const ProgressPrinter& print);

}  // namespace landscape
