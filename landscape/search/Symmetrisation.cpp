#include "landscape/search/Symmetrisation.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "landscape/core/Require.h"
#include "landscape/geometry/CsmSymmetrisation.h"

namespace landscape {

void SymmetrisationParams::check() const {
  if (!on()) return;
  require(interval >= 1, "the symmetrisation interval (NSYMINTERVAL) must be >= 1");
  if (scheme == Scheme::CoreCompletion) {
    core.check();
    require(std::isfinite(matrixDifference) && matrixDifference >= 0.0,
            "SYMMETRISE's MATDIFF must be finite and >= 0");
    return;
  }
  require(csmGroup == "CI",
          "SYMMETRISECSM point group '" + csmGroup +
              "' is not implemented; CI (inversion through the centroid) is");
  require(std::isfinite(csmEpsilon) && csmEpsilon >= 0.0, "CSMEPS must be finite and >= 0");
  require(csmSteps >= 0, "CSMSTEPS must be >= 0");
  require(csmQuenches >= 1, "CSMQUENCHES must be >= 1");
  require(csmMaxIterations >= 0, "CSMMAXIT must be >= 0");
}

Symmetrisation::Symmetrisation(const SymmetrisationParams& params, double ediff)
    : m_params(params), m_ediff(ediff) {}

bool Symmetrisation::due(long step, double markovEnergy) const {
  if (!on() || m_state.ordinaryStepOwed || !std::isfinite(markovEnergy)) return false;
  if ((step - 1) % m_params.interval != 0) return false;
  if (m_params.scheme == SymmetrisationParams::Scheme::Csm) return true;
  // NaN (no attempt yet) compares false, so the first Markov minimum is tried.
  return !(std::fabs(markovEnergy - m_state.lastAttemptEnergy) <= m_ediff);
}

bool Symmetrisation::prepare(long step, const std::vector<double>& markov, double markovEnergy,
                             const std::vector<double>& atomEnergies) {
  if (m_state.inEpisode()) return true;
  if (!due(step, markovEnergy)) return false;
  m_state.lastAttemptEnergy = markovEnergy;
  m_state.quenched = 0;
  m_state.bestEnergy = std::numeric_limits<double>::infinity();
  m_state.best.clear();
  char text[160];
  if (m_params.scheme == SymmetrisationParams::Scheme::Csm) {
    const CsmSymmetrisation s = symmetriseByInversion(markov);
    m_state.candidates = {s.average};
    m_state.downhillStepsLeft = m_params.csmQuenches - 1;
    std::snprintf(text, sizeof text, "Ci CSM %.4g%s", s.csm,
                  s.csm < m_params.csmEpsilon ? " (symmetric)" : "");
  } else {
    CoreSymmetryCompletion c = completeCoreSymmetry(markov, atomEnergies, m_params.core);
    m_state.candidates = std::move(c.candidates);
    m_state.downhillStepsLeft = 0;
    std::snprintf(text, sizeof text, "core of %d atoms with %s symmetry, %d holes", c.coreAtoms,
                  c.pointGroup.c_str(), c.holes);
  }
  m_state.detail = text;
  return m_state.inEpisode();
}

std::vector<double> Symmetrisation::candidate(const ClusterStepTaker& stepTaker, double stepSize,
                                              Random& random) const {
  if (!m_state.candidates.empty()) return m_state.candidates.front();
  if (m_state.downhillStepsLeft <= 0 || m_state.best.empty())
    throw std::logic_error("symmetrisation: no candidate to quench");
  std::vector<double> x = m_state.best;
  stepTaker.takeStep(x, stepSize, {}, random);  // angular moves off, as GMIN's CSM relaxation
  return x;
}

void Symmetrisation::record(double energy, std::vector<double> x, bool valid) {
  if (!m_state.candidates.empty())
    m_state.candidates.erase(m_state.candidates.begin());
  else if (m_state.downhillStepsLeft > 0)
    --m_state.downhillStepsLeft;
  ++m_state.quenched;
  if (valid && energy < m_state.bestEnergy) {
    m_state.bestEnergy = energy;
    m_state.best = std::move(x);
  }
  // Downhill steps need a minimum to start from.
  if (m_state.candidates.empty() && m_state.best.empty()) m_state.downhillStepsLeft = 0;
}

bool Symmetrisation::episodeOver(bool targetReached) const {
  return targetReached || !m_state.inEpisode();
}

SymmetrisationReport Symmetrisation::finishEpisode(long quench, std::vector<double>& markov,
                                                   double& markovEnergy) {
  SymmetrisationReport r;
  r.quench = quench;
  r.scheme = m_params.scheme == SymmetrisationParams::Scheme::Csm ? "SYMMETRISECSM" : "SYMMETRISE";
  r.detail = m_state.detail;
  r.candidates = m_state.quenched;
  r.bestEnergy = m_state.bestEnergy;
  r.changedMarkov = !m_state.best.empty() && m_state.bestEnergy < markovEnergy - m_ediff;
  if (r.changedMarkov) {
    markov = std::move(m_state.best);
    markovEnergy = m_state.bestEnergy;
  }
  r.markovEnergy = markovEnergy;
  m_state.candidates.clear();
  m_state.downhillStepsLeft = 0;
  m_state.best.clear();
  m_state.bestEnergy = std::numeric_limits<double>::infinity();
  m_state.quenched = 0;
  m_state.ordinaryStepOwed = true;
  return r;
}

void Symmetrisation::restore(const State& state) {
  if (!on() && (state.inEpisode() || state.ordinaryStepOwed))
    throw std::invalid_argument("the checkpoint holds a symmetrisation episode, but the run has "
                                "no SYMMETRISE or SYMMETRISECSM");
  m_state = state;
}

}  // namespace landscape
