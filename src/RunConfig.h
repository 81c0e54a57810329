#pragma once
// Command line and config files of the executables -> parameter structs. This is the only code
// that knows Boost.Program_options exists (DESIGN.md).
#include <optional>
#include <string>
#include <vector>

#include "landscape/BasinHoppingParams.h"
#include "potentials/Potential.h"

namespace landscape {

/// What `gmin` was asked to do, fully resolved (defaults applied, files read, params checked).
struct GminRunConfig {
  enum class Action { Run, Help, Version };
  Action action = Action::Run;
  std::string helpText;             ///< filled for Action::Help

  // System: a Lennard-Jones cluster (reduced units).
  std::size_t ljAtoms = 38;         ///< --lj N (default LJ38 when nothing else is given)
  std::string coordsFile;           ///< --coords FILE (xyz or GMIN's bare 3-column coords); empty =
                                    ///< random start inside the container, drawn from the seed
  Backend backend = Backend::Cpu;   ///< --backend cpu|cuda

  BasinHoppingParams basinHopping;  ///< defaults = GMIN's LJ38 example (shared/data/lj38/gmin/data)
  std::string outputDir = "gmin-out";  ///< --output DIR
  bool quiet = false;               ///< --quiet: only the final "lowest energy:" line
  std::vector<std::string> warnings;   ///< e.g. GMIN keywords accepted but ignored
};

/// Parses argv. Throws std::runtime_error with a one-line message (file, line, option) on bad
/// input; never exits.
GminRunConfig parseGminCommandLine(int argc, const char* const argv[]);

}  // namespace landscape
