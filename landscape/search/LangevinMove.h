#pragma once
// Basin-hopping perturbation "a short Langevin run at temperature T_md for n steps before the
// quench": overdamped Langevin dynamics (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B
// 2011, eq 1, landscape/dynamics/Langevin.h) from the current minimum, on the potential's own
// backend (CUDA when it is device-resident).
//
// Reproducible: the random force of a move is a pure function of (params.seed, stream), so a run
// that passes the quench number as `stream` perturbs identically on every rerun, and every quench
// gets a different noise history. With the default Philox generator the CPU and CUDA backends
// draw the same numbers.
#include <cstdint>
#include <memory>
#include <vector>

#include "landscape/dynamics/Langevin.h"
#include "potentials/Potential.h"

namespace landscape {

class LangevinMove {
 public:
  /// params.kT is T_md (kT in the potential's energy unit), params.steps the number of steps n,
  /// params.timeStep dt, params.friction xi, params.generator and params.seed the noise.
  /// factory builds the integrator (backends/LangevinFactory: the potential's own backend); empty:
  /// LangevinCpu. Throws std::invalid_argument if params.check() fails.
  explicit LangevinMove(const LangevinParams& params, LangevinIntegratorFactory factory = {});
  ~LangevinMove();
  LangevinMove(LangevinMove&&) noexcept;
  LangevinMove& operator=(LangevinMove&&) noexcept;

  const LangevinParams& params() const { return m_params; }

  /// Runs params().steps Langevin steps from x (potential.dimension() coordinates), replacing x by
  /// the end point. Throws std::invalid_argument for a wrong x size and std::runtime_error if the
  /// run leaves non-finite coordinates (time step too large for the potential's stiffness).
  void perturb(Potential& potential, std::vector<double>& x, std::uint64_t stream);

  /// The seed of the random streams used for `stream` (the integrator is reseeded with it).
  std::uint64_t streamSeed(std::uint64_t stream) const;

 private:
  LangevinParams m_params;
  LangevinIntegratorFactory m_factory;
  Potential* m_potential = nullptr;                  // the potential m_integrator was built for
  std::unique_ptr<LangevinIntegrator> m_integrator;  // kept between moves (device buffers)
};

}  // namespace landscape
