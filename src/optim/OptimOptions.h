#pragma once
// The option table of `optim`: every command-line option, with its unit, bounds, default and help,
// and every OPTIM `odata` keyword with the options its fields set (docs/optim-keywords.md is its
// rendering). OptimRunConfig.cpp reads the command line through it, OdataFile.cpp odata files.
#include "src/optim/OptimRunConfig.h"
#include "src/common/OptionTable.h"

namespace landscape {

const OptionTable<OptimRunConfig>& optimOptionTable();

}  // namespace landscape
