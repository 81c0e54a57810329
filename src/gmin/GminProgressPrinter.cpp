#include "src/gmin/GminProgressPrinter.h"

#include <cstdio>

namespace landscape {

GminProgressPrinter::GminProgressPrinter(bool quiet, const GminResultWriter& writer,
                                         std::string checkpointFile,
                                         CheckpointFingerprint fingerprint, long steps,
                                         GminStopRule& stopRule)
    : m_quiet(quiet),
      m_writer(writer),
      m_checkpointFile(std::move(checkpointFile)),
      m_fingerprint(std::move(fingerprint)),
      m_steps(steps),
      m_stopRule(stopRule) {}

void printQuenchLine(const char* prefix, const QuenchReport& q, double elapsedSeconds) {
  std::printf(
      "%sQu %8ld E= %17.10f steps= %5d RMS= %9.2E Markov E= %17.10f t= %10.2f%s%s\n", prefix,
      q.quench, q.energy, q.lbfgsIterations, q.rmsGradient, q.markovEnergy, elapsedSeconds,
      q.status == LbfgsStatus::Converged ? "" : ("  (" + lbfgsStatusName(q.status) + ")").c_str(),
      q.symmetrisation ? "  in symmetrisation" : "");
  if (q.failed)
    std::printf("%s   step rejected: %s (%ld failed so far)\n", prefix, q.rejectReason.c_str(),
                q.failedQuenches);
  else if (q.evaporated)
    std::printf("%s   step rejected: %s\n", prefix, q.rejectReason.c_str());
}

void GminProgressPrinter::onQuench(const QuenchReport& q) {
  if (!m_quiet) printQuenchLine("", q, m_stopRule.elapsed());
}

void GminProgressPrinter::onStepAdjust(const StepAdjustReport& s) {
  if (m_quiet) return;
  std::printf("Acceptance ratio for previous quenches= %6.4f  step size now %8.4f\n",
              s.acceptanceRatio, s.stepSize);
}

void GminProgressPrinter::onRestart(const RestartReport& r) {
  if (m_quiet) return;
  const char* why = r.reason == RestartReport::Reason::Taboo
                        ? "new best within the AVOID distance of a taboo structure"
                    : r.reason == RestartReport::Reason::Crowded
                        ? "crowded (more walkers than --crowd-limit on this minimum)"
                        : "no improvement for NEWRESTART quenches";
  if (r.reseeded)
    std::printf(
        "newres> %s: reseeded at quench %ld, chain best %.10f, new Markov E %.10f, "
        "taboo list %zu\n",
        why, r.quench, r.chainBestEnergy, r.markovEnergy, r.tabooSize);
  else
    std::printf("newres> %s: step %ld rejected, taboo list %zu\n", why, r.quench, r.tabooSize);
}

void GminProgressPrinter::onSymmetrisation(const SymmetrisationReport& r) {
  if (!m_quiet) printSymmetrisationLine("", r);
}

// GMIN's "symmetrise> changing current minimum" lines, with what the attempt found.
void printSymmetrisationLine(const char* prefix, const SymmetrisationReport& r) {
  char best[64] = "none";
  if (r.candidates > 0 && r.bestEnergy < 1e300) std::snprintf(best, sizeof best, "%.10f", r.bestEnergy);
  std::printf("%s%s> %s: %d quenches, lowest %s, %s Markov E %.10f\n", prefix, r.scheme.c_str(),
              r.detail.c_str(), r.candidates, best, r.changedMarkov ? "new" : "kept",
              r.markovEnergy);
}

// GMIN prints its TIGHTCONV re-quench as "Final Quench" lines; a long one (90 s on trpcage) is
// no longer silent.
void GminProgressPrinter::onTightQuench(const TightQuenchReport& t) {
  if (!m_quiet) printFinalQuenchLine(t, m_stopRule.elapsed());
}

void printFinalQuenchLine(const TightQuenchReport& t, double elapsed) {
  std::printf("Final Quench %5zu of %zu E= %17.10f steps= %5d RMS= %9.2E t= %10.2f%s\n", t.index,
              t.count, t.energy, t.lbfgsIterations, t.rmsGradient, elapsed,
              t.failure.empty() ? "" : ("  failed, kept as saved: " + t.failure).c_str());
}

void GminProgressPrinter::onState(const BasinHoppingState& state) {
  writeCheckpointFile(m_checkpointFile, {m_fingerprint, m_steps, state});
}

}  // namespace landscape
