#pragma once
// Overdamped Langevin dynamics of the SOP model (Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys.
// Chem. B 2011, eq 1 with U = eq B1) for many independent replicas at once (SOP-GPU's "multiple
// runs"), with the force-spectroscopy protocols of Zhmurov et al. 2011, section V:
// constant-velocity pulling of one end by a cantilever spring while the other end is fixed, and
// indentation by a spherical tip on a spring moving at constant velocity against the structure
// resting on a fixed surface.
//
// Units: kcal/mol, Angstrom, ps. kT in kcal/mol (0.6 ~ 300 K). The friction xi is in
// kcal ps/(mol A^2), so dt/xi is a mobility step and kT/xi the free-bead diffusion coefficient
// (A^2/ps); docs/sop.md derives the two presets. Spring constants in kcal/mol/A^2 (x 69.48 =
// pN/nm), speeds in A/ps (x 1e8 = um/s), forces in kcal/mol/A (x 69.48 = pN).
//
// The random force of bead i of replica r comes from stream r N + i of a RandomStreams bank (the
// Langevin integrator's convention), so the CPU reference (SopDynamicsCpu) and the CUDA twin
// (gpu/SopDynamicsCuda) draw the same numbers. The interface is written once;
// backends/SopDynamicsFactory picks the backend.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "landscape/dynamics/Langevin.h"
#include "landscape/dynamics/SopDynamicsState.h"
#include "landscape/core/Precision.h"
#include "potentials/Sop.h"
#include "potentials/SopTopology.h"

namespace landscape {

/// xi = zeta m / tau_L with SOP-GPU's zeta = 50, m = 3e-22 g, tau_L = 3 ps (Zhmurov et al. 2011,
/// section V): 5e-21 g/ps = 5e-12 kg/s = 7.196 kcal ps/(mol A^2).
constexpr double kSopGpuFriction = 7.1963;
/// The bulk-water value Zhmurov et al. 2011 quotes for HK97, 7.0e5 pN ps/nm = 7e-10 kg/s =
/// 1007.5 kcal ps/(mol A^2).
constexpr double kBulkWaterFriction = 1007.48;

/// "sop-gpu" or "bulk-water" -> xi (kcal ps/(mol A^2)); throws std::invalid_argument otherwise.
double sopFrictionPreset(const std::string& name);

struct SopPullingParams {
  bool enabled = false;
  int pulledBead = -1;   ///< bead on the cantilever spring; -1: the last bead
  int fixedBead = 0;     ///< bead held fixed; -1: none. Extension = |r_pulled - r_fixed|
  double springK = 0.1;  ///< cantilever spring (kcal/mol/A^2; 0.1 = 69.5 pN/nm)
  double speed = 1e-3;   ///< cantilever velocity (A/ps; 1e-3 A/ps = 1e5 um/s)
};

struct SopIndentationParams {
  bool enabled = false;
  double tipRadius = 20.0;   ///< radius of the spherical tip R (A)
  double tipEpsilon = 1.0;   ///< tip-bead repulsion eps (sigma/gap)^6 (kcal/mol)
  double tipSigma = 3.8;     ///< its range (A)
  double tipCutoff = 8.0;    ///< gap at which it is cut and shifted (A)
  double springK = 0.1;      ///< cantilever spring holding the tip (kcal/mol/A^2)
  double speed = 1e-3;       ///< cantilever base velocity along direction (A/ps)
  double tipFriction = 100;  ///< the tip's own friction (kcal ps/(mol A^2)); it moves on the axis
  std::array<double, 3> direction{0.0, 0.0, -1.0};  ///< indentation direction n (normalised)
  double startGap = 5.0;    ///< gap between the tip and the structure's top at t = 0 (A)
  double fixedLayer = 5.0;  ///< beads within this of the structure's bottom (along n) are fixed
                            ///< (A): the structure rests on the surface (Zhmurov et al. 2011,
                            ///< section V)
};

struct SopDynamicsParams {
  /// dt (ps), friction xi (kcal ps/(mol A^2)), kT (kcal/mol), generator and seed; steps unused.
  LangevinParams langevin = [] {
    LangevinParams p;
    // Euler stability: the stiffest chain mode has curvature ~4 k_eff, k_eff = k_FENE = 20
    // kcal/mol/A^2 at r0 and 2.2 k_FENE for a bond stretched by R0/2, and 4 k_eff dt / xi must
    // stay below 2. dt = 0.05 ps keeps titin pulls stable for 1e6 steps; 0.3 ps blows up at once.
    p.timeStep = 0.05;
    p.friction = kSopGpuFriction;
    p.kT = 0.6;
    p.steps = 0;
    return p;
  }();
  int replicas = 1;  ///< independent trajectories of the same system (>= 1)
  /// CUDA arithmetic (landscape/core/Precision.h): Double everywhere, or Single, SOP-GPU's FP32 for
  /// positions and forces; Mixed is not implemented. The CPU reference always runs double.
  Precision precision = Precision::Double;
  double skin = 3.0;         ///< Verlet list radius = repulsiveCutoff + skin (A)
  long rebuildInterval = 0;  ///< 0: rebuild when a bead moved > skin/2; n > 0: every n steps
  int maxNeighbours = 0;     ///< neighbour-list capacity per bead; 0: sized from the start
  /// CUDA: replay runs of this many steps (even; 0 = off) as one captured CUDA Graph, which takes
  /// the per-launch host cost out of small systems. Not for Lagged Fibonacci (plain launches).
  int cudaGraphSteps = 0;
  /// CUDA: run up to this many steps (0 = off) as one persistent cooperative kernel with a grid
  /// barrier between steps (gpu/SopKernels.cuh launchSopPersistentSteps): the same bits as plain
  /// launches, without a launch per step. Used only between the forced rebuilds of a fixed
  /// rebuildInterval, and not for Lagged Fibonacci; elsewhere plain launches (or graphs).
  int cudaPersistentSteps = 0;
  /// CUDA, compute capability 9.0+: each step kernel is a programmatic dependent launch, which
  /// starts while the kernel before it ends and waits for it before touching memory (the launch
  /// gap overlaps the previous step's tail); the same bits as without. Off: ordinary launches.
  bool cudaProgrammaticLaunches = true;
  SopPullingParams pulling;
  SopIndentationParams indentation;

  /// Throws std::invalid_argument naming the first bad field.
  void check() const;
};

/// The protocol resolved against the start structure (shared by both backends).
struct SopProtocol {
  std::vector<unsigned char> fixed;  ///< per bead: 1 = held at its start position
  bool pulling = false;
  int pulledBead = -1, fixedBead = -1;
  std::array<double, 3> pullDirection{};  ///< unit vector from the fixed to the pulled end
  std::array<double, 3> pullAnchor0{};    ///< cantilever anchor at t = 0 (the pulled bead) (A)
  double pullSpringK = 0, pullSpeed = 0;
  bool indentation = false;
  std::array<double, 3> tipDirection{};  ///< n
  std::array<double, 3> tipOrigin{};     ///< tip centre at z = 0 (A)
  double tipRadius = 0, tipEpsilon = 0, tipSigma = 0, tipCutoff = 0, tipSpringK = 0, tipSpeed = 0,
         tipMobility = 0;  ///< tipMobility = dt / tipFriction (A^2 mol/kcal)
  double tipMinGap = 0;    ///< floor of the tip gap (A), see sopTip()
};

SopProtocol makeSopProtocol(const SopTopology& topology, const std::vector<double>& start,
                            const SopDynamicsParams& params);

/// One line of a force curve.
struct SopSample {
  double time = 0;         ///< ps
  double force = 0;        ///< cantilever spring force along its direction (kcal/mol/A), 0 if none
  double extension = 0;    ///< pulling: |r_pulled - r_fixed|; indentation: base position Z (A)
  double tipPosition = 0;  ///< indentation: tip displacement z along n (A)
  double q = 0;            ///< fraction of native contacts (r < r0 + qTolerance)
};

SopSample sampleSop(const SopTopology& topology, const SopProtocol& protocol, const double* x,
                    double tipPosition, double time, double qTolerance);

class SopDynamics {
 public:
  virtual ~SopDynamics() = default;
  virtual const SopDynamicsParams& params() const = 0;
  virtual const SopProtocol& protocol() const = 0;
  virtual std::size_t beads() const = 0;  ///< per replica
  int replicas() const { return params().replicas; }
  /// Advances every replica by `steps` (>= 0) steps. The CPU reference stops early, between two
  /// steps, when a stop is requested (landscape/core/StopRequest.h); stepsDone() tells where.
  virtual void run(long steps) = 0;
  virtual long stepsDone() const = 0;
  double time() const { return static_cast<double>(stepsDone()) * params().langevin.timeStep; }
  /// Coordinates of replica r (3 x beads doubles, A).
  virtual std::vector<double> positions(int replica) = 0;
  /// Indentation tip displacement z of replica r along n (A); 0 without indentation.
  virtual double tipPosition(int replica) = 0;
  /// Neighbour-list rebuilds so far (0 on the CPU, which searches cells every step).
  virtual long rebuilds() const { return 0; }
  /// The state after the steps done so far; restoreState() of it on a dynamics made with the
  /// same topology, start and params continues the run bit for bit (sop --resume).
  virtual SopDynamicsState saveState() = 0;
  /// Throws std::invalid_argument when the state's sizes do not fit these replicas and beads
  /// (or a CUDA list reference is missing or misplaced); nothing is changed then.
  virtual void restoreState(const SopDynamicsState& state) = 0;
};

/// Throws std::runtime_error when `replicas` replicas of `beads` beads would need more memory than
/// the machine has (landscape/core/InputChecks.h requireMemory; about 256 bytes per bead and replica
/// on the host: coordinates, random-stream states and words). Called by SopDynamicsCpu and the
/// factory before they allocate, so that `sop --replicas 100000000` ends with a sentence rather
/// than std::bad_alloc.
void requireSopDynamicsMemory(std::size_t beads, int replicas);

/// The CPU reference: double precision, replicas one after another, the Sop potential's cell list
/// every step.
class SopDynamicsCpu : public SopDynamics {
 public:
  SopDynamicsCpu(const SopTopology& topology, const std::vector<double>& start,
                 const SopDynamicsParams& params);
  const SopDynamicsParams& params() const override { return m_params; }
  const SopProtocol& protocol() const override { return m_protocol; }
  std::size_t beads() const override { return m_beads; }
  void run(long steps) override;
  long stepsDone() const override { return m_steps; }
  std::vector<double> positions(int replica) override;
  double tipPosition(int replica) override;
  SopDynamicsState saveState() override;
  void restoreState(const SopDynamicsState& state) override;

 private:
  SopDynamicsParams m_params;
  SopProtocol m_protocol;
  std::size_t m_beads;
  std::unique_ptr<Sop> m_sop;
  RandomStreams m_streams;
  std::vector<double> m_x;    // replicas x 3N
  std::vector<double> m_tip;  // replicas
  std::vector<double> m_g;
  std::vector<std::uint32_t> m_words;
  long m_steps = 0;
};

}  // namespace landscape
