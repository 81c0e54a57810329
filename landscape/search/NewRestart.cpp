#include "landscape/search/NewRestart.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "landscape/geometry/Alignment.h"

namespace landscape {

NewRestart::NewRestart(const BasinHoppingParams& params, Distance distance)
    : m_relax(params.newRestartSteps),
      m_avoidDistance(params.avoidDistance),
      m_maxSaved(static_cast<std::size_t>(params.avoidMaxSaved)),
      m_reseeds(params.avoidReseeds),
      m_ediff(params.energyDifference),
      m_distance(std::move(distance)) {}

NewRestart::State NewRestart::state() const {
  return {m_best,         m_previousBest,  m_bestCoords, m_previousBestCoords,
          m_bestStep,     m_tabooEnergies, m_tabooCoords, m_tabooNext};
}

void NewRestart::restore(const State& s) {
  if (s.tabooEnergies.size() != s.tabooCoords.size() || s.tabooCoords.size() > m_maxSaved ||
      (m_maxSaved > 0 && s.tabooNext >= m_maxSaved) || (m_maxSaved == 0 && s.tabooNext != 0)) {
    throw std::invalid_argument("NEWRESTART state: taboo list of " +
                                std::to_string(s.tabooCoords.size()) + " entries at position " +
                                std::to_string(s.tabooNext) + " does not fit AVOID's length " +
                                std::to_string(m_maxSaved));
  }
  m_best = s.best;
  m_previousBest = s.previousBest;
  m_bestCoords = s.bestCoords;
  m_previousBestCoords = s.previousBestCoords;
  m_bestStep = s.bestStep;
  m_tabooEnergies = s.tabooEnergies;
  m_tabooCoords = s.tabooCoords;
  m_tabooNext = s.tabooNext;
}

void NewRestart::startChain(long step, double energy, const std::vector<double>& x) {
  m_best = m_previousBest = energy;
  m_bestCoords = m_previousBestCoords = x;
  m_bestStep = step;
}

void NewRestart::addTaboo(double energy, const std::vector<double>& x) {
  if (m_avoidDistance <= 0.0 || m_maxSaved == 0) return;
  if (m_tabooCoords.size() < m_maxSaved) {
    m_tabooEnergies.push_back(energy);
    m_tabooCoords.push_back(x);
  } else {
    m_tabooEnergies[m_tabooNext] = energy;
    m_tabooCoords[m_tabooNext] = x;
  }
  m_tabooNext = (m_tabooNext + 1) % m_maxSaved;
}

NewRestart::Decision NewRestart::afterQuench(long step, double energy,
                                             const std::vector<double>& x) {
  Decision d;
  if (m_relax <= 0) return d;  // GMIN runs NEWRES only under NEWRESTART
  if (energy < m_best) {
    if (m_best - energy > m_ediff) m_bestStep = step;
    m_previousBest = m_best;
    m_previousBestCoords = m_bestCoords;
    m_best = energy;
    m_bestCoords = x;
  }
  d.chainBestEnergy = m_best;
  const bool noImprovement = step - m_bestStep > m_relax;
  bool taboo = false;
  double distance = 0.0;
  if (!noImprovement && m_avoidDistance > 0.0 && step == m_bestStep) {
    for (std::size_t i = 0; i < m_tabooCoords.size() && !taboo; ++i) {
      if (energy < m_tabooEnergies[i] - m_ediff) continue;  // clearly lower: never taboo
      distance =
          m_distance ? m_distance(x, m_tabooCoords[i]) : minimumDistance(x, m_tabooCoords[i]);
      taboo = distance < m_avoidDistance;
    }
  }
  if (!noImprovement && !taboo) return d;
  d.reason = taboo ? Reason::Taboo : Reason::NoImprovement;
  if (taboo && !m_reseeds) {
    d.action = Action::Reject;
    return d;
  }
  // The structure that caused the restart joins the taboo list; when it is the taboo structure
  // itself (distance ~0), the previous chain best goes in instead.
  if (noImprovement || distance > 0.1) {
    addTaboo(m_best, m_bestCoords);
  } else if (distance <= 0.01) {
    addTaboo(m_previousBest, m_previousBestCoords);
  }
  if (!m_reseeds) {
    m_bestStep = step;
    m_best = energy;
    m_bestCoords = x;
    d.action = Action::Reject;
    return d;
  }
  d.action = Action::Reseed;
  return d;
}

}  // namespace landscape
