#include "landscape/search/BasinHoppingRun.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

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
                                 BasinHoppingObserver& report, LowestMinima* shared)
    : m_potential(potential),
      m_params(params),
      m_hooks(hooks),
      m_radius(radius),
      m_report(report),
      m_random(params.seed),
      m_sloppy(quenchParams(params, params.sloppyRms, params.sloppyMaxIterations)),
      m_tight(quenchParams(params, params.tightRms, params.tightMaxIterations)),
      m_workspace(workspaceFactory ? workspaceFactory(potential, params.lbfgs.historySize)
                                   : nullptr),
      m_ownLowest(static_cast<std::size_t>(params.saveCount), params.energyDifference),
      m_lowest(shared ? *shared : m_ownLowest),
      m_stepTaker(radius, params.angularThreshold),
      m_newRestart(params, hooks.distance),
      m_stepSize(params.stepSize),
      m_symmetrisation(params.symmetrisation, params.energyDifference),
      m_randomMark(m_random) {}

long BasinHoppingRun::begin(std::vector<double> start) {
  std::vector<double> x = initialStructure(std::move(start));
  const LbfgsResult q = quench(x, m_sloppy);
  return beginWith(std::move(x), q);
}

std::vector<double> BasinHoppingRun::initialStructure(std::vector<double> start) {
  if (start.empty()) start = randomStart();
  if (start.size() != m_potential.dimension()) {
    throw std::invalid_argument("basin-hopping start has " + std::to_string(start.size() / 3) +
                                " atoms, the potential has " +
                                std::to_string(m_potential.atomCount()));
  }
  return start;
}

long BasinHoppingRun::beginWith(std::vector<double> x, const LbfgsResult& q) {
  if (q.status == LbfgsStatus::Stopped) {  // nothing to continue from: a resume starts afresh
    m_result.stoppedEarly = true;
    m_started = false;
    return 1;
  }
  m_markov = std::move(x);
  settle(m_markov, q);
  const std::string failed = countFailure(q);
  m_markovEnergy = failed.empty() ? q.energy : kFailedEnergy;
  if (failed.empty()) offerMinimum(q.energy, m_markov, 0);
  m_report.onQuench({0, q.energy, q.iterations, q.rmsGradient, q.status, m_markovEnergy,
                     failed.empty(), !failed.empty(), failed, false, m_result.functionCalls,
                     !failed.empty(), m_result.failedQuenches});
  m_atomEnergiesStale = true;
  if (failed.empty()) checkTarget(0, q.energy, m_markov);
  m_newRestart.startChain(0, m_markovEnergy, m_markov);
  return 1;
}

long BasinHoppingRun::restore(const BasinHoppingState& state) {
  m_markov = state.markov;
  m_markovEnergy = state.markovEnergy;
  m_stepSize = state.stepSize;
  m_acceptedInWindow = state.acceptedInWindow;
  m_stepsInWindow = state.stepsInWindow >= 0 ? state.stepsInWindow
                                             : state.quench % m_params.stepAdjustInterval;
  m_symmetrisation.restore(state.symmetrisation);
  m_result.quenches = state.quench;
  m_result.functionCalls = state.functionCalls;
  m_result.restarts = state.restarts;
  m_result.failedQuenches = state.failedQuenches;
  m_result.targetReached = state.targetReached;
  m_result.targetQuench = state.targetQuench;
  m_result.targetFunctionCalls = state.targetFunctionCalls;
  m_random.restore(state.random);
  m_randomMark = m_random;
  m_drawsBeforeTrial = m_random.draws();
  m_newRestart.restore(state.newRestart);
  m_unquenchedReseed = state.pendingReseedStart;
  m_pendingReseed = state.pendingReseed;
  // Already distinct and sorted: offering them in order rebuilds the same list. A walker's list is
  // the ensemble's, restored once by the ensemble.
  if (&m_lowest == &m_ownLowest)
    for (const StoredMinimum& m : state.lowest) m_lowest.offer(m);
  // The ASTEP atom energies are a function of the Markov state, so they are recomputed.
  m_atomEnergiesStale = true;
  return state.quench + 1;
}

void BasinHoppingRun::step(long step) {
  // A quench ended by a stop request leaves the run as it was before this step (random numbers
  // and counters included), so that a resume repeats the step exactly.
  std::vector<double> trial = proposeTrial();
  const LbfgsResult q = quench(trial, m_sloppy);
  if (q.status == LbfgsStatus::Stopped) {
    undoProposal();
    m_result.stoppedEarly = true;
    return;
  }
  if (completeStep(step, std::move(trial), q)) {
    const std::vector<double> start = reseedStart();
    std::vector<double> x = start;
    const LbfgsResult r = quench(x, m_sloppy);
    if (r.status == LbfgsStatus::Stopped) {
      keepReseedForResume(start);
      return;
    }
    completeReseed(step, std::move(x), r);
  }
  checkpoint(step);
}

void BasinHoppingRun::keepReseedForResume(std::vector<double> start) {
  m_unquenchedReseed = std::move(start);
  m_result.stoppedEarly = true;
}

bool BasinHoppingRun::completePendingReseed() {
  if (m_unquenchedReseed.empty()) return true;
  std::vector<double> x = m_unquenchedReseed;
  const LbfgsResult r = quench(x, m_sloppy);
  if (r.status == LbfgsStatus::Stopped) {
    m_result.stoppedEarly = true;
    return false;
  }
  const long step = m_result.quenches;
  completeReseed(step, std::move(x), r);
  checkpoint(step);
  return true;
}

bool BasinHoppingRun::prepareSymmetrisation() {
  updateAtomEnergies();
  return m_symmetrisation.prepare(m_result.quenches + 1, m_markov, m_markovEnergy, m_atomEnergies);
}

// A copy of the whole generator at every proposal (2.5 KB of mt19937_64 state: with thousands of
// walkers a step's largest memory traffic on the host) is replaced by a mark renewed every
// kRandomMarkDraws draws and the count of draws; a stop request is rare, and going back costs a
// skip of at most that many numbers.
constexpr std::uint64_t kRandomMarkDraws = 4096;

std::vector<double> BasinHoppingRun::proposeTrial() {
  if (m_random.draws() - m_randomMark.draws() >= kRandomMarkDraws) m_randomMark = m_random;
  m_drawsBeforeTrial = m_random.draws();
  m_trialIsCandidate = prepareSymmetrisation();
  if (m_trialIsCandidate) return m_symmetrisation.candidate(m_stepTaker, m_stepSize, m_random);
  return perturbedMarkovState();
}

void BasinHoppingRun::undoProposal() {
  m_random = m_randomMark;
  m_random.skip(m_drawsBeforeTrial - m_randomMark.draws());
}

void BasinHoppingRun::prepareCompletion(long step, std::vector<double>& x, const LbfgsResult& q) {
  if (q.status == LbfgsStatus::Stopped)
    throw std::logic_error("basin-hopping: a stopped quench must be undone, not completed");
  settle(x, q);
  const std::string failed = countFailure(q);
  m_completion.failed = !failed.empty();
  m_completion.whyRejected = failed.empty() ? rejectReason(x) : failed;
  // NEWRESTART reads and changes only this chain's state, and AVOID's distances to its taboo
  // structures are the costly part of a step on the host (alignments of the whole cluster).
  m_completion.decision = NewRestart::Decision{};
  if (!m_trialIsCandidate && m_completion.whyRejected.empty())
    m_completion.decision = m_newRestart.afterQuench(step, q.energy, x);
  m_completion.prepared = true;
}

bool BasinHoppingRun::completeStep(long step, std::vector<double> trial, const LbfgsResult& q) {
  if (!m_completion.prepared) prepareCompletion(step, trial, q);
  const Completion done = std::exchange(m_completion, Completion{});
  if (m_trialIsCandidate) return completeCandidate(step, std::move(trial), q, done);
  m_symmetrisation.ordinaryStepDone();
  const std::string& whyRejected = done.whyRejected;
  const bool valid = whyRejected.empty();
  if (valid) offerMinimum(q.energy, trial, step);

  const NewRestart::Decision& decision = done.decision;
  const bool restarting = decision.action != NewRestart::Action::None;
  const bool accepted = valid && !restarting && metropolis(q.energy);
  if (accepted) moveMarkovState(std::move(trial), q.energy);
  m_result.quenches = step;
  const bool taboo = restarting && decision.reason == NewRestart::Reason::Taboo;
  m_report.onQuench({step, q.energy, q.iterations, q.rmsGradient, q.status, m_markovEnergy,
                     accepted, !valid, whyRejected, taboo, m_result.functionCalls, done.failed,
                     m_result.failedQuenches});

  if (valid) checkTarget(step, q.energy, accepted ? m_markov : trial);  // trial moved if accepted
  adjustStepSize(step);
  if (!restarting || m_result.targetReached) return false;
  if (decision.action == NewRestart::Action::Reseed) {
    m_pendingReseed = decision;
    return true;
  }
  reportRestart(step, decision);
  return false;
}

bool BasinHoppingRun::completionIsLocal(const LbfgsResult& q) const {
  if (m_trialIsCandidate || !m_completion.prepared) return false;
  return !m_completion.whyRejected.empty() || !requenchesForTarget(q.energy);
}

bool BasinHoppingRun::completeCandidate(long step, std::vector<double> x, const LbfgsResult& q,
                                        const Completion& done) {
  m_trialIsCandidate = false;
  const std::string& whyRejected = done.whyRejected;
  const bool valid = whyRejected.empty();
  if (valid) offerMinimum(q.energy, x, step);
  m_result.quenches = step;
  QuenchReport report{step, q.energy, q.iterations, q.rmsGradient, q.status, m_markovEnergy,
                      false, !valid, whyRejected, false, m_result.functionCalls,
                      done.failed, m_result.failedQuenches};
  report.symmetrisation = true;
  m_report.onQuench(report);
  if (valid) checkTarget(step, q.energy, x);
  m_symmetrisation.record(q.energy, valid ? std::move(x) : std::vector<double>{}, valid);
  if (m_symmetrisation.episodeOver(m_result.targetReached)) {
    const SymmetrisationReport r = m_symmetrisation.finishEpisode(step, m_markov, m_markovEnergy);
    if (r.changedMarkov) m_atomEnergiesStale = true;
    m_report.onSymmetrisation(r);
  }
  return false;
}

void BasinHoppingRun::completeReseed(long step, std::vector<double> x, const LbfgsResult& q) {
  if (q.status == LbfgsStatus::Stopped)
    throw std::logic_error("basin-hopping: a stopped reseed quench must be kept for the resume");
  m_unquenchedReseed.clear();
  m_markov = std::move(x);
  settle(m_markov, q);
  m_markovEnergy = countFailure(q).empty() ? q.energy : kFailedEnergy;
  m_atomEnergiesStale = true;
  m_newRestart.startChain(step, m_markovEnergy, m_markov);
  ++m_result.restarts;
  reportRestart(step, m_pendingReseed);
}

void BasinHoppingRun::crowdOut() {
  m_pendingReseed = {NewRestart::Action::Reseed, NewRestart::Reason::Crowded, m_markovEnergy};
}

BasinHoppingState BasinHoppingRun::state() const {
  BasinHoppingState s;
  s.quench = m_result.quenches;
  s.markov = m_markov;
  s.markovEnergy = m_markovEnergy;
  s.stepSize = m_stepSize;
  s.acceptedInWindow = m_acceptedInWindow;
  s.stepsInWindow = m_stepsInWindow;
  s.symmetrisation = m_symmetrisation.state();
  s.functionCalls = m_result.functionCalls;
  s.restarts = m_result.restarts;
  s.failedQuenches = m_result.failedQuenches;
  s.targetReached = m_result.targetReached;
  s.targetQuench = m_result.targetQuench;
  s.targetFunctionCalls = m_result.targetFunctionCalls;
  s.random = m_random.state();
  s.newRestart = m_newRestart.state();
  s.lowest = m_lowest.minima();
  s.pendingReseedStart = m_unquenchedReseed;
  if (!m_unquenchedReseed.empty()) s.pendingReseed = m_pendingReseed;
  return s;
}

// A stop request (a signal, not the observer's stopRequested) ends the tight re-quench: the minima
// not yet refined are kept as the run saved them.
BasinHoppingResult BasinHoppingRun::finish() {
  std::vector<std::vector<double>> x;
  std::vector<LbfgsResult> q;
  const std::vector<StoredMinimum> saved = m_lowest.minima();
  for (std::size_t i = 0; i < saved.size() && !stopRequested(); ++i) {
    x.push_back(saved[i].coordinates);
    q.push_back(quench(x.back(), m_tight));
  }
  keepRefined(std::move(x), q);
  m_result.lowest = m_lowest.minima();
  m_result.finalStepSize = m_stepSize;
  return m_result;
}

// A failed tight re-quench is counted and the minimum kept as the sloppy quench saved it; x and q
// may cover only the first minima (a stop request ended the re-quench), a stopped quench leaves its
// minimum as saved too.
void BasinHoppingRun::keepRefined(std::vector<std::vector<double>> x,
                                  const std::vector<LbfgsResult>& q) {
  std::vector<StoredMinimum> refined = m_lowest.minima();
  for (std::size_t i = 0; i < refined.size() && i < q.size(); ++i) {
    const bool stopped = q[i].status == LbfgsStatus::Stopped;
    if (stopped) m_result.stoppedEarly = true;
    if (!stopped) settle(x[i], q[i]);
    const std::string failed = stopped ? "" : countFailure(q[i]);
    m_report.onTightQuench({i + 1, refined.size(), refined[i].energy, q[i].energy, q[i].iterations,
                            q[i].rmsGradient, q[i].status, failed});
    if (stopped || !failed.empty()) continue;
    refined[i].coordinates = std::move(x[i]);
    refined[i].energy = q[i].energy;
  }
  m_lowest.replace(std::move(refined));
}

LbfgsResult BasinHoppingRun::quench(std::vector<double>& x, const Lbfgs& minimizer) {
  if (!m_workspace) throw std::logic_error("basin-hopping walker: quenches are the caller's");
  m_workspace->setCoordinates(x.data());
  const LbfgsResult r = minimizer.minimize(*m_workspace);
  m_workspace->getCoordinates(x.data());
  return r;
}

void BasinHoppingRun::settle(std::vector<double>& x, const LbfgsResult& q) {
  m_result.functionCalls += q.functionCalls;
  if (m_params.centre) {
    if (m_hooks.centre)
      m_hooks.centre(x);
    else
      removeCentreOfMass(x);
  }
}

std::vector<double> BasinHoppingRun::randomStart() {
  if (m_hooks.randomStructure) return m_hooks.randomStructure(m_random);
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
  // Without a container (an infinite radius) no atom can leave it: rigid molecules' radius hook
  // builds every atom, a third of a water walker's host work per step.
  if (std::isfinite(m_radius) &&
      (m_hooks.maxRadius ? m_hooks.maxRadius(x) : maxRadius(x)) > m_radius)
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
  m_atomEnergiesStale = true;
  ++m_acceptedInWindow;
}

void BasinHoppingRun::updateAtomEnergies() {
  if (!m_atomEnergiesStale) return;
  m_atomEnergiesStale = false;
  if (m_params.angularThreshold <= 0.0) {  // no ASTEP: nothing to compute or to fill
    m_atomEnergies.clear();
    return;
  }
  m_atomEnergies.assign(m_potential.atomCount(), 0.0);
  // No angular move away from a Markov state whose quench failed: its atom energies are no guide.
  if (m_params.angularThreshold <= 0.0 || !std::isfinite(m_markovEnergy) ||
      !m_potential.perAtomEnergies(m_markov.data(), m_atomEnergies.data()))
    m_atomEnergies.clear();
}

// A quench that stopped at SLOPPYCONV lies above its minimum (by about |g|^2 / 2k: 0.04 kJ/mol
// for TIP4P (H2O)20 at RMS 0.1), so one within 10 EDIFF of the target, or below it, is
// re-quenched at TIGHTCONV, on a copy, and tested at that energy. The chain and its counts are
// unchanged. A re-quench that reaches the target is offered to the lowest minima: the loose quench
// may have been refused there as the same minimum as a saved one within EDIFF (loose energies of
// distinct minima overlap: TIP4P (H2O)12's global minimum, -492.9092 kJ/mol, was refused beside
// a loose quench of the isomer at -492.8938), and the run's lowest minima must hold what reached
// the target.
bool BasinHoppingRun::requenchesForTarget(double energy) const {
  if (!m_params.targetEnergy) return false;
  const double reach = *m_params.targetEnergy + m_params.energyDifference;
  return energy <= reach + 10.0 * m_params.energyDifference &&
         m_params.tightRms < m_params.sloppyRms;
}

void BasinHoppingRun::checkTarget(long step, double energy, const std::vector<double>& x) {
  if (!m_params.targetEnergy) return;
  const double reach = *m_params.targetEnergy + m_params.energyDifference;
  std::vector<double> tight;
  if (requenchesForTarget(energy)) {
    tight = x;
    energy = m_tight.minimize(m_potential, tight).energy;
  }
  // Written as !(e <= target) so that a NaN energy never counts as reaching it.
  if (!(energy <= reach)) return;
  if (!tight.empty()) offerMinimum(energy, tight, step);
  m_result.targetReached = true;
  m_result.targetQuench = step;
  m_result.targetFunctionCalls = m_result.functionCalls;
}

void BasinHoppingRun::adjustStepSize(long step) {
  if (m_params.fixedStep) return;
  if (++m_stepsInWindow < m_params.stepAdjustInterval) return;
  m_stepsInWindow = 0;
  const double ratio = static_cast<double>(m_acceptedInWindow) / m_params.stepAdjustInterval;
  m_stepSize = ratio > m_params.targetAcceptance ? m_stepSize * m_params.stepAdjustFactor
                                                 : m_stepSize / m_params.stepAdjustFactor;
  m_acceptedInWindow = 0;
  m_report.onStepAdjust({step, ratio, m_stepSize});
}

void BasinHoppingRun::reportRestart(long step, const NewRestart::Decision& decision) {
  const RestartReport::Reason reason =
      decision.reason == NewRestart::Reason::Taboo     ? RestartReport::Reason::Taboo
      : decision.reason == NewRestart::Reason::Crowded ? RestartReport::Reason::Crowded
                                                       : RestartReport::Reason::NoImprovement;
  m_report.onRestart({step, reason, decision.action == NewRestart::Action::Reseed,
                      decision.chainBestEnergy, m_markovEnergy, m_newRestart.tabooSize()});
}

void BasinHoppingRun::takeMarkovState(std::vector<double> x, double energy) {
  m_markov = std::move(x);
  m_markovEnergy = energy;
  m_atomEnergiesStale = true;
}

void BasinHoppingRun::offerMinimum(double energy, const std::vector<double>& x, long step) {
  // Refused now, refused after any other offer (LowestMinima::entryBar): no copy of x made.
  if (!(energy < m_lowest.entryBar())) return;
  StoredMinimum minimum{energy, x, step, m_result.functionCalls};
  if (m_offerSink)
    m_offerSink(std::move(minimum));
  else
    m_lowest.offer(minimum);
}

void BasinHoppingRun::checkpoint(long step) {
  if (m_params.dumpInterval <= 0 || step % m_params.dumpInterval != 0) return;
  m_report.onCheckpoint(m_lowest.minima());
  m_report.onState(state());
}

}  // namespace landscape
