#pragma once
// The option table of `optim`: every command-line option, with its unit, bounds, default and help,
// and every OPTIM `odata` keyword with the options its fields set (docs/optim-keywords.md is its
// rendering). parseOptimCommandLine reads the command line through it, OptimOdataFile.cpp odata
// files.
#include <string>
#include <vector>

#include "src/common/OptionTable.h"
#include "src/optim/OptimConfig.h"

namespace landscape {

const OptionTable<OptimConfig>& optimOptionTable();

/// Parses argv (argv[0] is the program name). Sources, highest precedence first: the command
/// line, the `--config FILE` INI file (`key = value` with the long option names, `#` comments),
/// the `--odata FILE` OPTIM keyword file (which replaces the built-in defaults by
/// optimKeywordDefaults()), the built-in defaults (OPTIM's LJ38 example settings). The resulting
/// parameters are checked. `--help` and `--version` return at once with helpText filled. Throws
/// std::runtime_error with a one-line message naming the option, or the file and line, on bad
/// input; never exits, never prints.
OptimConfig parseOptimCommandLine(int argc, const char* const argv[]);

/// The same with the arguments after the program name.
OptimConfig parseOptimCommandLine(const std::vector<std::string>& arguments);

/// The long names of every option `optim` accepts (without "--"), in the order of --help.
std::vector<std::string> optimOptionNames();

}  // namespace landscape
