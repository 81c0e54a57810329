#include "landscape/search/WalkerEnsemble.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <thread>

#include "landscape/core/StopRequest.h"
#include "landscape/geometry/ClusterGeometry.h"

namespace landscape {

// A walker's BasinHoppingObserver: forwards its reports with its index and counts its steps.
class WalkerEnsemble::Relay : public BasinHoppingObserver {
 public:
  Relay(WalkerEnsemble& ensemble, int walker) : m_ensemble(ensemble), m_walker(walker) {}
  void onQuench(const QuenchReport& q) override {
    if (q.quench > 0 && !q.symmetrisation) {
      ++steps;
      if (q.accepted) ++accepted;
    }
    if (m_ensemble.m_observer) m_ensemble.m_observer->onQuench(m_walker, q);
  }
  void onStepAdjust(const StepAdjustReport& s) override {
    if (m_ensemble.m_observer) m_ensemble.m_observer->onStepAdjust(m_walker, s);
  }
  void onRestart(const RestartReport& r) override {
    if (m_ensemble.m_observer) m_ensemble.m_observer->onRestart(m_walker, r);
  }
  void onTightQuench(const TightQuenchReport& t) override {
    if (m_ensemble.m_observer) m_ensemble.m_observer->onTightQuench(t);
  }
  void onSymmetrisation(const SymmetrisationReport& r) override {
    if (m_ensemble.m_observer) m_ensemble.m_observer->onSymmetrisation(m_walker, r);
  }
  double acceptance() const { return steps > 0 ? static_cast<double>(accepted) / steps : 0.0; }
  long steps = 0, accepted = 0;  ///< since this process started the run

 private:
  WalkerEnsemble& m_ensemble;
  int m_walker;
};

namespace {

LbfgsParams quenchParams(const BasinHoppingParams& p, double rms, int maxIterations) {
  LbfgsParams q = p.lbfgs;
  q.rmsTolerance = rms;
  q.maxIterations = maxIterations;
  return q;
}

bool anyStopped(const std::vector<LbfgsResult>& q) {
  for (const LbfgsResult& r : q)
    if (r.status == LbfgsStatus::Stopped) return true;
  return false;
}

}  // namespace

WalkerEnsemble::WalkerEnsemble(Potential& potential, const BasinHoppingParams& params, int walkers,
                               const ParallelTemperingParams& tempering,
                               BatchedMinimiserMaker makeMinimiser, BasinHoppingHooks hooks)
    : m_potential(potential),
      m_common(params),
      m_hooks(std::move(hooks)),
      m_makeMinimiser(std::move(makeMinimiser)),
      m_lowest(static_cast<std::size_t>(std::max(params.saveCount, 1)), params.energyDifference) {
  if (walkers < 1) throw std::invalid_argument("a walker ensemble needs at least one walker");
  if (!m_makeMinimiser) throw std::invalid_argument("a walker ensemble needs a minimiser maker");
  m_common.check();
  m_radius = !params.container              ? std::numeric_limits<double>::infinity()
             : params.containerRadius > 0.0 ? params.containerRadius
                                            : defaultContainerRadius(potential.atomCount());
  m_temperatures.assign(static_cast<std::size_t>(walkers), params.temperature);
  if (tempering.enabled) {
    tempering.check();
    m_temperatures = temperatureLadder(walkers, tempering.minTemperature, tempering.maxTemperature);
    m_exchange = std::make_unique<ReplicaExchange>(m_temperatures, params.seed);
    m_exchangeInterval = tempering.interval;
  }
  m_params.resize(static_cast<std::size_t>(walkers), params);
  for (int w = 0; w < walkers; ++w) {
    BasinHoppingParams& p = m_params[static_cast<std::size_t>(w)];
    p.seed = streamSeed(params.seed, static_cast<std::uint64_t>(w));
    p.temperature = m_temperatures[static_cast<std::size_t>(w)];
    p.dumpInterval = 0;  // checkpoints are the ensemble's
    m_relays.push_back(std::make_unique<Relay>(*this, w));
    m_chains.push_back(std::make_unique<BasinHoppingRun>(
        m_potential, p, m_hooks, m_radius, LbfgsWorkspaceFactory{}, *m_relays.back(), &m_lowest));
  }
}

WalkerEnsemble::~WalkerEnsemble() = default;

WalkerEnsembleResult WalkerEnsemble::run(const std::vector<double>& start,
                                         WalkerObserver* observer) {
  WalkerObserver silent;
  m_observer = observer ? observer : &silent;
  const long first = begin(start);
  WalkerEnsembleResult result = runRounds(first, *m_observer);
  m_observer = nullptr;
  return result;
}

WalkerEnsembleResult WalkerEnsemble::resume(const WalkerEnsembleState& state,
                                            WalkerObserver* observer) {
  WalkerObserver silent;
  m_observer = observer ? observer : &silent;
  const long first = restore(state);
  WalkerEnsembleResult result = runRounds(first, *m_observer);
  m_observer = nullptr;
  return result;
}

WalkerEnsembleResult WalkerEnsemble::runRounds(long firstStep, WalkerObserver& observer) {
  m_sloppy =
      m_makeMinimiser(quenchParams(m_common, m_common.sloppyRms, m_common.sloppyMaxIterations));
  for (long step = firstStep; m_started && step <= m_common.steps && m_targetWalker < 0; ++step) {
    if (observer.stopRequested() || stopRequested()) {
      m_stoppedEarly = true;
      break;
    }
    if (!round(step)) break;
  }
  if (m_started) observer.onState(state());
  return finish();
}

long WalkerEnsemble::begin(const std::vector<double>& start) {
  std::vector<std::vector<double>> x;
  for (auto& chain : m_chains) x.push_back(chain->initialStructure(start));
  auto minimiser =
      m_makeMinimiser(quenchParams(m_common, m_common.sloppyRms, m_common.sloppyMaxIterations));
  const std::vector<LbfgsResult> q = quench(*minimiser, x);
  for (std::size_t w = 0; w < m_chains.size(); ++w) m_chains[w]->beginWith(std::move(x[w]), q[w]);
  if (anyStopped(q)) {  // no state to continue from: a resume starts afresh
    m_stoppedEarly = true;
    m_started = false;
  }
  noteTarget(0);
  return 1;
}

long WalkerEnsemble::restore(const WalkerEnsembleState& state) {
  if (state.walkers.size() != m_chains.size())
    throw std::invalid_argument("walker state: " + std::to_string(state.walkers.size()) +
                                " walkers, this run has " + std::to_string(m_chains.size()));
  if (state.exchanges != static_cast<bool>(m_exchange))
    throw std::invalid_argument("walker state: parallel tempering is " +
                                std::string(state.exchanges ? "on" : "off") +
                                " in the state and not in this run");
  const long quench = state.walkers.front().quench;
  for (const BasinHoppingState& s : state.walkers)
    if (s.quench != quench)
      throw std::invalid_argument("walker state: the walkers are at different quenches");
  // Already distinct and sorted: offering them in order rebuilds the same list.
  for (const StoredMinimum& m : state.walkers.front().lowest) m_lowest.offer(m);
  for (std::size_t w = 0; w < m_chains.size(); ++w) m_chains[w]->restore(state.walkers[w]);
  if (m_exchange) m_exchange->restore(state.exchange);
  noteTarget(quench);
  return quench + 1;
}

bool WalkerEnsemble::round(long step) {
  // A stop request that ended a quench of this round undoes the round (every walker's random
  // source as before its proposal), so that a resume repeats it exactly.
  std::vector<Random> randomBefore;
  std::vector<std::vector<double>> x;
  x.reserve(m_chains.size());
  if (m_common.symmetrisation.on() && m_chains.size() > 1) {
    // Symmetrisation candidates cost an assignment or a point-group search per walker: spread
    // over host threads while the device is idle between rounds.
    if (!m_candidatePool) {
      const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
      m_candidatePool = std::make_unique<ThreadPool>(
          static_cast<int>(std::min<std::size_t>(cores, m_chains.size())));
    }
    m_candidatePool->forEach(m_chains.size(),
                             [&](std::size_t w) { m_chains[w]->prepareSymmetrisation(); });
  }
  for (auto& chain : m_chains) {
    randomBefore.push_back(chain->random());
    x.push_back(chain->proposeTrial());
  }
  std::vector<LbfgsResult> q = quench(*m_sloppy, x);
  if (anyStopped(q)) {
    for (std::size_t w = 0; w < m_chains.size(); ++w) m_chains[w]->rewind(randomBefore[w]);
    m_stoppedEarly = true;
    return false;
  }
  std::vector<std::size_t> reseeding;
  for (std::size_t w = 0; w < m_chains.size(); ++w)
    if (m_chains[w]->completeStep(step, std::move(x[w]), q[w])) reseeding.push_back(w);
  if (m_common.crowdLimit > 0) crowdOut(reseeding);
  if (!reseeding.empty()) {
    std::vector<std::vector<double>> starts;
    for (std::size_t w : reseeding) starts.push_back(m_chains[w]->reseedStart());
    q = quench(*m_sloppy, starts);
    for (std::size_t i = 0; i < reseeding.size(); ++i)
      m_chains[reseeding[i]]->completeReseed(step, std::move(starts[i]), q[i]);
  }
  noteTarget(step);
  if (m_exchange && m_targetWalker < 0 && step % m_exchangeInterval == 0) exchange();
  m_observer->onRound(roundReport(step));
  if (m_common.dumpInterval > 0 && step % m_common.dumpInterval == 0) {
    m_observer->onCheckpoint(m_lowest.minima());
    m_observer->onState(state());
  }
  return true;
}

void WalkerEnsemble::crowdOut(std::vector<std::size_t>& reseeding) {
  for (const auto& chain : m_chains)
    if (chain->targetReached()) return;  // the run ends with this round
  // The walkers that keep their Markov state, by energy (then index): runs of energies within
  // EDIFF of the run's first are one minimum, as the lowest-minima list counts them.
  std::vector<bool> leaving(m_chains.size(), false);
  for (std::size_t w : reseeding) leaving[w] = true;
  std::vector<std::size_t> order;
  for (std::size_t w = 0; w < m_chains.size(); ++w)
    if (!leaving[w] && std::isfinite(m_chains[w]->markovEnergy())) order.push_back(w);
  std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
    return m_chains[a]->markovEnergy() < m_chains[b]->markovEnergy();
  });
  const auto limit = static_cast<std::size_t>(m_common.crowdLimit);
  for (std::size_t first = 0; first < order.size();) {
    std::size_t end = first + 1;
    const double energy = m_chains[order[first]]->markovEnergy();
    while (end < order.size() &&
           m_chains[order[end]]->markovEnergy() - energy < m_common.energyDifference)
      ++end;
    // The lowest indices stay, so that which walkers move does not depend on the sort.
    std::vector<std::size_t> group(order.begin() + static_cast<std::ptrdiff_t>(first),
                                   order.begin() + static_cast<std::ptrdiff_t>(end));
    std::sort(group.begin(), group.end());
    for (std::size_t k = limit; k < group.size(); ++k) {
      m_chains[group[k]]->crowdOut();
      reseeding.push_back(group[k]);
    }
    first = end;
  }
  std::sort(reseeding.begin(), reseeding.end());
}

void WalkerEnsemble::noteTarget(long step) {
  for (std::size_t w = 0; w < m_chains.size() && m_targetWalker < 0; ++w) {
    if (!m_chains[w]->targetReached()) continue;
    m_targetWalker = static_cast<int>(w);
    m_targetRoundQuenches = step * static_cast<long>(m_chains.size());
    m_targetFunctionCalls = 0;
    for (const auto& chain : m_chains) m_targetFunctionCalls += chain->result().functionCalls;
  }
}

std::vector<LbfgsResult> WalkerEnsemble::quench(BatchedMinimiser& minimiser,
                                                std::vector<std::vector<double>>& x) {
  const std::size_t n = m_potential.dimension();
  std::vector<double> batch(x.size() * n);
  for (std::size_t b = 0; b < x.size(); ++b) std::copy(x[b].begin(), x[b].end(), &batch[b * n]);
  std::vector<LbfgsResult> results(x.size());
  minimiser.minimise(x.size(), batch.data(), results.data());
  for (std::size_t b = 0; b < x.size(); ++b)
    std::copy(&batch[b * n], &batch[b * n] + n, x[b].begin());
  return results;
}

void WalkerEnsemble::exchange() {
  std::vector<double> energy;
  for (const auto& chain : m_chains) energy.push_back(chain->markovEnergy());
  m_exchange->exchange(energy, [this](int i, int j) {
    m_chains[static_cast<std::size_t>(i)]->exchangeMarkovState(
        *m_chains[static_cast<std::size_t>(j)]);
  });
}

WalkerEnsembleState WalkerEnsemble::state() const {
  WalkerEnsembleState s;
  for (const auto& chain : m_chains) {
    s.walkers.push_back(chain->state());
    s.walkers.back().lowest.clear();
  }
  s.walkers.front().lowest = m_lowest.minima();
  s.exchanges = static_cast<bool>(m_exchange);
  if (m_exchange) s.exchange = m_exchange->state();
  return s;
}

WalkerRoundReport WalkerEnsemble::roundReport(long step) const {
  WalkerRoundReport r{step, 0, 0, 0, 0, std::numeric_limits<double>::infinity(), 0.0, 0.0, 0.0};
  std::vector<double> acceptance;
  for (std::size_t w = 0; w < m_chains.size(); ++w) {
    const BasinHoppingResult& c = m_chains[w]->result();
    r.quenches += c.quenches;
    r.functionCalls += c.functionCalls;
    r.failedQuenches += c.failedQuenches;
    r.restarts += c.restarts;
    acceptance.push_back(m_relays[w]->acceptance());
  }
  if (!m_lowest.empty()) r.bestEnergy = m_lowest.lowestEnergy();
  std::sort(acceptance.begin(), acceptance.end());
  r.minAcceptance = acceptance.front();
  r.medianAcceptance = acceptance[acceptance.size() / 2];
  r.maxAcceptance = acceptance.back();
  return r;
}

// The shared list re-quenched tightly in one batch; walker 0 counts the failed re-quenches.
WalkerEnsembleResult WalkerEnsemble::finish() {
  auto tight =
      m_makeMinimiser(quenchParams(m_common, m_common.tightRms, m_common.tightMaxIterations));
  std::vector<std::vector<double>> x;
  for (const StoredMinimum& m : m_lowest.minima()) x.push_back(m.coordinates);
  const std::vector<LbfgsResult> q = quench(*tight, x);
  m_chains.front()->keepRefined(std::move(x), q);

  WalkerEnsembleResult result;
  BasinHoppingResult& total = result.total;
  for (std::size_t w = 0; w < m_chains.size(); ++w) {
    const BasinHoppingResult& c = m_chains[w]->result();
    total.quenches += c.quenches;
    total.functionCalls += c.functionCalls;
    total.restarts += c.restarts;
    total.failedQuenches += c.failedQuenches;
    result.failedPerWalker.push_back(c.failedQuenches);
    result.acceptancePerWalker.push_back(m_relays[w]->acceptance());
  }
  total.lowest = m_lowest.minima();
  total.stoppedEarly = m_stoppedEarly;
  total.finalStepSize = m_chains.front()->stepSize();
  if (m_targetWalker >= 0) {
    const BasinHoppingResult& hit = m_chains[static_cast<std::size_t>(m_targetWalker)]->result();
    total.targetReached = true;
    total.targetQuench = hit.targetQuench;
    total.targetFunctionCalls = m_targetFunctionCalls;
    result.targetWalker = m_targetWalker;
    result.targetRoundQuenches = m_targetRoundQuenches;
  }
  result.temperatures = m_temperatures;
  if (m_exchange) result.exchange = m_exchange->state();
  return result;
}

}  // namespace landscape
