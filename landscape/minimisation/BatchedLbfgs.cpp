#include "landscape/minimisation/BatchedLbfgs.h"

#include <algorithm>
#include <cstring>

#include "landscape/core/StopRequest.h"

namespace landscape {

BatchedLbfgs::BatchedLbfgs(BatchedPotential& potential, const LbfgsParams& params, int threads)
    : m_potential(potential),
      m_params(params),
      m_pool(threads),
      m_gradientMetric(potential.hasGradientMetric()) {
  m_params.check();
  std::vector<double> w;
  if (m_params.useDiagonalMetric && m_potential.diagonalMetric(w))
    m_metric = lbfgsDiagonalMetric(w, m_potential.dimension(), m_potential.name());
}

std::string BatchedLbfgs::name() const {
  return "batched L-BFGS (cpu reference, " + std::to_string(m_pool.threads()) + " threads) on " +
         m_potential.name();
}

BatchMemory BatchedLbfgs::memory() const {
  const std::size_t n = dimension(), m = static_cast<std::size_t>(m_params.historySize);
  BatchMemory memory;
  // Run: x, g, p, trial x and g, s and y, rho and alpha; round: point, gradient, energy, RMS,
  // mask.
  memory.bytesPerStructure = sizeof(double) * ((5 + 2 * m) * n + 2 * m + 2 * n + 2) + 1 +
                             sizeof(LbfgsStructureRun) + sizeof(LbfgsResult);
  memory.availableBytes = halfThePhysicalMemory();
  memory.where = kHostBatchMemory;
  return memory;
}

void BatchedLbfgs::prepare(std::size_t batch, const double* x) {
  const std::size_t n = dimension();
  const int dim = static_cast<int>(n);
  while (m_runs.size() < batch)
    m_runs.push_back(
        std::make_unique<LbfgsStructureRun>(dim, m_params, &m_metric, m_gradientMetric));
  m_points.resize(batch * n);
  m_gradients.resize(batch * n);
  m_energies.resize(batch);
  m_rms.assign(batch, 0.0);
  m_active.assign(batch, 1);
  m_pool.forEach(batch, [&](std::size_t b) {
    m_runs[b]->start(x + b * n);
    stage(b);
  });
}

// Copies run b's next point into the round's array (a bit copy: the potential sees the run's own
// doubles), or takes b out of the round when its minimisation has ended.
void BatchedLbfgs::stage(std::size_t b) {
  const std::size_t n = dimension();
  m_active[b] = m_runs[b]->needsEvaluation() ? 1 : 0;
  if (m_active[b]) std::memcpy(&m_points[b * n], m_runs[b]->trialPoint(), n * sizeof(double));
}

void BatchedLbfgs::minimise(std::size_t batch, double* x, LbfgsResult* results) {
  requireBatchFits(batch, memory());
  if (batch == 0) return;
  const std::size_t n = dimension();
  prepare(batch, x);
  // One potential call and one pass over the runs per round. A stop request (StopRequest.h),
  // polled before every round, ends the unfinished runs with status Stopped.
  while (std::count(m_active.begin(), m_active.end(), 1) > 0) {
    if (stopRequested()) {
      for (std::size_t b = 0; b < batch; ++b) m_runs[b]->stop();
      break;
    }
    m_potential.energyGradient(batch, m_points.data(), m_gradients.data(), m_energies.data(),
                               m_active.data());
    if (m_gradientMetric)
      m_potential.rmsGradients(batch, m_points.data(), m_gradients.data(), m_rms.data(),
                               m_active.data());
    m_pool.forEach(batch, [&](std::size_t b) {
      if (!m_active[b]) return;
      LbfgsStructureRun& run = *m_runs[b];
      std::memcpy(run.trialGradient(), &m_gradients[b * n], n * sizeof(double));
      run.advance(m_energies[b], m_rms[b]);
      stage(b);
    });
  }
  m_pool.forEach(batch, [&](std::size_t b) {
    m_runs[b]->getCoordinates(x + b * n);
    results[b] = m_runs[b]->result();
  });
}

}  // namespace landscape
