#pragma once
// Everything a basin-hopping run carries from one quench to the next: with it, BasinHopping::run
// continues an interrupted run and produces the same quenches, bit for bit, as a run that was
// never stopped (`gmin --resume`, landscape/formats/CheckpointFile.h writes it to disk).
#include <string>
#include <vector>

#include "landscape/network/StoredMinimum.h"
#include "landscape/search/NewRestart.h"
#include "landscape/search/Symmetrisation.h"

namespace landscape {

struct BasinHoppingState {
  long quench = 0;                  ///< basin-hopping steps done (the last quench number)
  std::vector<double> markov;       ///< current Markov-chain coordinates (quenched, centred)
  double markovEnergy = 0.0;        ///< its energy (potential's unit)
  double stepSize = 0.0;            ///< current adapted step size (length unit)
  long acceptedInWindow = 0;        ///< accepted steps since the last step-size adjustment
  /// Ordinary steps since the last step-size adjustment (symmetrisation quenches are not
  /// counted); -1: quench modulo the adjustment interval (checkpoints written before it existed).
  long stepsInWindow = -1;
  long functionCalls = 0;           ///< energy + gradient evaluations so far
  long restarts = 0;                ///< reseeds so far
  long failedQuenches = 0;          ///< quenches whose minimiser failed, so far
  bool targetReached = false;
  long targetQuench = -1;
  long targetFunctionCalls = -1;
  std::string random;               ///< Random::state() after the last quench
  NewRestart::State newRestart;     ///< NEWRESTART / AVOID: chain best, taboo list
  Symmetrisation::State symmetrisation;  ///< SYMMETRISE / SYMMETRISECSM episode under way
  /// The saved lowest minima as the run holds them (sloppy quenches, before the final tight
  /// re-quench), so that the resumed run re-quenches exactly what an uninterrupted run would.
  std::vector<StoredMinimum> lowest;
  /// A NEWRESTART reseed that a stop request cut short in its quench: the random structure it
  /// quenches (empty: none pending) and the decision that called for it, so that the resumed run
  /// quenches it before its next step and continues exactly as the run never stopped.
  std::vector<double> pendingReseedStart;
  NewRestart::Decision pendingReseed;
};

}  // namespace landscape
