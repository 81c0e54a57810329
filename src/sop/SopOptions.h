#pragma once
// The option table of `sop`: every command-line option, with its unit, bounds, default and help
// (docs/sop-options.md is its rendering), and the parse of the command line and the config file
// through it (OptionTable.h).
#include <string>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "src/common/OptionTable.h"
#include "src/sop/SopConfig.h"

namespace landscape {

const OptionTable<SopConfig>& sopOptionTable();

/// Parses argv (argv[0] is the program name); sources, highest precedence first: the command line,
/// `--config FILE` (INI, long option names). `--help`, `--help-markdown` and `--version` return at
/// once with helpText filled. Throws std::runtime_error naming the option, or the file and line.
SopConfig parseSopCommandLine(int argc, const char* const argv[]);
SopConfig parseSopCommandLine(const std::vector<std::string>& arguments);

/// The options a resumed run must share with the one that wrote sop.checkpoint: all but --pdb
/// (whose contents the checkpoint's digest checks), --steps, --output, --resume, --quiet and
/// --cuda-graph-steps and --cuda-persistent-steps.
CheckpointFingerprint sopFingerprint(const SopConfig& config);

/// The contents of docs/sop-options.md: the options as Markdown tables.
std::string sopOptionsMarkdown();

}  // namespace landscape
