#include "landscape/search/BasinHopping.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "landscape/core/Random.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"
#include "landscape/search/ClusterStepTaker.h"
#include "landscape/search/LowestMinima.h"
#include "landscape/search/NewRestart.h"

namespace landscape {

namespace {

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

BasinHopping::BasinHopping(Potential& potential, const BasinHoppingParams& params,
                           LbfgsWorkspaceFactory workspaceFactory, BasinHoppingHooks hooks)
    : m_potential(potential),
      m_params(params),
      m_workspaceFactory(std::move(workspaceFactory)),
      m_hooks(std::move(hooks)) {
  if (!m_workspaceFactory) {
    m_workspaceFactory = [](Potential& p, int m) -> std::unique_ptr<LbfgsWorkspace> {
      return std::make_unique<LbfgsCpuWorkspace>(p, m);
    };
  }
  m_params.check();
  m_radius = !params.container ? std::numeric_limits<double>::infinity()
             : params.containerRadius > 0.0 ? params.containerRadius
                                            : defaultContainerRadius(potential.atomCount());
}

BasinHoppingResult BasinHopping::run(std::vector<double> start, BasinHoppingObserver* observer) {
  return runFrom(std::move(start), nullptr, observer);
}

BasinHoppingResult BasinHopping::resume(const BasinHoppingState& state,
                                        BasinHoppingObserver* observer) {
  const std::size_t n = m_potential.dimension();
  auto fits = [n](const std::vector<double>& x) { return x.size() == n; };
  std::string problem;
  if (!fits(state.markov)) problem = "Markov coordinates";
  for (const StoredMinimum& m : state.lowest)
    if (!fits(m.coordinates)) problem = "a saved minimum";
  if (m_params.newRestartSteps > 0 &&
      (!fits(state.newRestart.bestCoords) || !fits(state.newRestart.previousBestCoords)))
    problem = "the NEWRESTART chain best";
  for (const auto& x : state.newRestart.tabooCoords)
    if (!fits(x)) problem = "a taboo structure";
  if (!problem.empty())
    throw std::invalid_argument("basin-hopping state: " + problem + " does not have the " +
                                std::to_string(n) + " coordinates of the potential");
  if (state.quench < 0 || state.stepSize <= 0.0 || state.lowest.empty())
    throw std::invalid_argument(
        "basin-hopping state: needs quench >= 0, step size > 0 and at least one saved minimum");
  return runFrom({}, &state, observer);
}

BasinHoppingResult BasinHopping::runFrom(std::vector<double> start,
                                         const BasinHoppingState* resumed,
                                         BasinHoppingObserver* observer) {
  const std::size_t n = m_potential.dimension();
  Random random(m_params.seed);
  BasinHoppingObserver silent;
  BasinHoppingObserver& report = observer ? *observer : silent;

  const Lbfgs sloppy(quenchParams(m_params, m_params.sloppyRms, m_params.sloppyMaxIterations));
  const Lbfgs tight(quenchParams(m_params, m_params.tightRms, m_params.tightMaxIterations));
  const std::unique_ptr<LbfgsWorkspace> workspacePtr =
      m_workspaceFactory(m_potential, m_params.lbfgs.historySize);
  LbfgsWorkspace& workspace = *workspacePtr;
  BasinHoppingResult result;

  auto quench = [&](std::vector<double>& x, const Lbfgs& minimizer) {
    workspace.setCoordinates(x.data());
    const LbfgsResult r = minimizer.minimize(workspace);
    workspace.getCoordinates(x.data());
    result.functionCalls += r.functionCalls;
    if (m_params.centre) {
      if (m_hooks.centre)
        m_hooks.centre(x);
      else
        removeCentreOfMass(x);
    }
    return r;
  };
  auto randomStart = [&] {
    return randomCluster(m_potential.atomCount(), m_radius, kRandomStartSeparation, random);
  };
  auto isTargetHit = [&](double e) {
    return m_params.targetEnergy && e <= *m_params.targetEnergy + m_params.energyDifference;
  };

  LowestMinima lowest(static_cast<std::size_t>(m_params.saveCount), m_params.energyDifference);
  const ClusterStepTaker stepTaker(m_radius, m_params.angularThreshold);
  std::vector<double> atomEnergies;
  auto refreshAtomEnergies = [&](const std::vector<double>& x) {
    atomEnergies.assign(m_potential.atomCount(), 0.0);
    if (m_params.angularThreshold <= 0.0 || !m_potential.perAtomEnergies(x.data(), atomEnergies.data()))
      atomEnergies.clear();
  };

  std::vector<double> markov;
  double markovEnergy = 0.0;
  double stepSize = m_params.stepSize;
  long acceptedInWindow = 0;
  long firstStep = 1;
  NewRestart newRestart(m_params);
  if (resumed) {
    markov = resumed->markov;
    markovEnergy = resumed->markovEnergy;
    stepSize = resumed->stepSize;
    acceptedInWindow = resumed->acceptedInWindow;
    firstStep = resumed->quench + 1;
    result.quenches = resumed->quench;
    result.functionCalls = resumed->functionCalls;
    result.restarts = resumed->restarts;
    result.targetReached = resumed->targetReached;
    result.targetQuench = resumed->targetQuench;
    result.targetFunctionCalls = resumed->targetFunctionCalls;
    random.restore(resumed->random);
    newRestart.restore(resumed->newRestart);
    // Already distinct and sorted: offering them in order rebuilds the same list.
    for (const StoredMinimum& m : resumed->lowest) lowest.offer(m);
    // The ASTEP atom energies are a function of the Markov state, so they are recomputed.
    refreshAtomEnergies(markov);
  } else {
    if (start.empty()) start = randomStart();
    if (start.size() != n) {
      throw std::invalid_argument("basin-hopping start has " + std::to_string(start.size() / 3) +
                                  " atoms, the potential has " +
                                  std::to_string(m_potential.atomCount()));
    }
    // Quench 0: the starting structure.
    markov = std::move(start);
    const LbfgsResult q = quench(markov, sloppy);
    markovEnergy = q.energy;
    lowest.offer({q.energy, markov, 0, result.functionCalls});
    report.onQuench({0, q.energy, q.iterations, q.rmsGradient, q.status, markovEnergy, true,
                     false, "", false, result.functionCalls});
    refreshAtomEnergies(markov);
    if (isTargetHit(q.energy)) {
      result.targetReached = true;
      result.targetQuench = 0;
      result.targetFunctionCalls = result.functionCalls;
    }
    newRestart.startChain(0, markovEnergy, markov);
  }

  auto state = [&] {
    BasinHoppingState s;
    s.quench = result.quenches;
    s.markov = markov;
    s.markovEnergy = markovEnergy;
    s.stepSize = stepSize;
    s.acceptedInWindow = acceptedInWindow;
    s.functionCalls = result.functionCalls;
    s.restarts = result.restarts;
    s.targetReached = result.targetReached;
    s.targetQuench = result.targetQuench;
    s.targetFunctionCalls = result.targetFunctionCalls;
    s.random = random.state();
    s.newRestart = newRestart.state();
    s.lowest = lowest.minima();
    return s;
  };

  for (long step = firstStep; step <= m_params.steps && !result.targetReached; ++step) {
    if (report.stopRequested()) {
      result.stoppedEarly = true;
      break;
    }
    std::vector<double> trial = markov;
    stepTaker.takeStep(trial, stepSize, atomEnergies, random);
    if (m_hooks.extraMove) m_hooks.extraMove(trial, random);
    const LbfgsResult q = quench(trial, sloppy);
    std::string rejectReason;
    if (!std::isfinite(q.energy)) {
      rejectReason = "non-finite energy";
    } else if ((m_hooks.maxRadius ? m_hooks.maxRadius(trial) : maxRadius(trial)) > m_radius) {
      rejectReason = "an atom left the container";
    } else if (m_hooks.rejectReason) {
      rejectReason = m_hooks.rejectReason(trial);
    }
    const bool valid = rejectReason.empty();
    if (valid) lowest.offer({q.energy, trial, step, result.functionCalls});

    NewRestart::Decision restart;
    if (valid) restart = newRestart.afterQuench(step, q.energy, trial);
    bool accepted = false;
    if (valid && restart.action == NewRestart::Action::None) {
      accepted = q.energy < markovEnergy ||
                 random.uniform() < std::exp(-(q.energy - markovEnergy) / m_params.temperature);
    }
    if (accepted) {
      markov = trial;
      markovEnergy = q.energy;
      refreshAtomEnergies(markov);
      ++acceptedInWindow;
    }
    result.quenches = step;
    const bool taboo = restart.action != NewRestart::Action::None &&
                       restart.reason == NewRestart::Reason::Taboo;
    report.onQuench({step, q.energy, q.iterations, q.rmsGradient, q.status, markovEnergy, accepted,
                     !valid, rejectReason, taboo, result.functionCalls});

    if (valid && isTargetHit(q.energy)) {
      result.targetReached = true;
      result.targetQuench = step;
      result.targetFunctionCalls = result.functionCalls;
    }

    if (step % m_params.stepAdjustInterval == 0) {
      const double ratio = static_cast<double>(acceptedInWindow) / m_params.stepAdjustInterval;
      stepSize = ratio > m_params.targetAcceptance ? stepSize * m_params.stepAdjustFactor
                                                   : stepSize / m_params.stepAdjustFactor;
      acceptedInWindow = 0;
      report.onStepAdjust({step, ratio, stepSize});
    }

    if (restart.action != NewRestart::Action::None && !result.targetReached) {
      const bool reseed = restart.action == NewRestart::Action::Reseed;
      if (reseed) {
        markov = randomStart();
        const LbfgsResult r = quench(markov, sloppy);
        markovEnergy = r.energy;
        refreshAtomEnergies(markov);
        newRestart.startChain(step, markovEnergy, markov);
        ++result.restarts;
      }
      report.onRestart({step,
                        restart.reason == NewRestart::Reason::Taboo ? RestartReport::Reason::Taboo
                                                                    : RestartReport::Reason::NoImprovement,
                        reseed, restart.chainBestEnergy, markovEnergy, newRestart.tabooSize()});
    }

    if (m_params.dumpInterval > 0 && step % m_params.dumpInterval == 0) {
      report.onCheckpoint(lowest.minima());
      report.onState(state());
    }
  }
  report.onState(state());

  // Re-quench the saved minima tightly (GMIN's TIGHTCONV) before reporting them.
  std::vector<StoredMinimum> refined = lowest.minima();
  for (StoredMinimum& m : refined) m.energy = quench(m.coordinates, tight).energy;
  lowest.replace(std::move(refined));
  result.lowest = lowest.minima();
  result.finalStepSize = stepSize;
  return result;
}

}  // namespace landscape
