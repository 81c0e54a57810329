#pragma once
// Command line and config file of the `sop` executable (SOP Langevin dynamics, pulling and
// indentation; issue 8) -> SopConfig, through the option table of SopConfig.cpp
// (OptionTable.h).
#include <string>
#include <vector>

#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/CheckpointFile.h"
#include "potentials/Potential.h"
#include "potentials/SopTopology.h"

namespace landscape {

struct SopConfig {
  enum class Action { Run, Help, Version };
  Action action = Action::Run;
  std::string helpText;

  std::string pdbFile;                   ///< --pdb FILE (required)
  SopParams sop;                         ///< eq B1 parameters (kcal/mol, A)
  SopDynamicsParams dynamics;            ///< Langevin, replicas, lists, protocol
  Backend backend = Backend::Cpu;        ///< --backend cpu|cuda
  long steps = 100000;                   ///< --steps N
  long outputInterval = 1000;            ///< --output-interval N: a curve line every N steps
  long frameInterval = 0;                ///< --frame-interval N: a frame every N steps (0 = none)
  std::string trajectoryFormat = "pdb";  ///< --trajectory-format pdb|dcd
  double qTolerance = 2.0;               ///< --q-tolerance A: a contact is formed at r < r0 + this
  std::string outputDir = "sop-out";
  std::string resumeDir;  ///< --resume DIR: continue the run saved in DIR (its --output)
  bool quiet = false;
};

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
