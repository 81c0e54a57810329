#pragma once
// GMIN's NEWRESTART and AVOID logic (GMIN subroutine NEWRES), applied after every quench:
//  - the chain's best energy EBEST and its structure are updated by every quench that lowers it
//    (accepted or not); the "improvement step" JBEST moves only when the drop exceeds EDIFF;
//  - no improvement for more than newRestartSteps quenches: EBEST's structure joins the taboo
//    list (cyclic, avoidMaxSaved long) and the chain is reseeded from a random structure (AVOID
//    third field T, GMIN's default) or, with F, the step is rejected and EBEST restarts from it;
//  - when EBEST has just improved, it is compared (minimum permutational distance) with every
//    taboo structure not lower in energy by more than EDIFF; closer than avoidDistance triggers a
//    reseed (T) or rejects the step (F).
#include <cstddef>
#include <functional>
#include <vector>

#include "landscape/search/BasinHoppingParams.h"

namespace landscape {

class NewRestart {
 public:
  enum class Action {
    None,    ///< carry on with the Metropolis test
    Reject,  ///< reject this step (taboo, or no improvement with AVOID ... F)
    Reseed,  ///< abandon the chain: quench a random structure and make it the Markov state
  };
  /// Crowded: another walker holds the same minimum (BasinHoppingParams::crowdLimit; decided by
  /// the walker ensemble, not here).
  enum class Reason { NoImprovement, Taboo, Crowded };
  struct Decision {
    Action action = Action::None;
    Reason reason = Reason::NoImprovement;
    double chainBestEnergy = 0.0;  ///< EBEST when the decision was taken
  };

  /// Everything that changes during a run, for checkpoints (BasinHoppingState).
  struct State {
    double best = 0.0, previousBest = 0.0;  ///< EBEST and the one before it
    std::vector<double> bestCoords, previousBestCoords;
    long bestStep = 0;  ///< JBEST: last quench that improved by > EDIFF
    std::vector<double> tabooEnergies;
    std::vector<std::vector<double>> tabooCoords;
    std::size_t tabooNext = 0;  ///< cyclic write position in the taboo list
  };

  /// The distance between two structures (AVOID's test).
  using Distance = std::function<double(const std::vector<double>&, const std::vector<double>&)>;

  /// `distance`: how AVOID measures a chain best against the taboo structures; empty:
  /// minimumDistance() of a cluster of identical atoms (Alignment.h).
  explicit NewRestart(const BasinHoppingParams& params, Distance distance = {});

  State state() const;
  /// Restores a state(); throws std::invalid_argument when the taboo list does not fit the
  /// params (more entries than AVOID's list length, or a position outside it).
  void restore(const State& state);

  /// Starts a new chain at quench `step` from the quenched structure x of energy e.
  void startChain(long step, double energy, const std::vector<double>& x);
  /// The decision after quench `step` found x with energy e.
  Decision afterQuench(long step, double energy, const std::vector<double>& x);
  std::size_t tabooSize() const { return m_tabooEnergies.size(); }

 private:
  void addTaboo(double energy, const std::vector<double>& x);

  long m_relax;
  double m_avoidDistance;
  std::size_t m_maxSaved;
  bool m_reseeds;
  double m_ediff;
  Distance m_distance;
  double m_best = 0.0, m_previousBest = 0.0;
  std::vector<double> m_bestCoords, m_previousBestCoords;
  long m_bestStep = 0;
  std::vector<double> m_tabooEnergies;
  std::vector<std::vector<double>> m_tabooCoords;
  std::size_t m_tabooNext = 0;  // cyclic position
};

}  // namespace landscape
