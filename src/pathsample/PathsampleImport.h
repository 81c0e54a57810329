#pragma once
// `pathsample import` and `export` (docs/pathsample.md, "Import and export"): PATHSAMPLE's files
// (min.data, ts.data, points, min.A, min.B; or without points, NOPOINTS), or OPTIM's path.info
// (STARTFROMPATH, ADDPATH), into network.h5, which is extended with the same system, never
// replaced; and the files back out of it.
#include "src/pathsample/PathsampleCommands.h"
#include "src/pathsample/PathsampleConfig.h"

namespace landscape {

void importDatabase(const PathsampleConfig& config, const ProgressPrinter& print);
void exportDatabase(const PathsampleConfig& config, const ProgressPrinter& print);

}  // namespace landscape
