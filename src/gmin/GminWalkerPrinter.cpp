#include "src/gmin/GminWalkerPrinter.h"

#include <cmath>
#include <cstdio>

#include "src/gmin/GminProgressPrinter.h"

namespace landscape {

namespace {

// Seconds between summary lines.
constexpr double kSummaryInterval = 1.0;

}  // namespace

GminWalkerPrinter::GminWalkerPrinter(bool quiet, bool verbose, const GminResultWriter& writer,
                                     std::string checkpointFile, Checkpoint checkpoint,
                                     GminStopRule& stopRule)
    : m_quiet(quiet),
      m_verbose(verbose && !quiet),
      m_writer(writer),
      m_checkpointFile(std::move(checkpointFile)),
      m_checkpoint(std::move(checkpoint)),
      m_stopRule(stopRule) {}

void GminWalkerPrinter::onQuench(int walker, const QuenchReport& q) {
  if (!m_verbose) return;
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "W %5d ", walker);
  printQuenchLine(prefix, q, m_stopRule.elapsed());
}

void GminWalkerPrinter::onStepAdjust(int walker, const StepAdjustReport& s) {
  if (!m_verbose) return;
  std::printf("W %5d Acceptance ratio for previous quenches= %6.4f  step size now %8.4f\n", walker,
              s.acceptanceRatio, s.stepSize);
}

void GminWalkerPrinter::onRestart(int walker, const RestartReport& r) {
  if (!m_verbose) return;
  std::printf("W %5d newres> %s at quench %ld, chain best %.10f, Markov E %.10f\n", walker,
              r.reseeded ? "reseeded" : "step rejected", r.quench, r.chainBestEnergy,
              r.markovEnergy);
}

void GminWalkerPrinter::onSymmetrisation(int walker, const SymmetrisationReport& r) {
  if (!m_verbose) return;
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "W %5d ", walker);
  printSymmetrisationLine(prefix, r);
}

void GminWalkerPrinter::onRound(const WalkerRoundReport& r) {
  m_last = r;
  m_lastPrinted = false;
  const double now = m_stopRule.elapsed();
  if (m_quiet || (m_lastPrint >= 0.0 && now - m_lastPrint < kSummaryInterval)) return;
  m_lastPrint = now;
  printRound(r);
}

void GminWalkerPrinter::onTightQuench(const TightQuenchReport& t) {
  if (!m_quiet) printFinalQuenchLine(t, m_stopRule.elapsed());
}

void GminWalkerPrinter::printLastRound() {
  if (!m_quiet && !m_lastPrinted) printRound(m_last);
}

void GminWalkerPrinter::printRound(const WalkerRoundReport& r) {
  const double t = m_stopRule.elapsed();
  std::printf(
      "walkers: step %8ld  quenches %10ld (%9.1f/s)  best E= %17.10f  acceptance %.3f..%.3f "
      "(median %.3f)  failed %ld  reseeds %ld  t= %10.2f\n",
      r.round, r.quenches, t > 0.0 ? r.quenches / t : 0.0, r.bestEnergy, r.minAcceptance,
      r.maxAcceptance, r.medianAcceptance, r.failedQuenches, r.restarts, t);
  std::fflush(stdout);
  m_lastPrinted = true;
}

void GminWalkerPrinter::onState(const WalkerEnsembleState& state) {
  m_checkpoint.setWalkerState(state);
  writeCheckpointFile(m_checkpointFile, m_checkpoint);
}

}  // namespace landscape
