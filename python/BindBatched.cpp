// The batched engine (docs/batched.md) on (B, atoms, 3) arrays: B structures of one
// system evaluated or minimised together, on the CPU (threads), the CPU twin or the GPU.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>

#include "backends/BatchedMinimiserFactory.h"
#include "landscape/minimisation/BatchedLbfgs.h"
#include "landscape/search/PairModelHooks.h"
#include "landscape/search/WalkerEnsemble.h"
#include "python/Arrays.h"
#include "python/Bindings.h"
#include "python/DeviceArrays.h"
#include "python/PairModels.h"
#include "python/PythonPotential.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

/// B for an array of shape (B, ...) holding B structures of n values; throws otherwise.
std::size_t batchOf(const HostIn& x, std::size_t n, const char* what) {
  if (x.ndim() < 2 || x.shape(0) * n != x.size())
    throw std::invalid_argument(std::string(what) + ": x has shape " + shapeText(shapeOf(x)) +
                                " but (B, " + std::to_string(n / 3) + ", 3) is needed");
  return x.shape(0);
}

nb::tuple batchedEnergyGradient(BatchedPotential& p, HostIn x, nb::object out) {
  const std::size_t n = p.dimension(), batch = batchOf(x, n, "energy_gradient");
  if (!out.is_none()) {  // written in place (a model's out=), handed back as the caller's objects
    HostOut e, g;
    if (!nb::isinstance<nb::tuple>(out) || nb::len(out) != 2 || !nb::try_cast(out[0], e, false) ||
        !nb::try_cast(out[1], g, false))
      throw std::invalid_argument(
          "energy_gradient: out must be (energies, gradients), C-contiguous float64 arrays");
    if (e.size() != batch || g.size() != x.size())
      throw std::invalid_argument("energy_gradient: out holds arrays of shapes " +
                                  shapeText(shapeOf(e)) + " and " + shapeText(shapeOf(g)) +
                                  " but (" + std::to_string(batch) + ",) and " +
                                  shapeText(shapeOf(x)) + " are needed");
    p.energyGradient(batch, x.data(), g.data(), e.data(), nullptr);
    return nb::borrow<nb::tuple>(out);
  }
  std::vector<double> g(batch * n), e(batch);
  p.energyGradient(batch, x.data(), g.data(), e.data(), nullptr);
  return nb::make_tuple(numpyFrom(std::move(e), {batch}), numpyFrom(std::move(g), shapeOf(x)));
}

nb::tuple batchedMinimise(BatchedMinimiser& minimiser, HostIn x) {
  const std::size_t n = minimiser.dimension(), batch = batchOf(x, n, "minimise");
  std::vector<double> coordinates(x.data(), x.data() + x.size());
  std::vector<LbfgsResult> results(batch);
  minimiser.minimise(batch, coordinates.data(), results.data());
  std::vector<double> energy(batch), rms(batch), iterations(batch), calls(batch);
  nb::list status;
  for (std::size_t b = 0; b < batch; ++b) {
    energy[b] = results[b].energy;
    rms[b] = results[b].rmsGradient;
    iterations[b] = results[b].iterations;
    calls[b] = static_cast<double>(results[b].functionCalls);
    status.append(lbfgsStatusName(results[b].status));
  }
  nb::dict out;
  out["energy"] = numpyFrom(std::move(energy), {batch});
  out["rms_gradient"] = numpyFrom(std::move(rms), {batch});
  out["iterations"] = numpyFrom(std::move(iterations), {batch});
  out["function_calls"] = numpyFrom(std::move(calls), {batch});
  out["status"] = status;
  return nb::make_tuple(numpyFrom(std::move(coordinates), shapeOf(x)), out);
}

// 'reference': BatchedLbfgs on the host entry point; 'rounds': the round-based engine on the
// device entry point (a device-resident potential).
std::unique_ptr<BatchedMinimiser> minimiserOver(BatchedPotential& potential,
                                                const LbfgsParams& params,
                                                const std::string& engine) {
  if (engine == "reference") return std::make_unique<BatchedLbfgs>(potential, params, 1);
  if (engine == "rounds") {
    if (!potential.isDeviceResident())
      throw std::invalid_argument("engine 'rounds': " + potential.name() +
                                  " has no device entry (a BatchedPotential(device=True) model "
                                  "or backend='cuda'); use engine='reference'");
    return makeBatchedMinimiserOver(potential, params, Backend::Cuda, {BatchedEngine::Rounds});
  }
  throw std::invalid_argument("engine must be 'reference' or 'rounds', not '" + engine + "'");
}

// One structure at a time through a batched potential: what the walkers' host side (random
// starts, hooks) needs of a model that only evaluates batches.
class OneOfBatch : public Potential {
 public:
  explicit OneOfBatch(BatchedPotential& batched)
      : m_batched(batched), m_gradient(batched.dimension()) {}
  std::size_t dimension() const override { return m_batched.dimension(); }
  std::string name() const override { return m_batched.name(); }
  double energy(const double* x) override { return energyGradient(x, m_gradient.data()); }
  double energyGradient(const double* x, double* g) override {
    double energy = 0.0;
    m_batched.energyGradient(1, x, g, &energy, nullptr);
    return energy;
  }

 private:
  BatchedPotential& m_batched;
  std::vector<double> m_gradient;
};

// gmin's walkers over any batched potential: W GMIN chains whose trial structures are quenched
// together, one batched L-BFGS (the CPU reference engine) per round.
BasinHoppingResult walkers(BatchedPotential& batched,
                           const std::optional<BasinHoppingParams>& given, int count,
                           std::optional<HostIn> start, const std::string& engine) {
  // A periodic pair system: gmin's cluster defaults without what assumes a cluster, and given
  // settings that cannot work in a box refused (python/PairModels.h).
  const PairModel* model = pairModelOf(batched);
  const bool box = model && model->box.periodic();
  const BasinHoppingParams params = given ? *given
                                    : box ? boxBasinHoppingParams(gminLj38ExampleParams())
                                          : gminLj38ExampleParams();
  if (model) requireBoxBasinHopping(*model, params, "walkers");
  std::vector<double> x;
  if (start) {
    requireCoordinates(start->size(), batched.dimension(), shapeOf(*start), "walkers", "start");
    requireFinite(start->data(), start->size(), "walkers", "start");
    x.assign(start->data(), start->data() + start->size());
  }
  OneOfBatch potential(batched);
  WalkerEnsemble ensemble(potential, params, count, ParallelTemperingParams{},
                          [&batched, &engine](const LbfgsParams& quench) {
                            return minimiserOver(batched, quench, engine);
                          },
                          model ? pairModelHooks(*model) : BasinHoppingHooks{});
  return ensemble.run(x).total;
}

}  // namespace

void bindBatched(nb::module_& m) {
  // dynamic_attr: batched_pair_potential records its PairModel on the object (BindPairs.cpp).
  nb::class_<BatchedPotential, PythonBatchedPotential>(
      m, "BatchedPotential", nb::dynamic_attr(),
      "B structures of one system evaluated together; units as the single-structure potential.\n\n"
      "Subclass it to bring a batched model of your own to the batched engine "
      "(batched_minimiser_over): call super().__init__(dimension, name) and define "
      "energy_gradient(self, X) -> (energies, gradients), X a new float64 array (B, atoms, 3) "
      "of the structures still minimising, energies (B,) and gradients shaped like X, float64 "
      "numpy arrays. Or define energy_gradient(self, X, out) (or set fills_out = True) to "
      "write into the engine's own arrays, out = (energies, gradients): no allocation and no "
      "copy per call (on the GPU most of what a call costs beyond the model's arithmetic); "
      "energies left unwritten read as NaN. landscape.FunctionBatchedPotential wraps a plain "
      "function.")
      .def(nb::init<std::size_t, std::string, bool>(), "dimension"_a,
           "name"_a = "Python batched potential", "device"_a = false,
           "A batched potential written in Python of `dimension` values per structure. "
           "device=True: a model on the GPU, called with the engine's CUDA arrays (DLPack, "
           "valid during the call only) and returning CUDA arrays (CuPy, PyTorch, JAX); "
           "engine='rounds' then keeps the L-BFGS and its decisions on the device.")
      .def_prop_ro("dimension", &BatchedPotential::dimension, "values per structure (3 x atoms)")
      .def_prop_ro("name", &BatchedPotential::name)
      .def_prop_ro("backend", [](const BatchedPotential& p) { return backendName(p.backend()); })
      .def_prop_ro(
          "pair_model",
          [](nb::handle_t<BatchedPotential> self) {
            return nb::getattr(self, "_pair_model", nb::none());
          },
          "The PairModel of landscape.batched_pair_potential; None for other batched potentials.")
      .def("energy_gradient", &batchedEnergyGradient, "x"_a, "out"_a = nb::none(),
           "(energies [B], gradients shaped like x) for host coordinates x of shape (B, atoms, "
           "3): new arrays, or written into out=(energies, gradients) (float64, C order), "
           "which is returned.")
      .def("energy_gradient", &deviceBatchedEnergyGradient, "x"_a, "out"_a = nb::none(),
           "The same on a CUDA device array (backend='cuda'): new device arrays, or written "
           "into out=(energies, gradients) (CUDA arrays).");
  m.def(
      "batched_lennard_jones",
      [](std::size_t atoms, const std::string& backend, int threads) {
        BatchedSystem system{atoms};
        BatchedEngineOptions options;
        options.threads = threads;
        return makeBatchedPotential(system, parseBackend(backend), options);
      },
      "atoms"_a, "backend"_a = "cpu", "threads"_a = 1,
      "Batched Lennard-Jones clusters (reduced units). backend: 'cpu' or 'cuda'.");

  nb::class_<BatchedMinimiser>(m, "BatchedMinimiser",
                               "GMIN's L-BFGS on B structures at once, each exactly as alone.")
      .def_prop_ro("name", &BatchedMinimiser::name)
      .def_prop_ro("dimension", &BatchedMinimiser::dimension)
      .def_prop_ro("params", &BatchedMinimiser::params)
      .def_prop_ro("max_batch", &BatchedMinimiser::maxBatch, "largest batch that fits now")
      .def("minimise", &batchedMinimise, "x"_a,
           "Minimises every structure of x (B, atoms, 3); returns (minima shaped like x, dict of "
           "per-structure arrays energy, rms_gradient, iterations, function_calls and a list "
           "status).");
  m.def(
      "batched_minimiser",
      [](std::size_t atoms, const LbfgsParams& params, const std::string& backend,
         const std::string& engine, int threads) {
        BatchedSystem system{atoms};
        BatchedEngineOptions options;
        const Backend where = parseBackend(backend);
        options.engine = engine.empty() ? (where == Backend::Cuda ? BatchedEngine::Team
                                                                  : BatchedEngine::Reference)
                                        : parseBatchedEngine(engine);
        options.threads = threads;
        return makeBatchedMinimiser(system, params, where, options);
      },
      "atoms"_a, "params"_a = LbfgsParams{}, "backend"_a = "cpu", "engine"_a = "", "threads"_a = 1,
      "Batched L-BFGS for Lennard-Jones clusters of `atoms` atoms. backend: 'cpu' or 'cuda'. "
      "engine: 'reference' (cpu only: each structure bit for bit as landscape.minimise; the "
      "default on cpu), 'team' (the GPU kernel, or on cpu its arithmetic order; the default on "
      "cuda) or 'rounds' (the round-based engine).");
  m.def(
      "batched_minimiser_over",
      [](BatchedPotential& potential, const LbfgsParams& params, const std::string& engine) {
        return minimiserOver(potential, params, engine);
      },
      "potential"_a, "params"_a = LbfgsParams{}, "engine"_a = "reference", nb::keep_alive<0, 1>(),
      "GMIN's L-BFGS on B structures at once over any batched potential, your own subclass of "
      "BatchedPotential included: each round asks the potential for every structure still "
      "minimising in one call, and each structure runs exactly as landscape.minimise would on "
      "its energies. engine: 'reference' (the CPU reference engine, its vector work on the "
      "calling thread) or 'rounds' (the round-based engine on the device: for a device model, "
      "BatchedPotential(device=True), or a batched potential with backend='cuda').");
  m.def("walkers", &walkers, "potential"_a, "params"_a = nb::none(), "walkers"_a = 64,
        "start"_a = nb::none(), "engine"_a = "reference",
        "gmin's basin-hopping walkers over a batched potential (your own BatchedPotential "
        "included): `walkers` GMIN Markov chains, each with its own seed stream, step size, "
        "Metropolis test and NEWRESTART/AVOID state, whose trial structures are quenched "
        "together by one batched L-BFGS per round (one call of the potential per L-BFGS "
        "round); one shared list of the lowest minima, re-quenched tightly at the end. params: "
        "gmin's cluster defaults (BasinHoppingParams.gmin_lj38_example()) when not given (for a "
        "periodic batched_pair_potential without the container and angular moves, as gmin --box; "
        "a pair model's species and box reach the comparisons, random starts and reseeds as in "
        "basin_hopping); "
        "params.steps rounds; engine as batched_minimiser_over's. Returns a BasinHoppingResult "
        "(totals over the walkers).");
}

}  // namespace landscape::python
