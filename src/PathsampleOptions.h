#pragma once
// Command line, --config file and PATHSAMPLE `pathdata` keyword file of the `pathsample` program
// (issue 19) -> PathsampleRunConfig, through the option table of PathsampleOptions.cpp.
#include <string>
#include <vector>

namespace landscape {

struct PathsampleRunConfig {
  enum class Action { Run, Help, Version };
  Action action = Action::Run;
  std::string helpText;
  std::vector<std::string> warnings;  ///< pathdata keywords accepted but ignored

  std::string mode;                      ///< import, export, rates, committors or regroup
  std::string database = "network.h5";   ///< --database FILE: the HDF5 network
  std::string directory = ".";           ///< --directory DIR: PATHSAMPLE files (in or out)
  std::string pathdataFile;              ///< --pathdata FILE
  std::vector<double> temperatures = {0.1};  ///< --temperature T[,T2...]: kT, or K (molecular)
  std::string units = "reduced";         ///< --units reduced|molecular
  double regroupThreshold = 0.0;         ///< --regroup-threshold DF (energy unit)
};

/// Parses the arguments (without argv[0]). Sources, highest precedence first: the command line,
/// `--config FILE`, `--pathdata FILE`. `--help`, `--help-markdown` and `--version` return at once
/// with helpText filled. Throws std::runtime_error naming the option, or the file and line.
PathsampleRunConfig parsePathsampleCommandLine(const std::vector<std::string>& arguments);

/// The contents of docs/pathsample-options.md: the options and pathdata keywords as Markdown.
std::string pathsampleOptionsMarkdown();

}  // namespace landscape
