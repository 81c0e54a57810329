#pragma once
// What the `sop` executable (SOP Langevin dynamics, pulling and indentation) is asked to do,
// SopConfig. The option table of SopOptions.cpp fills it from the command line and the config
// file.
#include <string>
#include <vector>

#include "landscape/dynamics/SopDynamics.h"
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

}  // namespace landscape
