#include "landscape/minimisation/ParallelLbfgs.h"

#include <atomic>
#include <stdexcept>

#include "landscape/minimisation/LbfgsCpuWorkspace.h"

namespace landscape {

namespace {

std::size_t commonDimension(const std::vector<Potential*>& potentials) {
  if (potentials.empty()) throw std::invalid_argument("ParallelLbfgs needs at least one potential");
  for (const Potential* p : potentials)
    if (!p || p->dimension() != potentials.front()->dimension())
      throw std::invalid_argument("ParallelLbfgs: the potentials must be of one system");
  return potentials.front()->dimension();
}

}  // namespace

ParallelLbfgs::ParallelLbfgs(std::vector<Potential*> potentials, const LbfgsParams& params,
                             LbfgsWorkspaceFactory workspaceFactory)
    : m_dimension(commonDimension(potentials)),
      m_params(params),
      m_lbfgs(params),
      m_pool(static_cast<int>(potentials.size())) {
  if (!workspaceFactory)
    workspaceFactory = [](Potential& p, int m) -> std::unique_ptr<LbfgsWorkspace> {
      return std::make_unique<LbfgsCpuWorkspace>(p, m);
    };
  for (Potential* p : potentials) m_workspaces.push_back(workspaceFactory(*p, params.historySize));
}

std::string ParallelLbfgs::name() const {
  const int t = threads();
  return "parallel L-BFGS (cpu, " + std::to_string(t) + (t == 1 ? " thread)" : " threads)");
}

BatchMemory ParallelLbfgs::memory() const {
  BatchMemory memory;
  memory.bytesPerStructure = sizeof(double) * m_dimension + sizeof(LbfgsResult);
  memory.availableBytes = halfThePhysicalMemory();
  memory.where = kHostBatchMemory;
  return memory;
}

void ParallelLbfgs::minimise(std::size_t batch, double* x, LbfgsResult* results) {
  requireBatchFits(batch, memory());
  std::atomic<std::size_t> next{0};
  // Item t is thread slot t: it owns workspace t and pulls structures until the batch is done.
  m_pool.forEach(m_workspaces.size(), [&](std::size_t slot) {
    LbfgsWorkspace& workspace = *m_workspaces[slot];
    for (std::size_t b = next++; b < batch; b = next++) {
      double* xb = x + b * m_dimension;
      workspace.setCoordinates(xb);
      const LbfgsResult r = m_lbfgs.minimize(workspace);
      workspace.getCoordinates(xb);
      results[b] = r;
    }
  });
}

}  // namespace landscape
