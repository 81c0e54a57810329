// GMIN's L-BFGS (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, Algorithms 1-3): its
// parameters and one minimisation of a Potential, with the vector work on the CPU or,
// lbfgs_backend='gpu', entirely on the device.
#include <nanobind/stl/string.h>

#include "backends/LbfgsWorkspaceFactory.h"
#include "landscape/minimisation/Lbfgs.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/Params.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

void bindLbfgsParams(nb::module_& m) {
  using P = LbfgsParams;
  ParamsClass<P>(m, "LbfgsParams",
                 "GMIN's L-BFGS settings (docs/lbfgs.md). Lengths and energies in the "
                 "potential's units.")
      .field("history_size", &P::historySize, "m, stored {s, y} pairs (>= 1; GMIN's UPDATES)")
      .field("initial_guess", &P::initialGuess, "H0 of the first step (length^2/energy; DGUESS)")
      .field("max_step", &P::maxStep, "cap on the step length (length; MAXBFGS)")
      .field("max_rise", &P::maxRise, "largest energy rise accepted on a step (energy; MAXERISE)")
      .field("max_backtracks", &P::maxBacktracks, "divisions of the step by 10 before a reset")
      .field("max_iterations", &P::maxIterations, "iteration cap")
      .field("rms_tolerance", &P::rmsTolerance,
             "converged when sqrt(|g|^2 / n) < this (energy/length)")
      .field("use_diagonal_metric", &P::useDiagonalMetric,
             "precondition rigid bodies with their diagonal metric")
      .done();
}

void bindLbfgsResult(nb::module_& m) {
  nb::class_<LbfgsResult>(m, "LbfgsResult", "How one L-BFGS minimisation ended.")
      .def_ro("energy", &LbfgsResult::energy, "final energy (energy unit)")
      .def_ro("rms_gradient", &LbfgsResult::rmsGradient, "final RMS gradient (energy/length)")
      .def_ro("iterations", &LbfgsResult::iterations)
      .def_ro("function_calls", &LbfgsResult::functionCalls, "energy + gradient evaluations")
      .def_prop_ro(
          "status", [](const LbfgsResult& r) { return lbfgsStatusName(r.status); },
          "'converged', 'iteration limit', 'energy rose along steepest descent' or 'non-finite "
          "energy'")
      .def_prop_ro("converged", &LbfgsResult::converged)
      .def("__repr__", [](const LbfgsResult& r) {
        return "LbfgsResult(energy=" + std::to_string(r.energy) +
               ", rms_gradient=" + std::to_string(r.rmsGradient) +
               ", iterations=" + std::to_string(r.iterations) + ", status='" +
               lbfgsStatusName(r.status) + "')";
      });
}

nb::tuple minimise(Potential& potential, HostIn x, const LbfgsParams& params,
                   const std::string& lbfgsBackend, nb::object callback) {
  requireCoordinates(x.size(), potential.dimension(), shapeOf(x), "minimise", "x");
  requireFinite(x.data(), x.size(), "minimise", "x");
  std::vector<double> coordinates(x.data(), x.data() + x.size());
  Lbfgs::Observer observer;
  if (!callback.is_none()) {
    observer = [&callback](const LbfgsIteration& it) {
      callback(it.iteration, it.energy, it.rmsGradient);
    };
  }
  const LbfgsResult result = Lbfgs(params).minimize(
      potential, coordinates, lbfgsWorkspaceFactory(parseLbfgsBackend(lbfgsBackend)), observer);
  return nb::make_tuple(numpyFrom(std::move(coordinates), shapeOf(x)), result);
}

}  // namespace

void bindMinimisation(nb::module_& m) {
  bindLbfgsParams(m);
  bindLbfgsResult(m);
  m.def("minimise", &minimise, "potential"_a, "x"_a, "params"_a = LbfgsParams{},
        "lbfgs_backend"_a = "cpu", "callback"_a = nb::none(),
        "Minimises the potential from x with GMIN's L-BFGS; returns (x_min shaped like x, "
        "LbfgsResult). lbfgs_backend: 'cpu' (vectors on the host; the potential on its own "
        "backend) or 'gpu' (the whole L-BFGS on the device; needs a backend='cuda' potential). "
        "callback(iteration, energy, rms_gradient) runs after every iteration. A minimisation "
        "that did not converge is reported by result.status, never hidden.");
}

}  // namespace landscape::python
