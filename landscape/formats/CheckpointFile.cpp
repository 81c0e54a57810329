#include "landscape/formats/CheckpointFile.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "landscape/core/InputChecks.h"
#include "landscape/core/Random.h"
#include "landscape/core/ThreadPool.h"
#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/CheckpointReader.h"

namespace landscape {

namespace {

constexpr const char* kMagic = "landscape-basin-hopping-checkpoint";

std::string hex(double x) { return hexReal(x); }

std::string exact(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return buffer;
}

void appendVector(std::string& out, const std::vector<double>& x) {
  out += std::to_string(x.size());
  char buffer[48] = " ";
  for (double v : x) {  // hexReal's "%a", written in place
    const int length = std::snprintf(buffer + 1, sizeof buffer - 1, "%a", v);
    out.append(buffer, static_cast<std::size_t>(length) + 1);
  }
}

}  // namespace

namespace {

// Only a run with symmetrisation adds these, so that earlier checkpoints stay valid.
void addSymmetrisation(CheckpointFingerprint& f, const SymmetrisationParams& s) {
  if (!s.on()) return;
  const bool csm = s.scheme == SymmetrisationParams::Scheme::Csm;
  f.emplace_back("symmetrisation", csm ? "SYMMETRISECSM" : "SYMMETRISE");
  f.emplace_back("symmetrisation-interval", std::to_string(s.interval));
  if (csm) {
    f.emplace_back("csm", s.csmGroup + ' ' + exact(s.csmEpsilon) + ' ' + std::to_string(s.csmSteps) +
                              ' ' + std::to_string(s.csmQuenches) + ' ' +
                              std::to_string(s.csmMaxIterations));
    return;
  }
  const CoreSymmetryParams& c = s.core;
  f.emplace_back("symmetrise", exact(c.orbitTolerance) + ' ' + exact(c.symmetryTolerance) + ' ' +
                                   exact(c.occupiedTolerance) + ' ' +
                                   exact(c.holeMergeTolerance) + ' ' + exact(c.overlapDistance) +
                                   ' ' + std::to_string(c.maxCandidates) + ' ' +
                                   exact(s.matrixDifference) + ' ' + exact(c.centreDecay));
}

}  // namespace

CheckpointFingerprint basinHoppingFingerprint(const BasinHoppingParams& p) {
  CheckpointFingerprint f{{"temperature", exact(p.temperature)},
          {"step-size", exact(p.stepSize)},
          {"astep", exact(p.angularThreshold)},
          {"step-adjust-interval", std::to_string(p.stepAdjustInterval)},
          {"target-acceptance", exact(p.targetAcceptance)},
          {"step-adjust-factor", exact(p.stepAdjustFactor)},
          {"save", std::to_string(p.saveCount)},
          {"ediff", exact(p.energyDifference)},
          {"sloppy-rms", exact(p.sloppyRms)},
          {"sloppy-max-iterations", std::to_string(p.sloppyMaxIterations)},
          {"tight-rms", exact(p.tightRms)},
          {"tight-max-iterations", std::to_string(p.tightMaxIterations)},
          {"centre", p.centre ? "on" : "off"},
          {"container", p.container ? "on" : "off"},
          {"radius", exact(p.containerRadius)},
          {"new-restart", std::to_string(p.newRestartSteps)},
          {"avoid-distance", exact(p.avoidDistance)},
          {"avoid-max-saved", std::to_string(p.avoidMaxSaved)},
          {"avoid-reseeds", p.avoidReseeds ? "on" : "off"},
          {"target", p.targetEnergy ? exact(*p.targetEnergy) : "none"},
          {"seed", std::to_string(p.seed)},
          {"history-size", std::to_string(p.lbfgs.historySize)},
          {"max-step", exact(p.lbfgs.maxStep)},
          {"max-rise", exact(p.lbfgs.maxRise)},
          {"initial-guess", exact(p.lbfgs.initialGuess)},
          {"cold-fusion", exact(p.coldFusionDrop)}};
  addSymmetrisation(f, p.symmetrisation);
  return f;
}

namespace {

// A symmetrisation episode (Symmetrisation.h) and the step-size window it shifts; nothing for a
// run that never tried one (its window is the quench number modulo the interval).
void appendSymmetrisation(std::string& out, const BasinHoppingState& s) {
  const Symmetrisation::State& y = s.symmetrisation;
  if (std::isnan(y.lastAttemptEnergy) && !y.ordinaryStepOwed && !y.inEpisode()) return;
  out += "steps-in-window " + std::to_string(s.stepsInWindow) + '\n';
  out += "symmetrisation " + hex(y.lastAttemptEnergy) + ' ' + (y.ordinaryStepOwed ? "1" : "0") +
         ' ' + std::to_string(y.downhillStepsLeft) + ' ' + std::to_string(y.quenched) + ' ' +
         hex(y.bestEnergy) + ' ' + std::to_string(y.candidates.size()) + '\n';
  out += "symmetrisation-best ";
  appendVector(out, y.best);
  out += '\n';
  for (const std::vector<double>& c : y.candidates) {
    out += "symmetrisation-candidate ";
    appendVector(out, c);
    out += '\n';
  }
  out += "symmetrisation-detail " + y.detail + '\n';
}

const char* const kReseedReasons[] = {"no-improvement", "taboo", "crowded"};

std::string reseedReasonName(NewRestart::Reason reason) {
  return kReseedReasons[static_cast<int>(reason)];
}

// Counters, step size, random state, the Markov state, NEWRESTART and AVOID of one chain, and a
// reseed left pending by a stop request.
void appendChain(std::string& out, const BasinHoppingState& s) {
  out += "quench " + std::to_string(s.quench) + '\n';
  out += "function-calls " + std::to_string(s.functionCalls) + '\n';
  out += "restarts " + std::to_string(s.restarts) + '\n';
  out += "failed-quenches " + std::to_string(s.failedQuenches) + '\n';
  out += "target " + std::to_string(s.targetReached ? 1 : 0) + ' ' + std::to_string(s.targetQuench) +
         ' ' + std::to_string(s.targetFunctionCalls) + '\n';
  out += "step-size " + hex(s.stepSize) + '\n';
  out += "accepted-in-window " + std::to_string(s.acceptedInWindow) + '\n';
  out += "random " + s.random + '\n';
  out += "markov " + hex(s.markovEnergy) + ' ';
  appendVector(out, s.markov);
  out += '\n';
  appendSymmetrisation(out, s);
  const NewRestart::State& r = s.newRestart;
  out += "chain-best " + hex(r.best) + ' ' + std::to_string(r.bestStep) + ' ';
  appendVector(out, r.bestCoords);
  out += "\nchain-previous-best " + hex(r.previousBest) + ' ';
  appendVector(out, r.previousBestCoords);
  out += "\ntaboo " + std::to_string(r.tabooCoords.size()) + ' ' + std::to_string(r.tabooNext) + '\n';
  for (std::size_t i = 0; i < r.tabooCoords.size(); ++i) {
    out += "taboo-structure " + hex(r.tabooEnergies[i]) + ' ';
    appendVector(out, r.tabooCoords[i]);
    out += '\n';
  }
  if (!s.pendingReseedStart.empty()) {  // a reseed whose quench a stop request cut short
    out += "pending-reseed " + reseedReasonName(s.pendingReseed.reason) + ' ' +
           hex(s.pendingReseed.chainBestEnergy) + ' ';
    appendVector(out, s.pendingReseedStart);
    out += '\n';
  }
}

void appendCounts(std::string& out, const std::string& key, const std::vector<long>& counts) {
  out += key + ' ' + std::to_string(counts.size());
  for (long c : counts) out += ' ' + std::to_string(c);
  out += '\n';
}

// Thousands of walkers make tens of megabytes of text (about 21 kB per LJ75 walker), which one
// thread formats in about a second, a pause rank 0 of a multi-GPU run takes for every walker of
// every rank. Blocks of walkers are formatted on several threads and joined in walker order, so the
// bytes are those of one thread.
void appendChains(std::string& out, const std::vector<BasinHoppingState>& chains) {
  constexpr std::size_t kChainsPerBlock = 64;
  constexpr std::size_t kMaxThreads = 16;
  const std::size_t blocks = (chains.size() + kChainsPerBlock - 1) / kChainsPerBlock;
  const std::size_t threads =
      std::min<std::size_t>({std::thread::hardware_concurrency(), kMaxThreads, blocks});
  if (threads < 2) {
    for (const BasinHoppingState& w : chains) appendChain(out, w);
    return;
  }
  std::vector<std::string> text(blocks);
  ThreadPool pool(static_cast<int>(threads));
  pool.forEach(blocks, [&](std::size_t b) {
    const std::size_t end = std::min(chains.size(), (b + 1) * kChainsPerBlock);
    for (std::size_t i = b * kChainsPerBlock; i < end; ++i) appendChain(text[b], chains[i]);
  });
  std::size_t size = out.size();
  for (const std::string& t : text) size += t.size();
  out.reserve(size);
  for (const std::string& t : text) out += t;
}

// Walkers 1..W-1 and the replica exchange, after the single chain's lines.
void appendWalkers(std::string& out, const Checkpoint& c) {
  out += "walkers " + std::to_string(c.walkers()) + '\n';
  appendChains(out, c.otherWalkers);
  out += "exchanges " + std::to_string(c.exchanges ? 1 : 0) + '\n';
  if (!c.exchanges) return;
  out += "exchange-events " + std::to_string(c.exchange.events) + '\n';
  out += "exchange-random " + c.exchange.random + '\n';
  appendCounts(out, "exchange-attempts", c.exchange.attempts);
  appendCounts(out, "exchange-accepted", c.exchange.accepted);
}

}  // namespace

WalkerEnsembleState Checkpoint::walkerState() const {
  WalkerEnsembleState s;
  s.walkers.push_back(state);
  for (const BasinHoppingState& w : otherWalkers) s.walkers.push_back(w);
  s.exchanges = exchanges;
  s.exchange = exchange;
  return s;
}

void Checkpoint::setWalkerState(WalkerEnsembleState ensemble) {
  state = std::move(ensemble.walkers.front());
  otherWalkers.assign(std::make_move_iterator(ensemble.walkers.begin() + 1),
                      std::make_move_iterator(ensemble.walkers.end()));
  exchanges = ensemble.exchanges;
  exchange = std::move(ensemble.exchange);
}

std::string formatCheckpoint(const Checkpoint& c) {
  const BasinHoppingState& s = c.state;
  std::string out = std::string(kMagic) + ' ' + std::to_string(kCheckpointVersion) + '\n';
  out += "fingerprint " + std::to_string(c.fingerprint.size()) + '\n';
  for (const auto& [name, value] : c.fingerprint) {
    if (name.empty() || name.find_first_of(" \t\n") != std::string::npos ||
        value.find('\n') != std::string::npos)
      throw std::invalid_argument("checkpoint fingerprint entry '" + name +
                                  "': names need no blanks, values no line breaks");
    out += name + ' ' + value + '\n';
  }
  out += "steps " + std::to_string(c.steps) + '\n';
  appendChain(out, s);
  out += "lowest " + std::to_string(s.lowest.size()) + '\n';
  for (const StoredMinimum& m : s.lowest) {
    out += "minimum " + hex(m.energy) + ' ' + std::to_string(m.firstFoundStep) + ' ' +
           std::to_string(m.functionCalls) + ' ';
    appendVector(out, m.coordinates);
    out += '\n';
  }
  if (c.isWalkerRun()) appendWalkers(out, c);
  out += "end\n";
  return withChecksumLine(std::move(out));
}

void writeCheckpointFile(const std::string& path, const Checkpoint& checkpoint) {
  writeFileAtomically(path, formatCheckpoint(checkpoint), "basin-hopping checkpoint");
}

namespace {

// The version line, the fingerprint and the run's --steps.
void readHeader(CheckpointReader& in, Checkpoint& c, const std::string& path, bool sealed) {
  const long version = in.line(kMagic).integer();
  checkSealedVersion(path, version, kCheckpointVersion, sealed, "basin-hopping checkpoint");
  in.endLine();
  const long entries = in.line("fingerprint").integer();
  in.endLine();
  for (long i = 0; i < entries; ++i) {
    // A fingerprint line is "name value"; the value runs to the end of the line.
    const std::string text = in.raw("fingerprint entry " + std::to_string(i + 1));
    const std::size_t blank = text.find(' ');
    c.fingerprint.emplace_back(text.substr(0, blank),
                               blank == std::string::npos ? "" : text.substr(blank + 1));
  }
  c.steps = in.line("steps").integer();
  in.endLine();
}

void readSymmetrisation(CheckpointReader& in, Symmetrisation::State& y) {
  y.lastAttemptEnergy = in.line("symmetrisation").real(true);
  y.ordinaryStepOwed = in.integer() != 0;
  y.downhillStepsLeft = static_cast<int>(in.integer());
  y.quenched = static_cast<int>(in.integer());
  y.bestEnergy = in.real(true);
  const long candidates = in.integer();
  if (y.downhillStepsLeft < 0 || y.quenched < 0 || candidates < 0)
    in.fail("negative symmetrisation count");
  in.endLine();
  y.best = in.line("symmetrisation-best").vector();
  in.endLine();
  for (long i = 0; i < candidates; ++i) {
    y.candidates.push_back(in.line("symmetrisation-candidate").vector());
    in.endLine();
  }
  in.line("symmetrisation-detail");
  y.detail = in.rest();
}

// Counters, step size, random state and the Markov state.
void readChain(CheckpointReader& in, BasinHoppingState& s) {
  s.quench = in.line("quench").integer();
  in.endLine();
  s.functionCalls = in.line("function-calls").integer();
  in.endLine();
  s.restarts = in.line("restarts").integer();
  in.endLine();
  // Written since failed quenches are counted; a checkpoint without it has none.
  if (in.nextLineIs("failed-quenches")) {
    s.failedQuenches = in.line("failed-quenches").integer();
    in.endLine();
  }
  in.line("target");
  s.targetReached = in.integer() != 0;
  s.targetQuench = in.integer();
  s.targetFunctionCalls = in.integer();
  in.endLine();
  s.stepSize = in.line("step-size").real();
  in.endLine();
  s.acceptedInWindow = in.line("accepted-in-window").integer();
  in.endLine();
  in.line("random");
  s.random = in.rest();
  try {
    Random(0).restore(s.random);
  } catch (const std::invalid_argument& e) {
    in.fail(std::string("random: ") + e.what());
  }
  s.markovEnergy = in.line("markov").real(true);  // +inf until a quench succeeds
  s.markov = in.vector();
  in.endLine();
  if (in.nextLineIs("steps-in-window")) {  // a run with symmetrisation moves
    s.stepsInWindow = in.line("steps-in-window").integer();
    if (s.stepsInWindow < 0) in.fail("negative steps-in-window");
    in.endLine();
    readSymmetrisation(in, s.symmetrisation);
  }
}

// NEWRESTART's chain best and the AVOID taboo list.
void readNewRestart(CheckpointReader& in, NewRestart::State& r) {
  r.best = in.line("chain-best").real(true);
  r.bestStep = in.integer();
  r.bestCoords = in.vector();
  in.endLine();
  r.previousBest = in.line("chain-previous-best").real(true);
  r.previousBestCoords = in.vector();
  in.endLine();
  const long taboo = in.line("taboo").integer();
  const long next = in.integer();
  if (taboo < 0 || next < 0) in.fail("negative taboo count or position");
  r.tabooNext = static_cast<std::size_t>(next);
  in.endLine();
  for (long i = 0; i < taboo; ++i) {
    r.tabooEnergies.push_back(in.line("taboo-structure").real());
    r.tabooCoords.push_back(in.vector());
    in.endLine();
  }
}

// A reseed a stop request left pending (written only then).
void readPendingReseed(CheckpointReader& in, BasinHoppingState& s) {
  if (!in.nextLineIs("pending-reseed")) return;
  in.line("pending-reseed");
  const std::string reason = in.word();
  const auto* found = std::find(std::begin(kReseedReasons), std::end(kReseedReasons), reason);
  if (found == std::end(kReseedReasons))
    in.fail("pending-reseed: unknown reason " + quoteInput(reason));
  s.pendingReseed.reason = static_cast<NewRestart::Reason>(found - std::begin(kReseedReasons));
  s.pendingReseed.action = NewRestart::Action::Reseed;
  s.pendingReseed.chainBestEnergy = in.real(true);
  s.pendingReseedStart = in.vector();
  if (s.pendingReseedStart.size() != s.markov.size())
    in.fail("pending-reseed: " + std::to_string(s.pendingReseedStart.size()) +
            " coordinates, the Markov state has " + std::to_string(s.markov.size()));
  in.endLine();
}

std::vector<StoredMinimum> readLowest(CheckpointReader& in) {
  std::vector<StoredMinimum> minima;
  const long lowest = in.line("lowest").integer();
  if (lowest < 0) in.fail("negative count of minima");
  in.endLine();
  for (long i = 0; i < lowest; ++i) {
    StoredMinimum m;
    m.energy = in.line("minimum").real();
    m.firstFoundStep = in.integer();
    m.functionCalls = in.integer();
    m.coordinates = in.vector();
    in.endLine();
    minima.push_back(std::move(m));
  }
  return minima;
}

std::vector<long> readCounts(CheckpointReader& in, const std::string& key, long pairs) {
  const long n = in.line(key).integer();
  if (n != pairs) in.fail("'" + key + "' has " + std::to_string(n) + " pairs, expected " +
                          std::to_string(pairs));
  std::vector<long> counts;
  for (long i = 0; i < n; ++i) counts.push_back(in.integer());
  in.endLine();
  return counts;
}

// The walker section (a walker run's checkpoint): walkers 1..W-1, then the replica exchange.
void readWalkers(CheckpointReader& in, Checkpoint& c) {
  const long walkers = in.line("walkers").integer();
  if (walkers < 1) in.fail("the number of walkers must be at least 1");
  in.endLine();
  for (long w = 1; w < walkers; ++w) {
    BasinHoppingState s;
    readChain(in, s);
    readNewRestart(in, s.newRestart);
    readPendingReseed(in, s);
    c.otherWalkers.push_back(std::move(s));
  }
  c.exchanges = in.line("exchanges").integer() != 0;
  in.endLine();
  if (!c.exchanges) return;
  c.exchange.events = in.line("exchange-events").integer();
  in.endLine();
  in.line("exchange-random");
  c.exchange.random = in.rest();
  try {
    Random(0).restore(c.exchange.random);
  } catch (const std::invalid_argument& e) {
    in.fail(std::string("exchange-random: ") + e.what());
  }
  c.exchange.attempts = readCounts(in, "exchange-attempts", walkers - 1);
  c.exchange.accepted = readCounts(in, "exchange-accepted", walkers - 1);
}

}  // namespace

Checkpoint readCheckpointFile(const std::string& path) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error(path + ": no basin-hopping checkpoint here (is it the --output "
                                    "folder of a gmin run?)");
  std::string text = readWholeFile(path, "basin-hopping checkpoint");
  const bool sealed = removeCheckedChecksumLine(path, text);
  CheckpointReader in(path, text);
  Checkpoint c;
  readHeader(in, c, path, sealed);
  readChain(in, c.state);
  readNewRestart(in, c.state.newRestart);
  readPendingReseed(in, c.state);
  c.state.lowest = readLowest(in);
  if (in.nextLineIs("walkers")) readWalkers(in, c);
  in.line("end");
  return c;
}

void checkFingerprint(const std::string& path, const CheckpointFingerprint& saved,
                      const CheckpointFingerprint& current) {
  auto find = [](const CheckpointFingerprint& f, const std::string& name) -> const std::string* {
    for (const auto& [n, v] : f)
      if (n == name) return &v;
    return nullptr;
  };
  auto show = [](const std::string* v) { return v ? quoteInput(*v) : std::string("(not set)"); };
  for (const auto& [name, value] : current) {
    const std::string* old = find(saved, name);
    if (!old || *old != value)
      throw std::runtime_error(path + ": the checkpoint was made with " + name + " = " + show(old) +
                               ", this run has " + name + " = '" + value +
                               "'; resume with the original options");
  }
  for (const auto& [name, value] : saved)
    if (!find(current, name))
      throw std::runtime_error(path + ": the checkpoint was made with " + printableInput(name) +
                               " = " + quoteInput(value) + ", this run has no " +
                               printableInput(name));
}

}  // namespace landscape
