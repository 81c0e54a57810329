#pragma once
// What the `pathsample` program is asked to do, PathsampleConfig. The option table of
// PathsampleOptions.cpp fills it from the command line, the --config file and the PATHSAMPLE
// `pathdata` keyword file.
#include <limits>
#include <string>
#include <vector>

#include "backends/LbfgsWorkspaceFactory.h"
#include "potentials/Potential.h"
#include "landscape/core/Precision.h"

namespace landscape {

struct PathsampleConfig {
  enum class Action { Run, Help, Version };
  Action action = Action::Run;
  std::string helpText;
  std::vector<std::string> warnings;  ///< pathdata keywords accepted but ignored

  std::string mode;  ///< import, export, rates, committors, regroup or grow
  std::string database = "network.h5";   ///< --database FILE: the HDF5 network
  std::string directory = ".";           ///< --directory DIR: PATHSAMPLE files (in or out)
  std::string pathdataFile;              ///< --pathdata FILE
  std::vector<double> temperatures = {0.1};  ///< --temperature T[,T2...]: kT, or K (molecular)
  std::string units = "reduced";         ///< --units reduced|molecular
  double regroupThreshold = 0.0;         ///< --regroup-threshold DF (energy unit)
  bool regrouped = false;                ///< --regrouped: rates between free-energy groups
  /// --planck H: Planck's constant in the energy unit x the time unit of the reported rates
  /// (PATHSAMPLE's PLANCK); 0 = the default: kPlanckKcalPerMolSecond with --units molecular, and
  /// for reduced units no kT ln(kT/h) term in transition-state free energies.
  double planck = 0.0;
  /// --direction AB|BA (PATHSAMPLE's DIRECTION): AB, A is the product (committors to A, growth
  /// towards A); BA, B is.
  std::string direction = "AB";

  // Growth (mode grow; docs/pathsample.md).
  int cycles = 0;                          ///< --cycles N (CYCLES)
  std::string pairSelection = "untrap";    ///< --pair-selection untrap|shortcut|dijkstra
  double untrapIncrement = 0.0;            ///< --untrap-increment (UNTRAP einc)
  double untrapThreshold = 0.0;            ///< --untrap-threshold (UNTRAP ethresh)
  double untrapDeltaMin = std::numeric_limits<double>::min();   ///< (UNTRAP edeltamin)
  double untrapLowBarrier = std::numeric_limits<double>::min();  ///< (UNTRAP elowbar)
  double untrapHighBarrier = std::numeric_limits<double>::max();  ///< (UNTRAP ehighbar)
  int shortcutSteps = 1;                   ///< --shortcut-steps N (SHORTCUT n)
  std::string shortcutBy = "distance";     ///< --shortcut-by distance|barrier (SHORTCUT n BARRIER)
  double dijkstraPower = 1.0;              ///< --dijkstra-power P (pair selection DIJPAIR)
  int pairsPerCycle = 1;                   ///< --pairs-per-cycle N (CPUS)
  int threads = 1;                         ///< --threads N (per MPI rank)
  Backend backend = Backend::Cpu;          ///< --backend cpu|cuda: the connect runs' potential
  LbfgsBackend lbfgsBackend = LbfgsBackend::Cpu;  ///< --lbfgs-backend cpu|gpu
  Precision precision = Precision::Double;  ///< --precision: CUDA AMBER-GB arithmetic
  double rankTimeout = 0.0;                ///< --rank-timeout S (seconds; under mpirun)
  int listSize = 1000;                     ///< --pair-list-size N
  std::string odataFile;                   ///< --odata FILE: connect settings (odata.connect)
  std::string prmtopFile;                  ///< --prmtop FILE: molecules (AMBER-GB)
  std::string outputDir = "pathsample-out";  ///< --output DIR: DIR/network.h5 of the growth run
  std::string resumeDir;                   ///< --resume DIR: continue the growth run in DIR
  long long seed = 1;                      ///< --seed N (SEED)
};

}  // namespace landscape
