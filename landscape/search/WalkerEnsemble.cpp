#include "landscape/search/WalkerEnsemble.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "landscape/core/StopRequest.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/search/WalkerMessages.h"

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

bool stoppedHere(const std::vector<LbfgsResult>& q) {
  for (const LbfgsResult& r : q)
    if (r.status == LbfgsStatus::Stopped) return true;
  return false;
}

}  // namespace

WalkerEnsemble::WalkerEnsemble(Potential& potential, const BasinHoppingParams& params, int walkers,
                               const ParallelTemperingParams& tempering,
                               BatchedMinimiserMaker makeMinimiser, BasinHoppingHooks hooks,
                               WalkerPeers* peers)
    : m_potential(potential),
      m_common(params),
      m_hooks(std::move(hooks)),
      m_makeMinimiser(std::move(makeMinimiser)),
      m_peers(peers && peers->count() > 1 ? peers : nullptr),
      m_walkers(walkers),
      m_lowest(static_cast<std::size_t>(std::max(params.saveCount, 1)), params.energyDifference),
      m_hostThreads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) {
  if (walkers < 1) throw std::invalid_argument("a walker ensemble needs at least one walker");
  if (!m_makeMinimiser) throw std::invalid_argument("a walker ensemble needs a minimiser maker");
  if (m_peers && walkers < m_peers->count())
    throw std::invalid_argument("a walker ensemble over " + std::to_string(m_peers->count()) +
                                " processes needs at least as many walkers, not " +
                                std::to_string(walkers));
  m_common.check();
  m_slice = m_peers ? indexBlock(static_cast<std::size_t>(walkers), m_peers->index(),
                                  m_peers->count())
                    : IndexBlock{0, static_cast<std::size_t>(walkers)};
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
  // Reserved first: every chain keeps a reference to its params.
  m_params.resize(m_slice.count(), params);
  for (std::size_t i = 0; i < m_slice.count(); ++i) {
    const std::size_t w = m_slice.first + i;
    BasinHoppingParams& p = m_params[i];
    p.seed = streamSeed(params.seed, static_cast<std::uint64_t>(w));
    p.temperature = m_temperatures[w];
    p.dumpInterval = 0;  // checkpoints are the ensemble's
    m_relays.push_back(std::make_unique<Relay>(*this, static_cast<int>(w)));
    m_chains.push_back(std::make_unique<BasinHoppingRun>(
        m_potential, p, m_hooks, m_radius, LbfgsWorkspaceFactory{}, *m_relays.back(), &m_lowest));
    m_chains.back()->setOfferSink([this, i](StoredMinimum m) {
      (m_savingByChain ? m_savedByChain[i] : m_saved).push_back(std::move(m));
    });
  }
  m_savedByChain.resize(m_chains.size());
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
  // A resumed run whose last round a stop ended in its reseed quenches finishes that round first.
  bool going = !m_started || finishStoppedRound(firstStep - 1);
  for (long step = firstStep; going && m_started && step <= m_common.steps && m_targetWalker < 0;
       ++step) {
    // The observer's answer is agreed by the processes (gmin's RankWalkerObserver); a stop
    // request here is honoured only without peers, where no other process waits on this one.
    if (observer.stopRequested() || (!m_peers && stopRequested())) {
      m_stoppedEarly = true;
      break;
    }
    if (!round(step)) break;
  }
  if (m_started) observer.onState(gatheredState());
  return finish();
}

long WalkerEnsemble::begin(const std::vector<double>& start) {
  std::vector<std::vector<double>> x;
  for (auto& chain : m_chains) x.push_back(chain->initialStructure(start));
  auto minimiser =
      m_makeMinimiser(quenchParams(m_common, m_common.sloppyRms, m_common.sloppyMaxIterations));
  const std::vector<LbfgsResult> q = quench(*minimiser, x);
  const bool stopped = anyStopped(q);
  for (std::size_t w = 0; w < m_chains.size(); ++w) m_chains[w]->beginWith(std::move(x[w]), q[w]);
  offerSaved();
  if (stopped) {  // no state to continue from: a resume starts afresh
    m_stoppedEarly = true;
    m_started = false;
  }
  noteTarget(0, combinedCensus());
  return 1;
}

long WalkerEnsemble::restore(const WalkerEnsembleState& state) {
  if (state.walkers.size() != static_cast<std::size_t>(m_walkers))
    throw std::invalid_argument("walker state: " + std::to_string(state.walkers.size()) +
                                " walkers, this run has " + std::to_string(m_walkers));
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
  for (std::size_t i = 0; i < m_chains.size(); ++i)
    m_chains[i]->restore(state.walkers[m_slice.first + i]);
  if (m_exchange) m_exchange->restore(state.exchange);
  noteTarget(quench, combinedCensus());
  return quench + 1;
}

bool WalkerEnsemble::round(long step) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point mark = Clock::now();
  const auto lap = [&mark](double& phase) {
    const Clock::time_point now = Clock::now();
    phase += std::chrono::duration<double>(now - mark).count();
    mark = now;
  };
  WalkerPhaseSeconds& t = m_phaseSeconds;
  // Without ASTEP there is nothing to compute, so no need for one walker after the other.
  forEachChain(m_potential.concurrentPerAtomEnergies() || m_common.angularThreshold <= 0.0,
               [&](std::size_t w) { m_chains[w]->updateAtomEnergies(); });
  lap(t.atomEnergies);
  std::vector<std::vector<double>> x(m_chains.size());
  forEachChain(m_hooks.concurrent, [&](std::size_t w) { x[w] = m_chains[w]->proposeTrial(); });
  lap(t.propose);
  std::vector<LbfgsResult> q = quench(*m_sloppy, x);
  lap(t.quench);
  // A stop request that ended a quench of this round undoes the round (every walker's random
  // source as before its proposal), so that a resume repeats it exactly.
  if (anyStopped(q)) {
    for (auto& chain : m_chains) chain->undoProposal();
    m_stoppedEarly = true;
    return false;
  }
  forEachChain(m_hooks.concurrent,
               [&](std::size_t w) { m_chains[w]->prepareCompletion(step, x[w], q[w]); });
  lap(t.prepare);
  std::vector<std::size_t> reseeding;
  completeSteps(step, x, q, reseeding);
  lap(t.complete);
  if (m_common.crowdLimit > 0) {
    Census crowd;
    offerSaved(&reseeding, &crowd);
    crowdOut(crowd, reseeding);
  } else {
    offerSaved();
  }
  std::vector<std::vector<double>> starts;
  for (std::size_t w : reseeding) starts.push_back(m_chains[w]->reseedStart());
  const bool going = reseedAndFinishRound(step, reseeding, std::move(starts));
  lap(t.finish);
  ++t.rounds;
  return going;
}

// The chains are independent: a chain's completion changes nothing shared but through its saved
// minima (kept by chain, then saved in walker order) and its reports (to an observer that ignores
// them). The few completions that quench on the shared potential run afterwards on this thread,
// so every chain ends in the state, and m_saved in the order, of completions one after the other.
void WalkerEnsemble::completeSteps(long step, std::vector<std::vector<double>>& x,
                                   const std::vector<LbfgsResult>& q,
                                   std::vector<std::size_t>& reseeding) {
  const std::size_t n = m_chains.size();
  std::vector<char> reseeds(n, 0);
  if (m_observer && m_observer->wantsWalkerReports()) {
    for (std::size_t w = 0; w < n; ++w)
      reseeds[w] = m_chains[w]->completeStep(step, std::move(x[w]), q[w]);
  } else {
    std::vector<char> done(n, 0);
    struct Saving {
      bool& byChain;
      ~Saving() { byChain = false; }
    } saving{m_savingByChain = true};
    forEachIndex(n, [&](std::size_t w) {
      if (!m_chains[w]->completionIsLocal(q[w])) return;
      reseeds[w] = m_chains[w]->completeStep(step, std::move(x[w]), q[w]);
      done[w] = 1;
    });
    for (std::size_t w = 0; w < n; ++w)
      if (!done[w]) reseeds[w] = m_chains[w]->completeStep(step, std::move(x[w]), q[w]);
    for (std::vector<StoredMinimum>& saved : m_savedByChain) {
      for (StoredMinimum& m : saved) m_saved.push_back(std::move(m));
      saved.clear();
    }
  }
  for (std::size_t w = 0; w < n; ++w)
    if (reseeds[w]) reseeding.push_back(w);
}

bool WalkerEnsemble::finishStoppedRound(long step) {
  std::vector<std::size_t> pending;
  std::vector<std::vector<double>> starts;
  for (std::size_t w = 0; w < m_chains.size(); ++w) {
    if (m_chains[w]->pendingReseedStart().empty()) continue;
    pending.push_back(w);
    starts.push_back(m_chains[w]->pendingReseedStart());
  }
  bool any = false;
  for (const std::vector<char>& part : share({pending.empty() ? char{0} : char{1}}))
    any = any || (!part.empty() && part.front() != 0);
  return !any || reseedAndFinishRound(step, pending, std::move(starts));
}

bool WalkerEnsemble::reseedAndFinishRound(long step, const std::vector<std::size_t>& reseeding,
                                          std::vector<std::vector<double>> starts) {
  std::vector<std::vector<double>> x = starts;
  const std::vector<LbfgsResult> q = quench(*m_sloppy, x);
  // A stop request that ended a reseed quench leaves those reseeds pending in the saved state
  // (the steps themselves are complete), so that a resume quenches them and goes on exactly.
  if (anyStopped(q)) {
    for (std::size_t i = 0; i < reseeding.size(); ++i)
      m_chains[reseeding[i]]->keepReseedForResume(std::move(starts[i]));
    m_stoppedEarly = true;
    return false;
  }
  for (std::size_t i = 0; i < reseeding.size(); ++i)
    m_chains[reseeding[i]]->completeReseed(step, std::move(x[i]), q[i]);
  offerSaved();
  const Census census = combinedCensus();
  noteTarget(step, census);
  if (m_exchange && m_targetWalker < 0 && step % m_exchangeInterval == 0) exchange(census);
  m_observer->onRound(roundReport(step, census));
  if (m_common.dumpInterval > 0 && step % m_common.dumpInterval == 0) {
    m_observer->onCheckpoint(m_lowest.minima());
    m_observer->onState(gatheredState());
  }
  return true;
}

void WalkerEnsemble::forEachChain(bool concurrent, const std::function<void(std::size_t)>& work) {
  if (!concurrent) {
    for (std::size_t w = 0; w < m_chains.size(); ++w) work(w);
    return;
  }
  forEachIndex(m_chains.size(), work);
}

void WalkerEnsemble::forEachIndex(std::size_t count, const std::function<void(std::size_t)>& work) {
  if (m_hostThreads < 2 || count < 2 || m_chains.size() < 2) {
    for (std::size_t i = 0; i < count; ++i) work(i);
    return;
  }
  if (!m_chainPool)
    m_chainPool = std::make_unique<ThreadPool>(static_cast<int>(
        std::min<std::size_t>(static_cast<std::size_t>(m_hostThreads), m_chains.size())));
  // Thousands of walkers' items of a few microseconds each: a grab of about 1/32 of a thread's
  // share at a time (one at a time, the counter's cache line moving between the cores cost a
  // TIP4P (H2O)20 step of 16,896 walkers about 2 ms per loop on the H200's host).
  const std::size_t threads = static_cast<std::size_t>(m_chainPool->threads());
  m_chainPool->forEach(count, work, std::max<std::size_t>(1, count / (32 * threads)));
}

std::vector<std::vector<char>> WalkerEnsemble::share(const std::vector<char>& mine) {
  if (!m_peers) return {mine};
  return m_peers->allGather(mine);
}

bool WalkerEnsemble::anyStopped(const std::vector<LbfgsResult>& q) {
  const bool here = stoppedHere(q);
  if (!m_peers) return here;
  const std::vector<std::size_t> oneByte(static_cast<std::size_t>(m_peers->count()), 1);
  for (const std::vector<char>& part : m_peers->allGather({here ? char{1} : char{0}}, oneByte))
    if (!part.empty() && part.front() != 0) return true;
  return false;
}

void WalkerEnsemble::offerSaved(const std::vector<std::size_t>* reseeding, Census* crowd) {
  std::vector<StoredMinimum> saved;
  saved.swap(m_saved);
  // The crowd limit's view of this process's walkers: their Markov energies, +infinity for those
  // already reseeding, and whether one reached the target.
  std::vector<double> energy;
  bool target = false;
  if (crowd) {
    for (const auto& chain : m_chains) {
      energy.push_back(chain->markovEnergy());
      target = target || chain->targetReached();
    }
    for (std::size_t i : *reseeding) energy[i] = std::numeric_limits<double>::infinity();
    *crowd = Census{};
  }
  if (!m_peers) {
    for (const StoredMinimum& m : saved) m_lowest.offer(m);
    if (crowd) {
      crowd->markovEnergy = std::move(energy);
      crowd->targetWalker = target ? 0 : -1;
    }
    return;
  }
  // Only minima that can still enter the list were saved (BasinHoppingRun::offerMinimum: below
  // LowestMinima::entryBar), so only they travel.
  ByteWriter out;
  out.put(static_cast<std::uint64_t>(saved.size()));
  for (const StoredMinimum& m : saved) putStoredMinimum(out, m);
  if (crowd) {
    out.put(static_cast<std::uint8_t>(target));
    out.putVector(energy);
  }
  const std::vector<std::vector<char>> parts = share(out.bytes());
  for (std::size_t p = 0; p < parts.size(); ++p) {
    ByteReader in(parts[p], "walker process " + std::to_string(p) + "'s new minima");
    const std::size_t count = in.getCount(sizeof(double) + 3 * sizeof(std::uint64_t));
    for (std::size_t i = 0; i < count; ++i) m_lowest.offer(getStoredMinimum(in));
    if (!crowd) continue;
    if (in.get<std::uint8_t>() != 0) crowd->targetWalker = 0;
    const std::vector<double> theirs = in.getVector<double>();
    crowd->markovEnergy.insert(crowd->markovEnergy.end(), theirs.begin(), theirs.end());
  }
  if (crowd && crowd->markovEnergy.size() != static_cast<std::size_t>(m_walkers))
    throw std::runtime_error("walker processes: the crowd census counts " +
                             std::to_string(crowd->markovEnergy.size()) + " walkers, the run has " +
                             std::to_string(m_walkers));
}

WalkerEnsemble::Census WalkerEnsemble::localCensus() const {
  Census c;
  for (std::size_t i = 0; i < m_chains.size(); ++i) {
    const BasinHoppingResult& r = m_chains[i]->result();
    c.markovEnergy.push_back(m_chains[i]->markovEnergy());
    c.acceptance.push_back(m_relays[i]->acceptance());
    c.quenches += r.quenches;
    c.functionCalls += r.functionCalls;
    c.failedQuenches += r.failedQuenches;
    c.restarts += r.restarts;
    if (c.targetWalker < 0 && m_chains[i]->targetReached()) {
      c.targetWalker = static_cast<int>(m_slice.first + i);
      c.targetQuench = r.targetQuench;
    }
  }
  return c;
}

WalkerEnsemble::Census WalkerEnsemble::combinedCensus() {
  Census mine = localCensus();
  if (!m_peers) return mine;
  ByteWriter out;
  out.putVector(mine.markovEnergy);
  out.putVector(mine.acceptance);
  for (long v : {mine.quenches, mine.functionCalls, mine.failedQuenches, mine.restarts,
                 static_cast<long>(mine.targetWalker), mine.targetQuench})
    out.put(static_cast<std::int64_t>(v));
  // Every process knows every census's size: two counted vectors of its walkers' doubles and
  // six integers.
  std::vector<std::size_t> sizes;
  for (int p = 0; p < m_peers->count(); ++p) {
    const std::size_t walkers =
        indexBlock(static_cast<std::size_t>(m_walkers), p, m_peers->count()).count();
    sizes.push_back(2 * (sizeof(std::uint64_t) + walkers * sizeof(double)) +
                    6 * sizeof(std::int64_t));
  }
  Census all;
  const std::vector<std::vector<char>> parts = m_peers->allGather(out.bytes(), sizes);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    ByteReader in(parts[p], "walker process " + std::to_string(p) + "'s round census");
    const std::vector<double> energy = in.getVector<double>(), acceptance = in.getVector<double>();
    all.markovEnergy.insert(all.markovEnergy.end(), energy.begin(), energy.end());
    all.acceptance.insert(all.acceptance.end(), acceptance.begin(), acceptance.end());
    all.quenches += in.get<std::int64_t>();
    all.functionCalls += in.get<std::int64_t>();
    all.failedQuenches += in.get<std::int64_t>();
    all.restarts += in.get<std::int64_t>();
    const auto target = static_cast<int>(in.get<std::int64_t>());
    const auto targetQuench = static_cast<long>(in.get<std::int64_t>());
    if (all.targetWalker < 0 && target >= 0) {
      all.targetWalker = target;
      all.targetQuench = targetQuench;
    }
  }
  if (all.markovEnergy.size() != static_cast<std::size_t>(m_walkers))
    throw std::runtime_error("walker processes: the census counts " +
                             std::to_string(all.markovEnergy.size()) + " walkers, the run has " +
                             std::to_string(m_walkers));
  return all;
}

void WalkerEnsemble::crowdOut(const Census& census, std::vector<std::size_t>& reseeding) {
  if (census.targetWalker >= 0) return;  // the run ends with this round
  // The walkers that keep their Markov state, by energy (then index): runs of energies within
  // EDIFF of the run's first are one minimum, as the lowest-minima list counts them.
  const std::vector<double>& energy = census.markovEnergy;
  std::vector<std::size_t> order;
  for (std::size_t w = 0; w < energy.size(); ++w)
    if (std::isfinite(energy[w])) order.push_back(w);
  std::stable_sort(order.begin(), order.end(),
                   [&energy](std::size_t a, std::size_t b) { return energy[a] < energy[b]; });
  const auto limit = static_cast<std::size_t>(m_common.crowdLimit);
  for (std::size_t first = 0; first < order.size();) {
    std::size_t end = first + 1;
    while (end < order.size() && energy[order[end]] - energy[order[first]] < m_common.energyDifference)
      ++end;
    // The lowest indices stay, so that which walkers move does not depend on the sort.
    std::vector<std::size_t> group(order.begin() + static_cast<std::ptrdiff_t>(first),
                                   order.begin() + static_cast<std::ptrdiff_t>(end));
    std::sort(group.begin(), group.end());
    for (std::size_t k = limit; k < group.size(); ++k) {
      if (group[k] < m_slice.first || group[k] >= m_slice.last) continue;  // another process's
      const std::size_t local = group[k] - m_slice.first;
      m_chains[local]->crowdOut();
      reseeding.push_back(local);
    }
    first = end;
  }
  std::sort(reseeding.begin(), reseeding.end());
}

void WalkerEnsemble::noteTarget(long step, const Census& census) {
  if (m_targetWalker >= 0 || census.targetWalker < 0) return;
  m_targetWalker = census.targetWalker;
  m_targetQuench = census.targetQuench;
  m_targetRoundQuenches = step * static_cast<long>(m_walkers);
  m_targetFunctionCalls = census.functionCalls;
}

std::vector<LbfgsResult> WalkerEnsemble::quench(BatchedMinimiser& minimiser,
                                                std::vector<std::vector<double>>& x) {
  const std::size_t n = m_potential.dimension();
  std::vector<LbfgsResult> results(x.size());
  if (x.empty()) return results;
  // The minimiser's own array where it has one (page-locked on the GPU), else ours, kept between
  // calls: thousands of walkers' coordinates, not allocated every round. The copies run on the
  // host threads (tens of MB for thousands of walkers of rigid water).
  double* batch = minimiser.hostBatch(x.size());
  if (batch == nullptr) {
    if (m_batch.size() < x.size() * n) m_batch.resize(x.size() * n);
    batch = m_batch.data();
  }
  forEachIndex(x.size(),
               [&](std::size_t b) { std::copy(x[b].begin(), x[b].end(), batch + b * n); });
  minimiser.minimise(x.size(), batch, results.data());
  forEachIndex(x.size(),
               [&](std::size_t b) { std::copy(batch + b * n, batch + (b + 1) * n, x[b].begin()); });
  return results;
}

// The exchanges are decided alike on every process from the census's energies; a Markov state
// whose new walker is another process's travels there.
void WalkerEnsemble::exchange(const Census& census) {
  std::vector<std::size_t> from(static_cast<std::size_t>(m_walkers));
  for (std::size_t w = 0; w < from.size(); ++w) from[w] = w;
  m_exchange->exchange(census.markovEnergy, [&from](int i, int j) {
    std::swap(from[static_cast<std::size_t>(i)], from[static_cast<std::size_t>(j)]);
  });
  const auto mine = [this](std::size_t w) { return w >= m_slice.first && w < m_slice.last; };
  // Old states first: the swaps are pairs, so a walker's old state is read before it is replaced.
  std::vector<std::pair<std::vector<double>, double>> arriving(m_chains.size());
  std::vector<bool> moves(m_chains.size(), false);
  ByteWriter out;
  // Whether any exchange crosses a boundary between processes (alike on every process).
  bool crosses = false;
  if (m_peers) {
    std::vector<int> owner(from.size());
    for (int p = 0; p < m_peers->count(); ++p) {
      const IndexBlock slice =
          indexBlock(static_cast<std::size_t>(m_walkers), p, m_peers->count());
      std::fill(owner.begin() + static_cast<std::ptrdiff_t>(slice.first),
                owner.begin() + static_cast<std::ptrdiff_t>(slice.last), p);
    }
    for (std::size_t w = 0; w < from.size(); ++w) crosses = crosses || owner[w] != owner[from[w]];
  }
  std::vector<std::vector<char>> parts;
  if (m_peers && crosses) {
    std::uint64_t leaving = 0;
    for (std::size_t w = m_slice.first; w < m_slice.last; ++w)
      if (from[w] != w && !mine(from[w])) ++leaving;
    out.put(leaving);
    for (std::size_t w = m_slice.first; w < m_slice.last; ++w) {
      if (from[w] == w || mine(from[w])) continue;
      const BasinHoppingRun& chain = *m_chains[w - m_slice.first];
      out.put(static_cast<std::uint64_t>(w));
      out.put(chain.markovEnergy());
      out.putVector(chain.markov());
    }
    parts = share(out.bytes());
  }
  for (std::size_t i = 0; i < m_chains.size(); ++i) {
    const std::size_t w = m_slice.first + i, source = from[w];
    if (source == w || !mine(source)) continue;
    const BasinHoppingRun& chain = *m_chains[source - m_slice.first];
    arriving[i] = {chain.markov(), chain.markovEnergy()};
    moves[i] = true;
  }
  for (std::size_t p = 0; p < parts.size(); ++p) {
    ByteReader in(parts[p], "walker process " + std::to_string(p) + "'s exchanged states");
    const std::size_t count = in.getCount(2 * sizeof(std::uint64_t) + sizeof(double));
    for (std::size_t k = 0; k < count; ++k) {
      const auto source = static_cast<std::size_t>(in.get<std::uint64_t>());
      const double energy = in.get<double>();
      std::vector<double> x = in.getVector<double>();
      if (source >= from.size()) throw std::runtime_error("exchanged state of a walker out of range");
      const std::size_t target = from[source];  // the pairs swap: source's state goes to from[source]
      if (!mine(target)) continue;
      arriving[target - m_slice.first] = {std::move(x), energy};
      moves[target - m_slice.first] = true;
    }
  }
  for (std::size_t i = 0; i < m_chains.size(); ++i)
    if (moves[i]) m_chains[i]->takeMarkovState(std::move(arriving[i].first), arriving[i].second);
}

WalkerEnsembleState WalkerEnsemble::state() const {
  WalkerEnsembleState s;
  for (const auto& chain : m_chains) {
    s.walkers.push_back(chain->state());
    s.walkers.back().lowest.clear();
  }
  if (m_slice.first == 0) s.walkers.front().lowest = m_lowest.minima();
  s.exchanges = static_cast<bool>(m_exchange);
  if (m_exchange) s.exchange = m_exchange->state();
  return s;
}

WalkerEnsembleState WalkerEnsemble::gatheredState() {
  WalkerEnsembleState mine = state();
  if (!m_peers) return mine;
  ByteWriter out;
  out.put(static_cast<std::uint64_t>(mine.walkers.size()));
  for (const BasinHoppingState& s : mine.walkers) putBasinHoppingState(out, s);
  const std::vector<std::vector<char>> parts = m_peers->gather(out.bytes());
  if (parts.empty()) return {};  // not process 0
  WalkerEnsembleState all;
  all.exchanges = mine.exchanges;
  all.exchange = mine.exchange;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    ByteReader in(parts[p], "walker process " + std::to_string(p) + "'s walker states");
    const std::size_t count = in.getCount(sizeof(std::uint64_t));
    for (std::size_t i = 0; i < count; ++i) all.walkers.push_back(getBasinHoppingState(in));
  }
  return all;
}

WalkerRoundReport WalkerEnsemble::roundReport(long step, const Census& census) const {
  WalkerRoundReport r{step,
                      census.quenches,
                      census.functionCalls,
                      census.failedQuenches,
                      census.restarts,
                      std::numeric_limits<double>::infinity(),
                      0.0,
                      0.0,
                      0.0};
  std::vector<double> acceptance = census.acceptance;
  if (!m_lowest.empty()) r.bestEnergy = m_lowest.lowestEnergy();
  // The element a sort would put in the middle, without sorting thousands of walkers every round.
  const auto [low, high] = std::minmax_element(acceptance.begin(), acceptance.end());
  r.minAcceptance = *low;
  r.maxAcceptance = *high;
  const auto middle = acceptance.begin() + static_cast<std::ptrdiff_t>(acceptance.size() / 2);
  std::nth_element(acceptance.begin(), middle, acceptance.end());
  r.medianAcceptance = *middle;
  return r;
}

// The shared list re-quenched tightly in one batch by the process of walker 0, which counts the
// failed re-quenches; the other processes send it their walkers' counts.
WalkerEnsembleResult WalkerEnsemble::finish() {
  if (m_slice.first == 0) {
    const LbfgsParams params =
        quenchParams(m_common, m_common.tightRms, m_common.tightMaxIterations);
    auto tight = m_makeTight ? m_makeTight(params) : m_makeMinimiser(params);
    std::vector<std::vector<double>> x;
    for (const StoredMinimum& m : m_lowest.minima()) x.push_back(m.coordinates);
    const std::vector<LbfgsResult> q = quench(*tight, x);
    m_chains.front()->keepRefined(std::move(x), q);
  }
  std::vector<long> failed;
  std::vector<double> acceptance;
  BasinHoppingResult total;
  for (std::size_t i = 0; i < m_chains.size(); ++i) {
    const BasinHoppingResult& c = m_chains[i]->result();
    total.quenches += c.quenches;
    total.functionCalls += c.functionCalls;
    total.restarts += c.restarts;
    total.failedQuenches += c.failedQuenches;
    failed.push_back(c.failedQuenches);
    acceptance.push_back(m_relays[i]->acceptance());
  }
  WalkerEnsembleResult result;
  if (m_peers) {
    ByteWriter out;
    for (long v : {total.quenches, total.functionCalls, total.restarts, total.failedQuenches})
      out.put(static_cast<std::int64_t>(v));
    std::vector<std::int64_t> failed64(failed.begin(), failed.end());
    out.putVector(failed64);
    out.putVector(acceptance);
    const std::vector<std::vector<char>> parts = m_peers->gather(out.bytes());
    total = BasinHoppingResult{};
    failed.clear();
    acceptance.clear();
    for (std::size_t p = 0; p < parts.size(); ++p) {
      ByteReader in(parts[p], "walker process " + std::to_string(p) + "'s totals");
      total.quenches += in.get<std::int64_t>();
      total.functionCalls += in.get<std::int64_t>();
      total.restarts += in.get<std::int64_t>();
      total.failedQuenches += in.get<std::int64_t>();
      for (std::int64_t f : in.getVector<std::int64_t>()) failed.push_back(static_cast<long>(f));
      const std::vector<double> a = in.getVector<double>();
      acceptance.insert(acceptance.end(), a.begin(), a.end());
    }
  }
  result.failedPerWalker = std::move(failed);
  result.acceptancePerWalker = std::move(acceptance);
  total.lowest = m_lowest.minima();
  total.stoppedEarly = m_stoppedEarly;
  if (m_slice.first == 0) total.finalStepSize = m_chains.front()->stepSize();
  if (m_targetWalker >= 0) {
    total.targetReached = true;
    total.targetQuench = m_targetQuench;
    total.targetFunctionCalls = m_targetFunctionCalls;
    result.targetWalker = m_targetWalker;
    result.targetRoundQuenches = m_targetRoundQuenches;
  }
  result.total = std::move(total);
  result.temperatures = m_temperatures;
  if (m_exchange) result.exchange = m_exchange->state();
  return result;
}

}  // namespace landscape
