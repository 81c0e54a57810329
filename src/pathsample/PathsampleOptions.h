#pragma once
// The option table of `pathsample`: every command-line option, with its unit, bounds, default and
// help, and every PATHSAMPLE `pathdata` keyword with the options its fields set
// (docs/pathsample-options.md is its rendering), and the parse of the command line, the --config
// file and the pathdata file through it (OptionTable.h).
#include <string>
#include <vector>

#include "src/common/OptionTable.h"
#include "src/pathsample/PathsampleConfig.h"

namespace landscape {

const OptionTable<PathsampleConfig>& pathsampleOptionTable();

/// Parses the arguments (without argv[0]). Sources, highest precedence first: the command line,
/// `--config FILE`, `--pathdata FILE`. `--help`, `--help-markdown` and `--version` return at once
/// with helpText filled. Throws std::runtime_error naming the option, or the file and line.
PathsampleConfig parsePathsampleCommandLine(const std::vector<std::string>& arguments);

/// The contents of docs/pathsample-options.md: the options and pathdata keywords as Markdown.
std::string pathsampleOptionsMarkdown();

}  // namespace landscape
