#pragma once
// Settings of GMIN-style basin-hopping. Energies and temperatures (kT) are in the potential's
// energy unit (GMIN's convention); lengths in its length unit. The GMIN keyword that sets each
// field is given in brackets (docs/gmin-keywords.md has the full table).
#include <cstdint>
#include <limits>
#include <optional>

#include "landscape/minimisation/LbfgsParams.h"
#include "landscape/search/SymmetrisationParams.h"

namespace landscape {

struct BasinHoppingParams {
  long steps = 5000;               ///< [STEPS] basin-hopping steps (quenches after the first)
  double temperature = 1.0;        ///< [TEMPERATURE] Metropolis kT (energy)
  double stepSize = 0.4;           ///< [STEP 1st] max Cartesian displacement per coordinate
  double angularThreshold = 0.0;   ///< [STEP 2nd] ASTEP: angular move of the most weakly bound
                                   ///< atom when its energy > ASTEP * (lowest atom energy); 0 = off
  int stepAdjustInterval = 50;     ///< [NACCEPT] quenches between step-size adjustments
  double targetAcceptance = 0.5;   ///< [ACCRAT] acceptance ratio the step size is tuned toward
  double stepAdjustFactor = 1.05;  ///< step size multiplied/divided by this
  bool fixedStep = false;          ///< [FIXBOTH] keep stepSize: no adjustment toward ACCRAT
  int saveCount = 10;              ///< [SAVE] number of lowest distinct minima kept
  double energyDifference = 0.02;  ///< [EDIFF] minima closer in energy than this are the same
  double sloppyRms = 1e-3;         ///< [SLOPPYCONV] RMS gradient for quenches during the run
  int sloppyMaxIterations = 1000;  ///< [MAXIT 1st] L-BFGS cap during the run
  double tightRms = 1e-5;  ///< [TIGHTCONV] RMS gradient for the final re-quench of saved minima
  int tightMaxIterations = 1000;  ///< [MAXIT 2nd] L-BFGS cap for the tight re-quench
  bool centre = true;             ///< [CENTRE] remove the centre of mass after every step
  double containerRadius = 0.0;   ///< [RADIUS] spherical container radius; 0 = GMIN's default
                                  ///< 2 + (3 N / 17.77153175)^(1/3) for clusters
  bool container = true;          ///< false for molecules: no container, no evaporation check
  int newRestartSteps = 0;        ///< [NEWRESTART] restart after more than this many quenches
                                  ///< without lowering the chain's best energy by EDIFF; 0 = off
  double avoidDistance = 0.0;     ///< [AVOID 1st] taboo when a new chain best is within this
                                  ///< permutational distance of a saved structure; 0 = off
  int avoidMaxSaved = 0;          ///< [AVOID 2nd] taboo list length (most recent kept)
  bool avoidReseeds = true;       ///< [AVOID 3rd] T (GMIN's default): restarts reseed from a
                                  ///< random structure; F: the step is rejected instead
  /// Walkers only (WalkerEnsemble): at most this many walkers may hold one minimum (Markov
  /// energies within EDIFF) at the end of a round; the others, highest index first, are reseeded
  /// from random structures, so that the walkers cannot all collapse into one funnel. 0 = no
  /// limit.
  int crowdLimit = 0;
  std::optional<double> targetEnergy;  ///< [TARGET] stop once a minimum at or below this is found
  std::uint64_t seed = 1;              ///< [SEED] random seed; the same seed gives the same run
  int dumpInterval = 0;  ///< [DUMPINT] quenches between checkpoints of the results; 0 = end only
  /// Cold-fusion guard (energy): a quench that ends more than this below the lowest saved minimum
  /// is a failed minimisation (an AMBER hydrogen fallen into an unshielded charge, energies of
  /// -1e18), rejected and counted like a quench that ended with a non-finite energy or gradient or
  /// at the iteration cap. Relative, as OPTIM's DNEB guard; infinity = off.
  double coldFusionDrop = 1.0e4;
  LbfgsParams lbfgs;  ///< history size, max step, max rise for every quench
  /// [SYMMETRISE, SYMMETRISECSM] symmetry-adapted moves (Symmetrisation.h); off by default
  SymmetrisationParams symmetrisation;

  void check() const;
};

/// The basin-hopping settings of GMIN's LJ38 example (wales-group/examples, LJ38 `data`):
/// SLOPPYCONV 5.0D-3, TIGHTCONV 1.0D-3, EDIFF 0.003, MAXIT 600 500, SAVE 2, CENTRE, DUMPINT 6000,
/// TEMPERATURE 1.0, STEPS 5000 1.0, STEP 0.40 0.51, NEWRESTART 40, AVOID 4.0 20 F; everything
/// else at the BasinHoppingParams defaults. Built in code: the `gmin` command never reads the
/// example file. The `gmin` command's defaults for clusters (and Python's basin_hopping without
/// params); BasinHoppingParams{} holds the generic defaults.
BasinHoppingParams gminLj38ExampleParams();

/// The `gmin` command's defaults for a molecule (AMBER-GB or SOP without --gmin-data; Python's
/// basin_hopping on such a potential without params), in kcal/mol and Angstrom: kT 0.6
/// (about 300 K), Cartesian steps up to 0.3 A, no container, angular moves or NEWRESTART, SAVE 10,
/// EDIFF 0.01, quenches to RMS 0.01 (tight re-quench 1e-4), 100 steps.
BasinHoppingParams gminAmberDefaultParams();

/// gmin's defaults for rigid water clusters (kJ/mol, Angstrom), after GMIN's TIP4P example input
/// (pele-python/pele playground/gmin_tip4p: SLOPPYCONV 0.1, MAXBFGS 0.5, EDIFF 0.01, CENTRE) but
/// at kT 4 kJ/mol (its 8 found the (H2O)20 global minimum less often on an H200;
/// docs/benchmarks.md): no Cartesian step (the moves are the rigid bodies'), quenches to RMS 0.1
/// kJ/mol/A, the saved minima to 1e-4, no container.
BasinHoppingParams gminWaterDefaultParams();

}  // namespace landscape
