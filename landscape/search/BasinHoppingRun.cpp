#include "landscape/search/BasinHoppingRun.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "landscape/core/StopRequest.h"
#include "landscape/geometry/ClusterGeometry.h"

namespace landscape {

namespace {

// The Markov energy of a structure whose quench failed: the first quench that succeeds replaces it.
constexpr double kFailedEnergy = std::numeric_limits<double>::infinity();

// Random starts keep atoms this far apart (length units) so the first quench does not start
// from the enormous energies of overlapping atoms.
constexpr double kRandomStartSeparation = 0.7;

LbfgsParams quenchParams(const BasinHoppingParams& p, double rms, int maxIterations) {
  LbfgsParams q = p.lbfgs;
  q.rmsTolerance = rms;
  q.maxIterations = maxIterations;
  return q;
}

}  // namespace

BasinHoppingRun::BasinHoppingRun(Potential& potential, const BasinHoppingParams& params,
                                 const BasinHoppingHooks& hooks, double radius,
                                 const LbfgsWorkspaceFactory& workspaceFactory,
                                 BasinHoppingObserver& report)
    : m_potential(potential),
      m_params(params),
      m_hooks(hooks),
      m_radius(radius),
      m_report(report),
      m_random(params.seed),
      m_sloppy(quenchParams(params, params.sloppyRms, params.sloppyMaxIterations)),
      m_tight(quenchParams(params, params.tightRms, params.tightMaxIterations)),
      m_workspace(workspaceFactory(potential, params.lbfgs.historySize)),
      m_lowest(static_cast<std::size_t>(params.saveCount), params.energyDifference),
      m_stepTaker(radius, params.angularThreshold),
      m_newRestart(params),
      m_stepSize(params.stepSize) {}

long BasinHoppingRun::begin(std::vector<double> start) {
  if (start.empty()) start = randomStart();
  if (start.size() != m_potential.dimension()) {
    throw std::invalid_argument("basin-hopping start has " + std::to_string(start.size() / 3) +
                                " atoms, the potential has " +
                                std::to_string(m_potential.atomCount()));
  }
  m_markov = std::move(start);
  const LbfgsResult q = quench(m_markov, m_sloppy);
  if (q.status == LbfgsStatus::Stopped) {  // nothing to continue from: a resume starts afresh
    m_result.stoppedEarly = true;
    m_started = false;
    return 1;
  }
  const std::string failed = countFailure(q);
  m_markovEnergy = failed.empty() ? q.energy : kFailedEnergy;
  if (failed.empty()) m_lowest.offer({q.energy, m_markov, 0, m_result.functionCalls});
  m_report.onQuench({0, q.energy, q.iterations, q.rmsGradient, q.status, m_markovEnergy,
                     failed.empty(), !failed.empty(), failed, false, m_result.functionCalls,
                     !failed.empty(), m_result.failedQuenches});
  refreshAtomEnergies();
  if (failed.empty()) checkTarget(0, q.energy);
  m_newRestart.startChain(0, m_markovEnergy, m_markov);
  return 1;
}

long BasinHoppingRun::restore(const BasinHoppingState& state) {
  m_markov = state.markov;
  m_markovEnergy = state.markovEnergy;
  m_stepSize = state.stepSize;
  m_acceptedInWindow = state.acceptedInWindow;
  m_result.quenches = state.quench;
  m_result.functionCalls = state.functionCalls;
  m_result.restarts = state.restarts;
  m_result.failedQuenches = state.failedQuenches;
  m_result.targetReached = state.targetReached;
  m_result.targetQuench = state.targetQuench;
  m_result.targetFunctionCalls = state.targetFunctionCalls;
  m_random.restore(state.random);
  m_newRestart.restore(state.newRestart);
  // Already distinct and sorted: offering them in order rebuilds the same list.
  for (const StoredMinimum& m : state.lowest) m_lowest.offer(m);
  // The ASTEP atom energies are a function of the Markov state, so they are recomputed.
  refreshAtomEnergies();
  return state.quench + 1;
}

void BasinHoppingRun::step(long step) {
  // A quench ended by a stop request leaves the run as it was before this step (random numbers
  // and counters included), so that a resume repeats the step exactly.
  const Random randomBefore = m_random;
  const long callsBefore = m_result.functionCalls;
  std::vector<double> trial = perturbedMarkovState();
  const LbfgsResult q = quench(trial, m_sloppy);
  if (q.status == LbfgsStatus::Stopped) {
    m_random = randomBefore;
    m_result.functionCalls = callsBefore;
    m_result.stoppedEarly = true;
    return;
  }
  const std::string failed = countFailure(q);
  const std::string whyRejected = failed.empty() ? rejectReason(trial) : failed;
  const bool valid = whyRejected.empty();
  if (valid) m_lowest.offer({q.energy, trial, step, m_result.functionCalls});

  NewRestart::Decision decision;
  if (valid) decision = m_newRestart.afterQuench(step, q.energy, trial);
  const bool restarting = decision.action != NewRestart::Action::None;
  const bool accepted = valid && !restarting && metropolis(q.energy);
  if (accepted) moveMarkovState(std::move(trial), q.energy);
  m_result.quenches = step;
  const bool taboo = restarting && decision.reason == NewRestart::Reason::Taboo;
  m_report.onQuench({step, q.energy, q.iterations, q.rmsGradient, q.status, m_markovEnergy,
                     accepted, !valid, whyRejected, taboo, m_result.functionCalls,
                     !failed.empty(), m_result.failedQuenches});

  if (valid) checkTarget(step, q.energy);
  adjustStepSize(step);
  if (restarting && !m_result.targetReached) restart(step, decision);
  checkpoint(step);
}

BasinHoppingState BasinHoppingRun::state() const {
  BasinHoppingState s;
  s.quench = m_result.quenches;
  s.markov = m_markov;
  s.markovEnergy = m_markovEnergy;
  s.stepSize = m_stepSize;
  s.acceptedInWindow = m_acceptedInWindow;
  s.functionCalls = m_result.functionCalls;
  s.restarts = m_result.restarts;
  s.failedQuenches = m_result.failedQuenches;
  s.targetReached = m_result.targetReached;
  s.targetQuench = m_result.targetQuench;
  s.targetFunctionCalls = m_result.targetFunctionCalls;
  s.random = m_random.state();
  s.newRestart = m_newRestart.state();
  s.lowest = m_lowest.minima();
  return s;
}

// A failed tight re-quench is counted and the minimum kept as the sloppy quench saved it. A stop
// request (a signal, not the observer's stopRequested) ends the re-quench: the minima not yet
// refined are returned as the run saved them.
BasinHoppingResult BasinHoppingRun::finish() {
  std::vector<StoredMinimum> refined = m_lowest.minima();
  for (std::size_t i = 0; i < refined.size() && !stopRequested(); ++i) {
    StoredMinimum& m = refined[i];
    std::vector<double> x = m.coordinates;
    const LbfgsResult q = quench(x, m_tight);
    const bool stopped = q.status == LbfgsStatus::Stopped;
    const std::string failed = stopped ? "" : countFailure(q);
    m_report.onTightQuench({i + 1, refined.size(), m.energy, q.energy, q.iterations,
                            q.rmsGradient, q.status, failed});
    if (stopped) m_result.stoppedEarly = true;
    if (stopped || !failed.empty()) continue;
    m.coordinates = std::move(x);
    m.energy = q.energy;
  }
  m_lowest.replace(std::move(refined));
  m_result.lowest = m_lowest.minima();
  m_result.finalStepSize = m_stepSize;
  return m_result;
}

LbfgsResult BasinHoppingRun::quench(std::vector<double>& x, const Lbfgs& minimizer) {
  m_workspace->setCoordinates(x.data());
  const LbfgsResult r = minimizer.minimize(*m_workspace);
  m_workspace->getCoordinates(x.data());
  m_result.functionCalls += r.functionCalls;
  if (m_params.centre) {
    if (m_hooks.centre)
      m_hooks.centre(x);
    else
      removeCentreOfMass(x);
  }
  return r;
}

std::vector<double> BasinHoppingRun::randomStart() {
  return randomCluster(m_potential.atomCount(), m_radius, kRandomStartSeparation, m_random);
}

std::vector<double> BasinHoppingRun::perturbedMarkovState() {
  std::vector<double> trial = m_markov;
  m_stepTaker.takeStep(trial, m_stepSize, m_atomEnergies, m_random);
  if (m_hooks.extraMove) m_hooks.extraMove(trial, m_random);
  return trial;
}

std::string BasinHoppingRun::failure(const LbfgsResult& q) const {
  char text[200];
  if (q.status == LbfgsStatus::Stopped) return "quench stopped on request";
  if (!std::isfinite(q.energy) || !std::isfinite(q.rmsGradient) ||
      q.status == LbfgsStatus::NonFiniteEnergy)
    return "quench failed: non-finite energy or gradient";
  if (!m_lowest.empty() && q.energy < m_lowest.lowestEnergy() - m_params.coldFusionDrop) {
    std::snprintf(text, sizeof text,
                  "quench failed: energy %.6g is more than %.6g below the lowest minimum %.6g "
                  "(cold fusion)",
                  q.energy, m_params.coldFusionDrop, m_lowest.lowestEnergy());
    return text;
  }
  if (q.status == LbfgsStatus::MaxIterations) {
    std::snprintf(text, sizeof text,
                  "quench failed: RMS gradient %.2E still above the tolerance after %d iterations",
                  q.rmsGradient, q.iterations);
    return text;
  }
  return "";
}

std::string BasinHoppingRun::countFailure(const LbfgsResult& q) {
  std::string failed = failure(q);
  if (!failed.empty()) ++m_result.failedQuenches;
  return failed;
}

std::string BasinHoppingRun::rejectReason(const std::vector<double>& x) const {
  if ((m_hooks.maxRadius ? m_hooks.maxRadius(x) : maxRadius(x)) > m_radius)
    return "an atom left the container";
  if (m_hooks.rejectReason) return m_hooks.rejectReason(x);
  return "";
}

bool BasinHoppingRun::metropolis(double energy) {
  return energy < m_markovEnergy ||
         m_random.uniform() < std::exp(-(energy - m_markovEnergy) / m_params.temperature);
}

void BasinHoppingRun::moveMarkovState(std::vector<double> x, double energy) {
  m_markov = std::move(x);
  m_markovEnergy = energy;
  refreshAtomEnergies();
  ++m_acceptedInWindow;
}

void BasinHoppingRun::refreshAtomEnergies() {
  m_atomEnergies.assign(m_potential.atomCount(), 0.0);
  // No angular move away from a Markov state whose quench failed: its atom energies are no guide.
  if (m_params.angularThreshold <= 0.0 || !std::isfinite(m_markovEnergy) ||
      !m_potential.perAtomEnergies(m_markov.data(), m_atomEnergies.data()))
    m_atomEnergies.clear();
}

void BasinHoppingRun::checkTarget(long step, double energy) {
  // Written as !(e <= target) so that a NaN energy never counts as reaching it.
  if (!m_params.targetEnergy || !(energy <= *m_params.targetEnergy + m_params.energyDifference))
    return;
  m_result.targetReached = true;
  m_result.targetQuench = step;
  m_result.targetFunctionCalls = m_result.functionCalls;
}

void BasinHoppingRun::adjustStepSize(long step) {
  if (step % m_params.stepAdjustInterval != 0) return;
  const double ratio = static_cast<double>(m_acceptedInWindow) / m_params.stepAdjustInterval;
  m_stepSize = ratio > m_params.targetAcceptance ? m_stepSize * m_params.stepAdjustFactor
                                                 : m_stepSize / m_params.stepAdjustFactor;
  m_acceptedInWindow = 0;
  m_report.onStepAdjust({step, ratio, m_stepSize});
}

void BasinHoppingRun::restart(long step, const NewRestart::Decision& decision) {
  const bool reseed = decision.action == NewRestart::Action::Reseed;
  if (reseed) {
    m_markov = randomStart();
    const LbfgsResult q = quench(m_markov, m_sloppy);
    // A stop request inside the reseed quench leaves the new chain where the quench stopped,
    // with energy +infinity as after a failed quench (the one place where a resumed run departs
    // from the uninterrupted one; docs/reliability.md).
    const bool stopped = q.status == LbfgsStatus::Stopped;
    m_markovEnergy = !stopped && countFailure(q).empty() ? q.energy : kFailedEnergy;
    refreshAtomEnergies();
    m_newRestart.startChain(step, m_markovEnergy, m_markov);
    ++m_result.restarts;
  }
  m_report.onRestart({step,
                      decision.reason == NewRestart::Reason::Taboo
                          ? RestartReport::Reason::Taboo
                          : RestartReport::Reason::NoImprovement,
                      reseed, decision.chainBestEnergy, m_markovEnergy, m_newRestart.tabooSize()});
}

void BasinHoppingRun::checkpoint(long step) {
  if (m_params.dumpInterval <= 0 || step % m_params.dumpInterval != 0) return;
  m_report.onCheckpoint(m_lowest.minima());
  m_report.onState(state());
}

}  // namespace landscape
