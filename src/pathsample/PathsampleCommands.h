#pragma once
// The modes of the `pathsample` program (docs/pathsample.md): each reads what it needs, writes
// its files atomically and returns the lines it prints (flushed by the caller).
#include <functional>
#include <string>

#include "src/pathsample/PathsampleConfig.h"

namespace landscape {

using ProgressPrinter = std::function<void(const std::string& line)>;

/// Runs config.mode. Throws std::runtime_error / std::invalid_argument with a sentence on bad
/// input (missing endpoint sets, unknown log products, a disconnected network).
void runPathsampleMode(const PathsampleConfig& config, const ProgressPrinter& print);

}  // namespace landscape
