#pragma once
// The option table of `gmin`: every command-line option, with its unit, bounds, default and help,
// and every GMIN `data` keyword with the options its fields set (docs/gmin-keywords.md is its
// rendering). parseGminCommandLine reads the command line through it, GminDataFile.cpp the data
// files.
#include <string>
#include <vector>

#include "landscape/formats/CheckpointFile.h"
#include "src/common/OptionTable.h"
#include "src/gmin/GminConfig.h"

namespace landscape {

const OptionTable<GminConfig>& gminOptionTable();

/// Parses argv (argv[0] is the program name). Sources, highest precedence first: the command
/// line, the `--config FILE` INI file (`key = value` with the long option names, `#` comments),
/// the `--gmin-data FILE` GMIN keyword file (which replaces the built-in defaults by GMIN's
/// keyword defaults, see gminKeywordDefaults() in GminDataFile.h), the built-in defaults
/// (GminConfig{}: LJ38, GMIN's LJ38 example settings). The resulting parameters are checked.
/// `--help` and `--version` return at once with helpText filled. Throws std::runtime_error with
/// a one-line message naming the option, or the file and line, on bad input; never exits, never
/// prints.
GminConfig parseGminCommandLine(int argc, const char* const argv[]);

/// Convenience for tests and tools: the same with the arguments after the program name.
GminConfig parseGminCommandLine(const std::vector<std::string>& arguments);

/// The long names of every option `gmin` accepts (without "--"), in the order of --help.
std::vector<std::string> gminOptionNames();

/// What a gmin checkpoint records about the run besides its options.
struct GminRunFacts {
  std::size_t atoms = 0;
  std::string potential;  ///< Potential::name()
  std::size_t dimension = 0;
  double containerRadiusUsed = 0.0;
  std::string pairModel;  ///< pairModelFingerprint() of a pair system; empty otherwise
};

/// What a resumed run must share with the original (docs/database.md): the facts, the
/// basin-hopping settings that no option sets, and every option of the table that changes the
/// search and is in effect for this run (AMBER's only with --prmtop, SOP's only with --sop-pdb).
CheckpointFingerprint gminCheckpointFingerprint(const GminConfig& config,
                                                const GminRunFacts& facts);

/// checkFingerprint() for a gmin checkpoint of any version: the saved fingerprint is first put in
/// today's terms (OptionTable::upgradeFingerprint), so that checkpoints of earlier versions still
/// resume. Throws std::runtime_error naming `path` and the first difference.
void checkGminCheckpoint(const std::string& path, const CheckpointFingerprint& saved,
                         const CheckpointFingerprint& current, const GminConfig& config);

}  // namespace landscape
