#pragma once
// Overdamped Langevin dynamics, Ermak-McCammon / Euler-Maruyama (Zhmurov, Rybnikov, Kholodov and
// Barsegov, J. Phys. Chem. B 2011, eq 1):
//
//   x(t + dt) = x(t) - (dt / xi) dU/dx + sqrt(2 kT dt / xi) g,   g ~ N(0, 1) per coordinate,
//
// with any Potential as U. The random force of particle i (coordinates 3i..3i+2) at step k comes
// from stream i of a RandomStreams bank (four words, two Box-Muller pairs), so CPU and CUDA runs
// (gpu/LangevinCuda) with the same parameters draw the same numbers.
//
// Units: energies and kT in the potential's energy unit (reduced epsilon for Lennard-Jones,
// kcal/mol for AMBER/GB and SOP); lengths in its length unit; time in the caller's unit (ps for
// molecular potentials, reduced time for Lennard-Jones); the friction xi in
// energy x time / length^2, so that dt / xi is a mobility step (length^2 / energy) and kT / xi the
// diffusion coefficient (length^2 / time).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "landscape/dynamics/RandomStreams.h"
#include "potentials/Potential.h"
#include "landscape/dynamics/RngKind.h"

namespace landscape {

struct LangevinParams {
  double timeStep = 1e-3;  ///< dt > 0 (time unit: ps for molecular potentials, reduced for LJ)
  double friction = 1.0;   ///< xi > 0 (energy x time / length^2)
  double kT = 1.0;         ///< kT >= 0 (energy unit of the potential); 0 is steepest descent
  long steps = 1000;       ///< steps of one run (>= 0), e.g. of LangevinMove
  RngKind generator = RngKind::Philox;  ///< random-force generator (docs/rng.md)
  std::uint64_t seed = 1;               ///< any value; equal seeds give equal runs

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;

  /// dt / xi (length^2 / energy).
  double mobilityStep() const { return timeStep / friction; }
  /// sqrt(2 kT dt / xi) (length): the standard deviation of one step's random displacement.
  double noiseAmplitude() const;
};

/// The integrator as a backend operation (like LbfgsWorkspace): the CPU one below and the CUDA
/// one (gpu/LangevinCuda) keep their random streams between calls, so that consecutive runs
/// continue one trajectory. backends/LangevinFactory picks the backend.
class LangevinIntegrator {
 public:
  virtual ~LangevinIntegrator() = default;

  virtual std::size_t dimension() const = 0;
  virtual const LangevinParams& params() const = 0;

  /// Advances `steps` (>= 0) steps from x (host, dimension() doubles); x receives the end point.
  virtual void run(double* x, long steps) = 0;
  void run(std::vector<double>& x, long steps);

  /// Steps taken since construction or the last reseed (the position in the random streams).
  virtual long stepsDone() const = 0;
  /// Restarts the random streams at step 0 of `seed`.
  virtual void reseed(std::uint64_t seed) = 0;
};

/// Builds the integrator for a potential; backends/LangevinFactory's makeLangevinIntegrator picks
/// the potential's own backend. Algorithms take one of these so that they never name a backend.
using LangevinIntegratorFactory = std::function<std::unique_ptr<LangevinIntegrator>(
    Potential& potential, const LangevinParams& params)>;

/// The CPU reference: double precision, one particle after another.
class LangevinCpu : public LangevinIntegrator {
 public:
  /// params.check() must pass and potential.dimension() be a positive multiple of 3
  /// (std::invalid_argument otherwise). The potential is evaluated on its host entry point and must
  /// outlive the integrator.
  LangevinCpu(Potential& potential, const LangevinParams& params);

  std::size_t dimension() const override { return m_g.size(); }
  const LangevinParams& params() const override { return m_params; }
  void run(double* x, long steps) override;
  using LangevinIntegrator::run;
  long stepsDone() const override { return static_cast<long>(m_streams.step()); }
  void reseed(std::uint64_t seed) override;

 private:
  Potential& m_potential;
  LangevinParams m_params;
  RandomStreams m_streams;
  std::vector<double> m_g;
  std::vector<std::uint32_t> m_words;
};

/// Throws std::invalid_argument unless dimension is a positive multiple of 3 (shared check of
/// both backends); returns the particle count.
std::size_t langevinParticles(std::size_t dimension);

}  // namespace landscape
