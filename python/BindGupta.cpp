// Gupta (second-moment tight-binding) metal clusters from Python (potentials/GuptaPotential.h,
// docs/gupta.md): the potential of given parameters or of a named metal of Cleri and Rosato's
// table, and its batched form, built through the factories with a backend as every built-in
// potential is (backend='cuda': gpu/GuptaCuda and gpu/BatchedGuptaCuda). A cluster of one kind of
// atom, so basin_hopping, the minimisers, connect and the walkers take it as they take
// lennard_jones.
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "backends/BatchedPotentialFactory.h"
#include "backends/PotentialFactory.h"
#include "python/Bindings.h"

namespace landscape::python {

namespace {

using namespace nb::literals;

constexpr const char* kUnits =
    " Energies in the unit of A and xi (eV for the named metals), lengths in that of r0; the named "
    "metals have r0 = 1 unless given (GMIN's reduced lengths: the bulk nearest-neighbour "
    "distance).";

PotentialSpec guptaSpec(long long atoms, const GuptaParams& params, const char* what) {
  if (atoms < 2)
    throw std::invalid_argument(std::string(what) + ": atoms must be >= 2, not " +
                                std::to_string(atoms));
  PotentialSpec spec;
  spec.kind = PotentialSpec::Kind::Gupta;
  spec.atoms = static_cast<std::size_t>(atoms);
  spec.gupta = params;
  return spec;
}

GuptaParams paramsOf(double p, double q, double a, double xi, double r0) {
  GuptaParams params;
  params.p = p;
  params.q = q;
  params.a = a;
  params.xi = xi;
  params.r0 = r0;
  return params;
}

GuptaParams metalParams(const std::string& metal, double r0) {
  GuptaParams params = guptaMetalParams(parseGuptaMetal(metal));
  params.r0 = r0;
  return params;
}

}  // namespace

void bindGuptaPotentials(nb::module_& m) {
  m.def(
      "gupta",
      [](long long atoms, double p, double q, double a, double xi, double r0,
         const std::string& backend) {
        return makePotential(guptaSpec(atoms, paramsOf(p, q, a, xi, r0), "gupta"),
                             parseBackend(backend));
      },
      "atoms"_a, "p"_a, "q"_a, "a"_a, "xi"_a, "r0"_a = 1.0, "backend"_a = "cpu",
      (std::string("Gupta cluster (Cleri and Rosato, Phys. Rev. B 48, 22 (1993)): E = sum_i [a "
                   "sum_{j != i} exp(p (1 - r_ij/r0)) - xi sqrt(sum_{j != i} exp(2 q (1 - "
                   "r_ij/r0)))], every pair, no cutoff. p, q > 0; a, xi >= 0. backend: 'cpu' or "
                   "'cuda'.") +
       kUnits)
          .c_str());
  m.def(
      "gupta_metal",
      [](long long atoms, const std::string& metal, double r0, const std::string& backend) {
        return makePotential(guptaSpec(atoms, metalParams(metal, r0), "gupta_metal"),
                             parseBackend(backend));
      },
      "atoms"_a, "metal"_a, "r0"_a = 1.0, "backend"_a = "cpu",
      (std::string("Gupta cluster of a metal of Cleri and Rosato's table: 'Ni', 'Cu', 'Pd', 'Pt' "
                   "or 'Au' (docs/gupta.md lists the numbers). backend: 'cpu' or 'cuda'.") +
       kUnits)
          .c_str());
  m.def(
      "gupta_metal_parameters",
      [](const std::string& metal) {
        const GuptaParams p = guptaMetalParams(parseGuptaMetal(metal));
        nb::dict d;
        d["p"] = p.p;
        d["q"] = p.q;
        d["a"] = p.a;
        d["xi"] = p.xi;
        d["r0"] = p.r0;
        return d;
      },
      "metal"_a,
      "The parameters of a named metal as a dict (p, q, a, xi in eV, r0 = 1): those gmin's "
      "--gupta METAL and GMIN's GUPTA keyword use.");
  m.def(
      "batched_gupta",
      [](long long atoms, double p, double q, double a, double xi, double r0,
         const std::string& backend, int threads) {
        BatchedPotentialOptions options;
        options.threads = threads;
        return makeBatchedPotentialForSpec(
            guptaSpec(atoms, paramsOf(p, q, a, xi, r0), "batched_gupta"), parseBackend(backend),
            options);
      },
      "atoms"_a, "p"_a, "q"_a, "a"_a, "xi"_a, "r0"_a = 1.0, "backend"_a = "cpu", "threads"_a = 1,
      (std::string("The batched Gupta potential (B structures per call, (B, atoms, 3)) for "
                   "batched_minimiser_over and walkers. backend 'cpu': `threads` copies of the "
                   "CPU potential, each structure's energy and gradient its bits; 'cuda': "
                   "gpu/BatchedGuptaCuda, a block per structure.") +
       kUnits)
          .c_str());
}

}  // namespace landscape::python
