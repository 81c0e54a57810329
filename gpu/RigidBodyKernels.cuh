#pragma once
// Drivers for the local-rigid-body kernels (Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016,
// section 2.1, GPU design of its section 2.1 last paragraphs), batched over structures: the twin of
// potentials/RigidBodySystem for each of `batch` structures. Included only from .cu files.
//
// Per structure s (rows of fixed stride): rigid coordinates and gradient q, g [s x (6B + 3F)] =
// centres r_I (3B) | angle-axis p_I (3B) | free atoms (3F), as on the CPU; atoms and atomistic
// gradients [s x 3N]; rotations [s x 36B]; partial sums [s x 6 partialStride]. "Entries" are the
// body atoms in body order (RigidBodySystem::bodyAtoms()).
//
// Kernels in launch order (rotations, toAtoms, the atomistic potential, smallBodies, bodyPass,
// freeAtoms), their thread layout and the fixed order of every sum: docs/rigid-bodies.md, "GPU
// kernels". No atomics, so a structure's bits do not depend on the batch, its index or the mask;
// inactive structures (d_active[s] == 0) are neither read nor written. Precision: double.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpu/RigidBodyReductionPlan.h"

namespace landscape {

/// Doubles per body in the rotation array: R, dR/dp1, dR/dp2, dR/dp3 (row-major).
constexpr int kRigidRotationStride = 36;
/// Structures per launch (the grid.y limit).
constexpr std::size_t kRigidMaxStructuresPerLaunch = 65535;

struct RigidBodyArgs {
  std::size_t bodies = 0;               ///< B
  std::size_t entries = 0;              ///< atoms in bodies
  std::size_t freeAtoms = 0;            ///< F
  std::size_t atoms = 0;                ///< N (atom rows hold 3N doubles)
  std::size_t partialStride = 0;        ///< partial sums per structure (6 doubles each)
  const int* d_bodyStart = nullptr;     ///< B + 1 entry offsets
  const int* d_bodyOfEntry = nullptr;   ///< entries: owning body
  const int* d_bodyAtoms = nullptr;     ///< entries: atom index
  const double* d_reference = nullptr;  ///< entries x 3: r0 (Angstrom)
  const int* d_freeAtoms = nullptr;     ///< F: atom index
  double* d_rotation = nullptr;         ///< [structures x 36B] (written by launchRigidRotations)
  const std::uint8_t* d_active = nullptr;  ///< [structures] or nullptr (all active)
};

/// R and its derivatives for every body of every active structure at q.
void launchRigidRotations(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                          cudaStream_t stream);

/// Atoms d_x [batch x 3N] from q; needs the rotations of q.
void launchRigidToAtoms(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                        double* d_x, cudaStream_t stream);

/// Warp reductions of the bodies listed in d_smallBodies (each <= 32 atoms) into d_gRigid.
void launchRigidSmallBodies(const RigidBodyArgs& args, std::size_t batch,
                            const int* d_smallBodies, std::size_t smallBodies,
                            const double* d_gAtoms, double* d_gRigid, cudaStream_t stream);

/// First pass over entries (chain-rule terms formed in the kernel) or a later pass over partial
/// sums (6 doubles each, d_partialIn), per the block table d_blocks (the same for every
/// structure). Outputs go to d_partialOut (6 doubles per partial) or, for out < 0, to d_gRigid.
void launchRigidBodyPass(const RigidBodyArgs& args, std::size_t batch,
                         const RigidPassBlock* d_blocks, std::size_t blocks, bool firstPass,
                         const double* d_gAtoms, const double* d_partialIn, double* d_partialOut,
                         double* d_gRigid, cudaStream_t stream);

/// Free-atom gradients into d_gRigid[s][6B ...].
void launchRigidFreeAtoms(const RigidBodyArgs& args, std::size_t batch, const double* d_gAtoms,
                          double* d_gRigid, cudaStream_t stream);

/// The compact layout, for systems whose bodies are all small (molecules of a few sites: water,
/// ellipsoid markers), so that they fill the device instead of leaving most threads of a block per
/// structure idle: a flat grid with a thread per body atom (placement) or per body (the sums), then
/// per free atom, of every structure. Nothing is stored between the two: each forms R or its
/// derivatives from p itself. Equal to the general kernels to rounding (the same formulas; the
/// compiler's contractions differ between kernels); the sums of a body in smallBodies' order.
constexpr int kRigidCompactBodyLimit = 8;
/// The power of two >= largestBody (1, 2, 4 or 8) when bodies of that size take the compact
/// layout, else 0.
int rigidCompactTreeWidth(int largestBody);

/// Atoms d_x [batch x 3N] from q (as launchRigidRotations then launchRigidToAtoms).
void launchRigidCompactToAtoms(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                               double* d_x, cudaStream_t stream);

/// The rigid gradient d_gRigid at d_q from the atomistic one (the bodies as launchRigidSmallBodies,
/// the free atoms as launchRigidFreeAtoms); treeWidth from rigidCompactTreeWidth.
void launchRigidCompactProject(const RigidBodyArgs& args, std::size_t batch, int treeWidth,
                               const double* d_q, const double* d_gAtoms, double* d_gRigid,
                               cudaStream_t stream);

/// sum_I (|g_rI|^2 / N_I + g_pI^T M_I^-1 g_pI) + sum_f |g_f|^2 of each active structure into
/// d_result[s] (one block per structure, fixed order); d_secondMoment holds S (9 per body). The
/// angle-axis metric of Ruehle, Kusumaatmaja, Chakrabarti and Wales, J. Chem. Theory Comput. 2013.
void launchRigidMetricNorm(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                           const double* d_gRigid, const double* d_secondMoment, double* d_result,
                           cudaStream_t stream);
/// As launchRigidMetricNorm, then sqrt(sum / 3N) into d_rms[s]: the angle-axis RMS gradient
/// (RigidBodySystem::rmsGradient) of each active structure.
void launchRigidMetricRms(const RigidBodyArgs& args, std::size_t batch, const double* d_q,
                          const double* d_gRigid, const double* d_secondMoment, double* d_rms,
                          cudaStream_t stream);

}  // namespace landscape
