#pragma once
// Doubly nudged elastic band (Trygubenko and Wales, J. Chem. Phys. 120, 2082 (2004); Mantell,
// Pitt and Wales, J. Chem. Theory Comput. 2016, section 2.2): a path between two endpoints is
// represented by `images` configurations joined by springs. For interior image i with improved tangent tau_i (Henkelman and Jonsson, J. Chem. Phys.
// 113, 9978 (2000)), true gradient g_i and spring gradient g^s_i = k (2 x_i - x_{i-1} - x_{i+1}),
// the band gradient is
//   g_perp + (g^s . tau) tau + [g^s_perp - (g^s_perp . ghat_perp) ghat_perp]
// with g_perp = g - (g . tau) tau, g^s_perp = g^s - (g^s . tau) tau and ghat_perp = g_perp /
// |g_perp|: NEB's parallel true gradient and perpendicular spring gradient are projected out
// (no sliding down, no corner cutting), and the last bracket is the "doubly nudged" part of the
// perpendicular spring gradient that does not oppose the true gradient. By default the parallel
// spring term (g^s . tau) tau is replaced by -k (|x_{i+1} - x_i| - |x_i - x_{i-1}|) tau, as in
// OPTIM's DNEB code (segmentSprings), and k follows the image spacing (springAdjustFactor).
//
// That gradient is not the gradient of any objective, so the band is an adapter Potential
// (DnebBand) whose "energy" (the sum of the image energies) is only reported, and it is minimised
// by GMIN's L-BFGS (m = 4, as Mantell et al. 2016) with the energy-rise test switched off (maxRise
// = the largest double: only a NaN/inf energy makes the step shrink). As in OPTIM, the step is
// capped per image: the largest displacement of any one image is maxStepPerImage.
//
// The endpoints are first aligned (landscape/Alignment: translation, rotation, permutation,
// inversion; a thorough search, since the band can only find paths near the interpolation, see
// DnebParams::alignment), the interior images are interpolated linearly between them, and the
// number of images and of iterations grows with the endpoint distance D as OPTIM's NEWCONNECT
// does: images = clamp(floor(imageDensity D), minImages, maxImages), iterations =
// floor(iterationDensity x images) capped at maxIterations. Transition-state candidates are the
// band's local energy maxima among the interior images.
//
// Batched images: given a BatchedPotential, every band evaluation hands all interior
// images to it as one batch (potentials/PerStructureBatchedPotential on CPU threads, the batched
// Lennard-Jones kernel on CUDA) instead of evaluating them one after the other; the rest of the
// band arithmetic is unchanged, so with per-structure CPU copies of the potential the run is the
// unbatched run bit for bit, whatever the thread count.
#include <limits>
#include <string>
#include <vector>

#include "landscape/geometry/Alignment.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"

namespace landscape {

class BatchedAlignment;
class DnebBands;
struct DnebBandStart;
struct DnebRelaxedBand;

struct DnebParams {
  int images = 0;  ///< interior images; 0 = from the endpoint distance (imageDensity)
  double imageDensity =
      20.0;            ///< images per unit endpoint distance (OPTIM's ImageDensity; 1/length)
  int minImages = 1;   ///< bounds on the distance-scaled image count (>= 1)
  int maxImages = 30;  ///< (OPTIM's ImageMax)
  int iterations = 0;  ///< L-BFGS iterations; 0 = iterationDensity x images
  double iterationDensity = 20.0;  ///< iterations per image (OPTIM's IterDensity)
  int maxIterations = 10000;       ///< cap on the scaled iteration count
  double springConstant = 10.0;    ///< initial k (energy/length^2; OPTIM's NEBK)
  /// After every iteration k is multiplied by this factor when the mean relative deviation of the
  /// image spacings from their mean exceeds spacingTolerance, divided by it otherwise (OPTIM's
  /// NEBK factor, 1.01 by default, and pele's adjust_k); 1 keeps k fixed. OPTIM's LJ38 example
  /// ends its first run with k 7.46 from NEBK 10 at Dev 7.22%; ours, over 20 alignment seeds,
  /// with k 5.8-7.6 at Dev 7.8-9.3% in 276-374 iterations (fixed k: 249-460 iterations, Dev
  /// 13-17%; docs/benchmarks.md).
  double springAdjustFactor = 1.01;
  double spacingTolerance = 0.1;  ///< mean |d_i - mean d| / mean d that k is steered to (> 0)
  double rmsTolerance = 0.025;    ///< on the RMS band gradient over all images (energy/length)
  double maxStepPerImage = 0.2;   ///< largest displacement of one image per step (length)
  double initialGuess = 1e-3;     ///< H0 of the first step (length^2/energy; OPTIM's NEB DGUESS)
  int historySize = kLbfgsHistorySize;  ///< L-BFGS m (Mantell et al. 2016: 4)
  bool doublyNudged = true;       ///< keep the doubly nudged perpendicular spring part (else NEB)
  /// true (OPTIM's default DNEB gradient, GRADTYPE "DNEB" of its NEB/grad.f90): parallel spring
  /// gradient -k (|x_{i+1} - x_i| - |x_i - x_{i-1}|) tau (Henkelman and Jonsson 2000, eq 12),
  /// which spaces the images equally even where the band is kinked; false: the projection
  /// (g^s . tau) tau of the DNEB paper's eq 5. On the LJ38 example the first run converges in 288
  /// iterations with segment springs, 545 without (docs/benchmarks.md).
  bool segmentSprings = true;
  /// Cold fusion (OPTIM's COLDFUSION, relative here): a step that takes any image more than this
  /// below the lower endpoint is rejected like an energy rise (the L-BFGS step is divided by 10,
  /// and the run stops when nothing is accepted). AMBER's hydroxyl hydrogens have no
  /// Lennard-Jones repulsion, so a band started by linear interpolation can pull one onto an
  /// oxygen, where the energy falls without bound. Energy units; infinity = off (clusters).
  double coldFusionDrop = std::numeric_limits<double>::infinity();
  bool alignEndpoints = true;  ///< align finish onto start first (needs 3N coordinates)
  /// Used when alignEndpoints. The band starts as the linear interpolation between start and the
  /// aligned finish, so the alignment decides which path the band can find: on the LJ38 example
  /// alignments 3.149, 3.141 and 3.136 apart (different permutations) give bands that end 12.8,
  /// 10.7 and 7.6 long, and only the last converges (docs/benchmarks.md). One alignment per DNEB
  /// run is cheap (about 10 ms for LJ38 with these settings, against 0.4 s for the band; the cost
  /// grows as orientationTrials x N^3), so the search is more thorough than the Alignment
  /// defaults used for the duplicate checks: with them 20 of 20 alignment seeds find the 3.136
  /// alignment of the LJ38 example, with 8 trials and RANROT 5 none do.
  AlignmentParams alignment = thoroughAlignment();
  static AlignmentParams thoroughAlignment() {
    AlignmentParams a;
    a.orientationTrials = 128;
    a.randomOrientations = 256;
    return a;
  }

  /// Throws std::invalid_argument with a sentence naming the first bad field.
  void check() const;
};

/// The band of interior images as one Potential over images x n coordinates (the endpoints are
/// fixed). energyGradient() writes the DNEB gradient and returns the sum of the image energies.
class DnebBand : public Potential {
 public:
  /// start and finish must have the potential's dimension n; images >= 1; k >= 0.
  DnebBand(Potential& potential, std::vector<double> start, std::vector<double> finish, int images,
           double springConstant, bool doublyNudged, bool segmentSprings = false);

  std::size_t dimension() const override { return m_images * m_n; }
  std::string name() const override;
  double energy(const double* band) override;
  double energyGradient(const double* band, double* g) override;

  int images() const { return static_cast<int>(m_images); }
  /// energyGradient() evaluates the interior images together through `images` (not owned; of the
  /// potential's dimension, throws std::invalid_argument otherwise); null: one at a time.
  void setBatchedImages(BatchedPotential* images);
  /// Linear interpolation between the endpoints (images x n values).
  std::vector<double> interpolate() const;
  /// Energies of all images + 2 (endpoints included) at the last evaluation.
  const std::vector<double>& energies() const { return m_energies; }
  /// Unit improved tangents of the interior images at the last evaluation (images x n values).
  const std::vector<double>& tangents() const { return m_tangents; }
  double startEnergy() const { return m_energies.front(); }
  double springConstant() const { return m_k; }
  void setSpringConstant(double k) { m_k = k; }
  /// energy() and energyGradient() return NaN while an image is below this energy (cold fusion;
  /// -infinity = never). The image energies and gradients are still computed and kept.
  void setColdFusionEnergy(double energy) { m_coldFusionEnergy = energy; }
  /// Evaluations that found an image below the cold-fusion energy.
  int coldFusionEvaluations() const { return m_coldFusionEvaluations; }
  /// Mean of |d_i - mean d| / mean d over the images + 1 segment lengths d_i of `band`.
  double meanSpacingDeviation(const double* band) const;
  double finishEnergy() const { return m_energies.back(); }

 private:
  const double* imageAt(const double* band, std::size_t i) const;  // 0 .. images + 1
  Potential& m_potential;
  BatchedPotential* m_batched = nullptr;
  std::vector<double> m_start, m_finish;
  std::size_t m_images, m_n;
  double m_k;
  bool m_doublyNudged;
  bool m_segmentSprings;
  double m_coldFusionEnergy = -std::numeric_limits<double>::infinity();
  int m_coldFusionEvaluations = 0;
  std::vector<double> m_energies, m_tangents, m_gradients;
  std::vector<double> m_scratch;  // energyGradient's segments and spring terms of one image
  /// sum, or NaN (counted) when an interior image is below the cold-fusion energy.
  double checkedSum(double sum);
};

struct DnebResult {
  /// images + 2 configurations: start, the interior images, finish (aligned onto start).
  std::vector<std::vector<double>> images;
  std::vector<double> energies;  ///< one per entry of `images`
  /// Unit improved tangent at each entry of `images` (empty for the two endpoints): a first
  /// guess of the uphill eigenvector for hybrid eigenvector-following.
  std::vector<std::vector<double>> tangents;
  /// Indices into `images` of the interior local maxima (E_i above both neighbours), highest
  /// energy first: the transition-state candidates.
  std::vector<int> candidates;
  double endpointDistance = 0.0;  ///< |finish - start| after alignment (length)
  double pathLength = 0.0;        ///< sum of |x_{i+1} - x_i| (length; OPTIM's S)
  double spacingDeviation = 0.0;  ///< largest |d_i - mean d| / mean d in per cent
  /// Mean of |d_i - mean d| / mean d over the segments in per cent (OPTIM's AVDEV, printed as
  /// "Dev=" after each DNEB run).
  double meanSpacingDeviation = 0.0;
  double rmsGradient = 0.0;     ///< RMS band gradient at the end (energy/length)
  double springConstant = 0.0;  ///< k at the end (energy/length^2)
  int interiorImages = 0;
  int iterationLimit = 0;  ///< the (possibly distance-scaled) iteration cap that was used
  int iterations = 0;
  long functionCalls = 0;   ///< potential energy+gradient calls
  int coldFusionSteps = 0;  ///< trial steps rejected as cold fusion (DnebParams::coldFusionDrop)
  LbfgsStatus status = LbfgsStatus::MaxIterations;
  bool converged() const { return status == LbfgsStatus::Converged; }
};

class Dneb {
 public:
  /// Throws std::invalid_argument if params.check() fails.
  explicit Dneb(const DnebParams& params);
  const DnebParams& params() const { return m_params; }

  /// Interior images for an endpoint distance (params.images if set).
  int imageCount(double endpointDistance) const;
  /// Iteration cap for a band of `images` interior images (params.iterations if set).
  int iterationCount(int images) const;

  /// Runs DNEB between two configurations (throws std::invalid_argument on size mismatches or,
  /// with alignEndpoints, coordinates that are not 3N). The observer sees each L-BFGS iteration
  /// of the band (energy = sum of the interior image energies). With `images` the interior
  /// images of every band evaluation are one batch (DnebBand::setBatchedImages).
  DnebResult run(Potential& potential, const std::vector<double>& start,
                 const std::vector<double>& finish, const Lbfgs::Observer& observer = {},
                 BatchedPotential* images = nullptr) const;
  /// The same run with the band relaxed whole by `bands` (a team per band: on the GPU in one
  /// launch; landscape/paths/DnebBands.h), its endpoints aligned where `bands` says
  /// (DnebBands::endpointAlignment). The endpoints' energies come from `bands` too; the
  /// result is Dneb::run's up to round-off. It is prepare(), bands.relax() on prepare's job, then
  /// complete(): callers that relax many bands in one call take those steps themselves.
  DnebResult run(const std::vector<double>& start, const std::vector<double>& finish,
                 DnebBands& bands) const;
  /// The band's start: the finish aligned onto start (alignEndpoints), the image count and the
  /// iteration cap. n: coordinates of one image. With `alignment` a cluster's endpoints are
  /// aligned by it (the same search, to round-off; landscape/geometry/BatchedAlignment.h), other
  /// systems' by alignStructures().
  DnebBandStart prepare(const std::vector<double>& start, const std::vector<double>& finish,
                        std::size_t n, BatchedAlignment* alignment = nullptr) const;
  /// The result of a band relaxed from `prepared`: images, energies, tangents, spacing and
  /// candidates.
  DnebResult complete(const std::vector<double>& start, const DnebBandStart& prepared,
                      DnebRelaxedBand relaxed) const;

 private:
  DnebParams m_params;
};

}  // namespace landscape
