#pragma once
// The one interface every potential implements, on every backend (docs/architecture.md).
//
// Coordinates are flat arrays of dimension() doubles (x1 y1 z1 x2 ...). Energies are in the
// potential's unit (reduced units for Lennard-Jones; kcal/mol for AMBER/GB and SOP) and gradients
// in that unit per length unit. Potentials return gradients, never forces.
#include <cstddef>
#include <string>
#include <vector>

namespace landscape {

enum class Backend { Cpu, Cuda };

/// "cpu" or "cuda"; throws std::invalid_argument naming the bad value otherwise.
Backend parseBackend(const std::string& name);
std::string backendName(Backend backend);

/// One named term of the energy (sander's names for AMBER: BOND, ANGLE, ..., EGB).
struct EnergyComponent {
  std::string name;
  double value;
};

class Potential {
 public:
  virtual ~Potential() = default;
  Potential() = default;
  Potential(const Potential&) = delete;
  Potential& operator=(const Potential&) = delete;

  /// Number of Cartesian degrees of freedom (3 x atoms).
  virtual std::size_t dimension() const = 0;
  std::size_t atomCount() const { return dimension() / 3; }

  /// Short description for logs, e.g. "Lennard-Jones 38 atoms (cuda)".
  virtual std::string name() const = 0;
  virtual Backend backend() const { return Backend::Cpu; }

  /// Energy at x (x has dimension() entries, host memory).
  virtual double energy(const double* x) = 0;

  /// Energy at x; the gradient is written to g (dimension() entries), overwriting it.
  virtual double energyGradient(const double* x, double* g) = 0;

  /// `count` structures at once (x and g [count x dimension()], energies [count], host): an
  /// algorithm that needs several independent evaluations (the two displaced gradients of the
  /// Rayleigh-Ritz ratio) asks for them together. The default calls energyGradient() on each in
  /// order, so the values are its bits; a potential whose calls are gathered into batched calls
  /// (potentials/SharedBatchedPotential) sends them as one request.
  virtual void energyGradients(std::size_t count, const double* x, double* g, double* energies);

  /// Per-term breakdown; the values sum to energy(x). The default is one "TOTAL" entry.
  virtual std::vector<EnergyComponent> energyComponents(const double* x);

  /// Energy of each atom's interactions summed over all its partners (GMIN's VAT, used by the
  /// angular move for weakly bound atoms). Returns false when the potential cannot provide it.
  virtual bool perAtomEnergies(const double* x, double* atomEnergies);
  /// True when perAtomEnergies() may run on several threads at once (it keeps no scratch and
  /// touches no device): walker ensembles then compute their chains' on host threads.
  virtual bool concurrentPerAtomEnergies() const { return false; }

  /// True when energyGradientDevice() may be called (CUDA backends).
  virtual bool isDeviceResident() const { return false; }

  /// Device-resident entry point: d_x and d_g are device pointers of dimension() doubles, the
  /// gradient is overwritten, nothing passes through host memory except the returned energy.
  /// Throws std::logic_error on host-only potentials.
  virtual double energyGradientDevice(const double* d_x, double* d_g);

  /// True when the coordinates are not plain Cartesians and convergence tests must use
  /// rmsGradient() instead of sqrt(|g|^2 / dimension()) (rigid bodies: the angle-axis metric of
  /// Ruehle, Kusumaatmaja, Chakrabarti and Wales, J. Chem. Theory Comput. 2013).
  virtual bool hasGradientMetric() const { return false; }
  /// RMS gradient (energy / length) of the gradient g at x in the potential's own metric; the
  /// default is sqrt(|g|^2 / dimension()). Host arrays of dimension() doubles.
  virtual double rmsGradient(const double* x, const double* g);
  /// As rmsGradient() on device arrays (device-resident potentials); only the scalar comes back.
  /// The default throws std::logic_error.
  virtual double rmsGradientDevice(const double* d_x, const double* d_g);

  /// The overall translations and rotations at x as 6 vectors in this potential's coordinates
  /// (modes[k * dimension() + i], not orthonormalised), for potentials whose coordinates are not
  /// 3N Cartesians (rigid bodies). Returns false (the default) when the Cartesian modes of x apply.
  virtual bool overallMotionModes(const double* x, std::vector<double>& modes) const;

  /// Constant diagonal metric w (dimension() positive entries, host) for potentials whose
  /// coordinates are not all lengths of one scale: |dx|^2 ~ sum_i w_i dq_i^2 approximates the
  /// squared Cartesian displacement of the atoms. L-BFGS works in q_i sqrt(w_i) (diagonal
  /// preconditioner: initial inverse Hessian gamma / w_i, step length in this norm). Returns false
  /// (the default) for plain Cartesians (w = 1). Rigid bodies: RigidBodySystem::diagonalMetric.
  virtual bool diagonalMetric(std::vector<double>& w) const;
};

}  // namespace landscape
