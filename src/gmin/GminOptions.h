#pragma once
// The option table of `gmin`: every command-line option, with its unit, bounds, default and help,
// and every GMIN `data` keyword with the options its fields set (docs/gmin-keywords.md is its
// rendering). GminConfig.cpp reads the command line through it, GminDataFile.cpp the data files.
#include "src/common/OptionTable.h"
#include "src/gmin/GminConfig.h"

namespace landscape {

const OptionTable<GminConfig>& gminOptionTable();

}  // namespace landscape
