// The C++ side of tools/bench_python.py: the same potential's energy+gradient timed in a C++ loop,
// so that the binding overhead per call (Python time - this) is measured on one object and one x.
#include <chrono>
#include <stdexcept>
#include <vector>

#include "python/Arrays.h"
#include "python/Bindings.h"
#include "potentials/Potential.h"

namespace landscape::python {

void bindBenchmark(nb::module_& m) {
  using namespace nb::literals;
  m.def(
      "time_energy_gradient",
      [](Potential& p, HostIn x, long calls) {
        requireCoordinates(x.size(), p.dimension(), shapeOf(x), "time_energy_gradient", "x");
        if (calls < 1) throw std::invalid_argument("time_energy_gradient: calls must be >= 1");
        std::vector<double> g(p.dimension());
        double sink = 0.0;
        nb::gil_scoped_release unlocked;
        const auto start = std::chrono::steady_clock::now();
        for (long k = 0; k < calls; ++k) sink += p.energyGradient(x.data(), g.data());
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        volatile double keep = sink;
        (void)keep;
        return elapsed.count() / static_cast<double>(calls);
      },
      "potential"_a, "x"_a, "calls"_a,
      "Seconds per energy_gradient call of `potential` at x, timed in C++ over `calls` calls "
      "(tools/bench_python.py compares it with the call from Python).");
}

}  // namespace landscape::python
