#include "landscape/search/ParallelTempering.h"

#include <cmath>
#include <stdexcept>

namespace landscape {

void ParallelTemperingParams::check() const {
  if (!(minTemperature > 0.0) || !std::isfinite(maxTemperature) || maxTemperature < minTemperature)
    throw std::invalid_argument("parallel tempering needs 0 < minimum temperature <= maximum");
  if (interval < 1) throw std::invalid_argument("parallel tempering needs an exchange interval >= 1");
}

std::vector<double> temperatureLadder(int replicas, double minTemperature, double maxTemperature) {
  if (replicas < 1) throw std::invalid_argument("a temperature ladder needs at least one replica");
  std::vector<double> t(static_cast<std::size_t>(replicas), minTemperature);
  const double ratio = maxTemperature / minTemperature;
  for (int i = 1; i < replicas; ++i)
    t[static_cast<std::size_t>(i)] =
        minTemperature * std::pow(ratio, static_cast<double>(i) / (replicas - 1));
  return t;
}

bool exchangeAccepted(double ei, double ti, double ej, double tj, Random& random) {
  const double exponent = (1.0 / ti - 1.0 / tj) * (ei - ej);
  if (std::isnan(exponent)) return false;
  if (exponent >= 0.0) return true;
  return random.uniform() < std::exp(exponent);
}

ReplicaExchange::ReplicaExchange(std::vector<double> temperatures, std::uint64_t seed)
    : m_temperatures(std::move(temperatures)),
      m_random(streamSeed(seed, kStream)),
      m_attempts(m_temperatures.empty() ? 0 : m_temperatures.size() - 1, 0),
      m_accepted(m_attempts.size(), 0) {
  if (m_temperatures.empty()) throw std::invalid_argument("replica exchange needs replicas");
}

void ReplicaExchange::exchange(const std::vector<double>& energy,
                               const std::function<void(int, int)>& swap) {
  const std::size_t first = static_cast<std::size_t>(m_events % 2);
  ++m_events;
  for (std::size_t i = first; i + 1 < m_temperatures.size(); i += 2) {
    ++m_attempts[i];
    if (!exchangeAccepted(energy[i], m_temperatures[i], energy[i + 1], m_temperatures[i + 1],
                          m_random))
      continue;
    ++m_accepted[i];
    swap(static_cast<int>(i), static_cast<int>(i + 1));
  }
}

ReplicaExchange::State ReplicaExchange::state() const {
  return {m_events, m_random.state(), m_attempts, m_accepted};
}

void ReplicaExchange::restore(const State& state) {
  if (state.attempts.size() != m_attempts.size() || state.accepted.size() != m_accepted.size() ||
      state.events < 0)
    throw std::invalid_argument("replica-exchange state: " + std::to_string(state.attempts.size()) +
                                " pairs, this run has " + std::to_string(m_attempts.size()));
  m_events = state.events;
  m_random.restore(state.random);
  m_attempts = state.attempts;
  m_accepted = state.accepted;
}

}  // namespace landscape
