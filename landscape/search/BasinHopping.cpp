#include "landscape/search/BasinHopping.h"

#include <limits>
#include <stdexcept>

#include "landscape/core/StopRequest.h"
#include "landscape/geometry/ClusterGeometry.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"
#include "landscape/search/BasinHoppingRun.h"

namespace landscape {

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
  // No saved minimum is a valid state: every quench so far may have failed.
  if (state.quench < 0 || state.stepSize <= 0.0)
    throw std::invalid_argument("basin-hopping state: needs quench >= 0 and step size > 0");
  return runFrom({}, &state, observer);
}

BasinHoppingResult BasinHopping::runFrom(std::vector<double> start,
                                         const BasinHoppingState* resumed,
                                         BasinHoppingObserver* observer) {
  BasinHoppingObserver silent;
  BasinHoppingObserver& report = observer ? *observer : silent;
  BasinHoppingRun run(m_potential, m_params, m_hooks, m_radius, m_workspaceFactory, report);
  const long firstStep = resumed ? run.restore(*resumed) : run.begin(std::move(start));
  // A run stopped in a reseed quench finishes that reseed first.
  const bool going = !resumed || run.completePendingReseed();
  for (long step = firstStep; going && step <= m_params.steps && !run.targetReached(); ++step) {
    if (report.stopRequested() || landscape::stopRequested()) {
      run.stopEarly();
      break;
    }
    run.step(step);
  }
  if (run.started()) report.onState(run.state());
  return run.finish();
}

}  // namespace landscape
