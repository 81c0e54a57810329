#pragma once
// The option table of `optim`: every command-line option, with its unit, bounds, default and help,
// and every OPTIM `odata` keyword with the options its fields set (docs/optim-keywords.md is its
// rendering). OptimConfig.cpp reads the command line through it, OptimOdataFile.cpp odata files.
#include "src/optim/OptimConfig.h"
#include "src/common/OptionTable.h"

namespace landscape {

const OptionTable<OptimConfig>& optimOptionTable();

}  // namespace landscape
