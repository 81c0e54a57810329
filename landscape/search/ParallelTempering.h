#pragma once
// Basin-hopping parallel tempering (GMIN's BHPT): the walkers of a WalkerEnsemble become replicas
// at exponentially spaced temperatures T_i = Tmin (Tmax / Tmin)^(i / (W - 1)), walker 0 the
// coldest, and every `interval` steps adjacent replicas try to swap their Markov states by the
// standard replica-exchange criterion: accept with probability
//   min(1, exp[(1/kT_i - 1/kT_j) (E_i - E_j)]),
// E the quenched Markov energies. Exchanges alternate between the even pairs (0,1), (2,3), ... and
// the odd pairs (1,2), (3,4), ...; configurations move, temperatures and step sizes stay with the
// replica. The random numbers come from a stream of their own, so the walkers' streams are the
// same with and without exchanges.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "landscape/core/Random.h"

namespace landscape {

struct ParallelTemperingParams {
  bool enabled = false;         ///< [BHPT]
  double minTemperature = 0.8;  ///< [PTTMIN] kT of walker 0 (energy unit)
  double maxTemperature = 2.0;  ///< [PTTMAX] kT of walker W - 1 (energy unit)
  int interval = 10;            ///< [BHPT 1st] steps between exchange attempts

  /// Throws std::invalid_argument unless 0 < Tmin <= Tmax (finite) and interval >= 1.
  void check() const;
};

/// kT of replica i of `replicas` (exponential spacing; one replica sits at Tmin).
std::vector<double> temperatureLadder(int replicas, double minTemperature, double maxTemperature);

/// The replica-exchange test for replicas at kT ti and tj with Markov energies ei and ej: draws a
/// random number only when the swap is uphill in the criterion; a pair whose exponent is not a
/// number (both energies +infinity, failed quenches) is never swapped.
bool exchangeAccepted(double ei, double ti, double ej, double tj, Random& random);

class ReplicaExchange {
 public:
  /// Everything that changes during a run, for checkpoints.
  struct State {
    long events = 0;              ///< exchange rounds so far (their parity picks the pairs)
    std::string random;           ///< Random::state()
    std::vector<long> attempts;   ///< per pair (i, i + 1)
    std::vector<long> accepted;
  };

  /// `replicas` >= 1 at `temperatures`; random numbers from streamSeed(seed, kStream).
  ReplicaExchange(std::vector<double> temperatures, std::uint64_t seed);

  /// One exchange round: tries every pair (i, i + 1) of this round's parity with the Markov
  /// energies `energy`, calling swap(i, i + 1) for each accepted one (in increasing i).
  void exchange(const std::vector<double>& energy, const std::function<void(int, int)>& swap);

  const std::vector<double>& temperatures() const { return m_temperatures; }
  State state() const;
  /// Throws std::invalid_argument when the counts do not fit the number of replicas.
  void restore(const State& state);

  /// The stream index of the exchange random numbers (far above any walker index).
  static constexpr std::uint64_t kStream = std::uint64_t{1} << 62;

 private:
  std::vector<double> m_temperatures;
  Random m_random;
  long m_events = 0;
  std::vector<long> m_attempts, m_accepted;
};

}  // namespace landscape
