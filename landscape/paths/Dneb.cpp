#include "landscape/paths/Dneb.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "landscape/core/Require.h"
#include "landscape/geometry/BatchedAlignment.h"
#include "landscape/minimisation/BatchedTeamPlan.h"
#include "landscape/minimisation/LbfgsCpuWorkspace.h"
#include "landscape/paths/DnebBands.h"
#include "landscape/paths/DnebTeamTerms.h"

namespace landscape {

namespace {

double distanceBetween(const double* a, const double* b, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

struct SpringModel {
  double k;             // spring constant
  bool segmentSprings;  // the parallel spring from segment lengths, not the projection
  bool doublyNudged;    // add the doubly nudged part
};

// The band gradient of one image: the true gradient gTrue perpendicular to the tangent tau plus
// the spring gradient k (2 x_i - x_{i-1} - x_{i+1}) along it, and with doubly nudging the part of
// the perpendicular spring gradient that does not oppose the true one. On entry tau holds the
// unnormalised tangent, of squared norm tauNorm2, and plus2, minus2 the segments' squared lengths;
// spring and perp are scratch of the image's size. Each sum runs over the components in order, in
// as few passes as the sums allow.
void nudgedGradient(const double* gTrue, double* tau, double tauNorm2, const double* plus,
                    const double* minus, double plus2, double minus2, const SpringModel& model,
                    std::size_t n, double* spring, double* perp, double* gBand) {
  const double tauNorm = std::sqrt(tauNorm2);
  double trueAlong = 0.0, springAlong = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    tau[j] = tauNorm > 0.0 ? tau[j] / tauNorm : 0.0;
    spring[j] = model.k * (minus[j] - plus[j]);
    trueAlong += gTrue[j] * tau[j];
    springAlong += spring[j] * tau[j];
  }
  double perpNorm2 = 0.0, springDotPerp = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    perp[j] = gTrue[j] - trueAlong * tau[j];  // g_perp
    perpNorm2 += perp[j] * perp[j];
    spring[j] -= springAlong * tau[j];  // now g^s_perp
    springDotPerp += spring[j] * perp[j];
  }
  // Spring gradient along the tangent: the projection (g^s . tau) tau of the original NEB, or
  // -k (|x_{i+1} - x_i| - |x_i - x_{i-1}|) tau (Henkelman and Jonsson 2000, eq 12), which
  // spaces the images equally even where the band is kinked.
  const double parallelSpring =
      model.segmentSprings ? -model.k * (std::sqrt(plus2) - std::sqrt(minus2)) : springAlong;
  // Doubly nudged part: g^s_perp less its component along ghat_perp (Trygubenko and Wales);
  // undefined, and left out, where g_perp vanishes.
  const bool nudgeTwice = model.doublyNudged && perpNorm2 > 0.0;
  const double along = nudgeTwice ? springDotPerp / perpNorm2 : 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    gBand[j] = perp[j] + parallelSpring * tau[j];
    if (nudgeTwice) gBand[j] += spring[j] - along * perp[j];
  }
}

}  // namespace

void DnebParams::check() const {
  require(images >= 0, "DNEB images must be >= 0 (0 = scaled with the endpoint distance)");
  require(std::isfinite(imageDensity) && imageDensity > 0.0,
          "DNEB imageDensity must be > 0 (images per unit length)");
  require(minImages >= 1, "DNEB minImages must be >= 1");
  require(maxImages >= minImages, "DNEB maxImages must be >= minImages");
  require(iterations >= 0, "DNEB iterations must be >= 0 (0 = scaled with the image count)");
  require(std::isfinite(iterationDensity) && iterationDensity > 0.0,
          "DNEB iterationDensity must be > 0 (iterations per image)");
  require(maxIterations >= 1, "DNEB maxIterations must be >= 1");
  require(std::isfinite(springConstant) && springConstant >= 0.0,
          "DNEB springConstant must be >= 0 (energy/length^2)");
  require(std::isfinite(springAdjustFactor) && springAdjustFactor >= 1.0,
          "DNEB springAdjustFactor must be >= 1 (1 = fixed spring constant)");
  require(std::isfinite(spacingTolerance) && spacingTolerance > 0.0,
          "DNEB spacingTolerance must be > 0");
  require(std::isfinite(rmsTolerance) && rmsTolerance > 0.0,
          "DNEB rmsTolerance must be > 0 (energy/length)");
  require(std::isfinite(maxStepPerImage) && maxStepPerImage > 0.0,
          "DNEB maxStepPerImage must be > 0 (length)");
  require(std::isfinite(initialGuess) && initialGuess > 0.0,
          "DNEB initialGuess must be > 0 (length^2/energy)");
  require(historySize >= 1, "DNEB historySize must be >= 1");
  require(coldFusionDrop > 0.0, "DNEB coldFusionDrop must be > 0 (energy; infinity = off)");
  if (alignEndpoints) {
    try {
      alignment.check();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("DNEB alignment: ") + e.what());
    }
  }
}

DnebBand::DnebBand(Potential& potential, std::vector<double> start, std::vector<double> finish,
                   int images, double springConstant, bool doublyNudged, bool segmentSprings)
    : m_potential(potential),
      m_start(std::move(start)),
      m_finish(std::move(finish)),
      m_images(images > 0 ? static_cast<std::size_t>(images) : 0),
      m_n(potential.dimension()),
      m_k(springConstant),
      m_doublyNudged(doublyNudged),
      m_segmentSprings(segmentSprings) {
  if (images < 1) throw std::invalid_argument("DNEB band: images must be >= 1");
  if (m_start.size() != m_n || m_finish.size() != m_n) {
    throw std::invalid_argument("DNEB band: the endpoints must have the potential's " +
                                std::to_string(m_n) + " coordinates");
  }
  m_energies.assign(m_images + 2, 0.0);
  m_energies.front() = potential.energy(m_start.data());
  m_energies.back() = potential.energy(m_finish.data());
  m_tangents.assign(m_images * m_n, 0.0);
  m_gradients.assign(m_images * m_n, 0.0);
}

std::string DnebBand::name() const {
  return "DNEB band of " + std::to_string(m_images) + " images of " + m_potential.name();
}

std::vector<double> DnebBand::interpolate() const {
  std::vector<double> band(m_images * m_n);
  for (std::size_t i = 0; i < m_images; ++i) {
    const double t = static_cast<double>(i + 1) / static_cast<double>(m_images + 1);
    for (std::size_t j = 0; j < m_n; ++j) {
      band[i * m_n + j] = (1.0 - t) * m_start[j] + t * m_finish[j];
    }
  }
  return band;
}

const double* DnebBand::imageAt(const double* band, std::size_t i) const {
  if (i == 0) return m_start.data();
  if (i == m_images + 1) return m_finish.data();
  return band + (i - 1) * m_n;
}

double DnebBand::meanSpacingDeviation(const double* band) const {
  std::vector<double> d(m_images + 1);
  double mean = 0.0;
  for (std::size_t i = 0; i <= m_images; ++i) {
    d[i] = distanceBetween(imageAt(band, i), imageAt(band, i + 1), m_n);
    mean += d[i];
  }
  mean /= static_cast<double>(d.size());
  if (!(mean > 0.0)) return 0.0;
  double deviation = 0.0;
  for (double di : d) deviation += std::abs(di - mean) / mean;
  return deviation / static_cast<double>(d.size());
}

double DnebBand::checkedSum(double sum) {
  for (std::size_t i = 1; i <= m_images; ++i) {
    if (m_energies[i] < m_coldFusionEnergy) {
      ++m_coldFusionEvaluations;
      return std::numeric_limits<double>::quiet_NaN();
    }
  }
  return sum;
}

double DnebBand::energy(const double* band) {
  double sum = 0.0;
  for (std::size_t i = 1; i <= m_images; ++i) {
    m_energies[i] = m_potential.energy(imageAt(band, i));
    sum += m_energies[i];
  }
  return checkedSum(sum);
}

void DnebBand::setBatchedImages(BatchedPotential* images) {
  if (images && images->dimension() != m_n)
    throw std::invalid_argument("DNEB band: the batched potential has " +
                                std::to_string(images->dimension()) + " coordinates, the band's " +
                                "images " + std::to_string(m_n));
  m_batched = images;
}

double DnebBand::energyGradient(const double* band, double* g) {
  // The interior images are contiguous in `band`: one batch, or one call each.
  if (m_batched)
    m_batched->energyGradient(m_images, band, m_gradients.data(), &m_energies[1], nullptr);
  double sum = 0.0;
  for (std::size_t i = 1; i <= m_images; ++i) {
    if (!m_batched)
      m_energies[i] = m_potential.energyGradient(imageAt(band, i), &m_gradients[(i - 1) * m_n]);
    sum += m_energies[i];
  }
  const SpringModel springs = {m_k, m_segmentSprings, m_doublyNudged};
  m_scratch.resize(4 * m_n);
  double* const plus = m_scratch.data();
  double* const minus = plus + m_n;
  double* const spring = minus + m_n;
  double* const perp = spring + m_n;
  for (std::size_t i = 1; i <= m_images; ++i) {
    const double* xp = imageAt(band, i - 1);
    const double* x = imageAt(band, i);
    const double* xn = imageAt(band, i + 1);
    const DnebTangentWeights w =
        dnebTangentWeights(m_energies[i - 1], m_energies[i], m_energies[i + 1]);
    double* tau = &m_tangents[(i - 1) * m_n];
    // The segments, the weighted tangent and the squared lengths in one pass.
    double norm2 = 0.0, plus2 = 0.0, minus2 = 0.0;
    for (std::size_t j = 0; j < m_n; ++j) {
      plus[j] = xn[j] - x[j];
      minus[j] = x[j] - xp[j];
      tau[j] = w.plus * plus[j] + w.minus * minus[j];
      norm2 += tau[j] * tau[j];
      plus2 += plus[j] * plus[j];
      minus2 += minus[j] * minus[j];
    }
    if (!(norm2 > 0.0) || !std::isfinite(norm2)) {  // equal energies or coincident images
      norm2 = 0.0;
      for (std::size_t j = 0; j < m_n; ++j) {
        tau[j] = plus[j] + minus[j];
        norm2 += tau[j] * tau[j];
      }
    }
    nudgedGradient(&m_gradients[(i - 1) * m_n], tau, norm2, plus, minus, plus2, minus2, springs,
                   m_n, spring, perp, g + (i - 1) * m_n);
  }
  return checkedSum(sum);
}

Dneb::Dneb(const DnebParams& params) : m_params(params) { m_params.check(); }

int Dneb::imageCount(double endpointDistance) const {
  if (m_params.images > 0) return m_params.images;
  const double scaled = std::floor(m_params.imageDensity * std::max(0.0, endpointDistance));
  if (!(scaled < static_cast<double>(m_params.maxImages))) return m_params.maxImages;
  return std::max(m_params.minImages, static_cast<int>(scaled));
}

int Dneb::iterationCount(int images) const {
  if (m_params.iterations > 0) return m_params.iterations;
  const double scaled = std::floor(m_params.iterationDensity * static_cast<double>(images));
  if (!(scaled < static_cast<double>(m_params.maxIterations))) return m_params.maxIterations;
  return std::max(1, static_cast<int>(scaled));
}

namespace {

// The finish aligned onto the start (alignEndpoints) or as given, and their distance; a
// cluster's by `alignment` when given.
std::vector<double> alignedFinish(const DnebParams& params, const std::vector<double>& start,
                                  const std::vector<double>& finish, double& distance,
                                  BatchedAlignment* alignment) {
  const std::size_t n = start.size();
  if (!params.alignEndpoints) {
    distance = distanceBetween(start.data(), finish.data(), n);
    return finish;
  }
  if (n % 3 != 0) {
    throw std::invalid_argument(
        "DNEB: alignEndpoints needs 3N Cartesian coordinates; switch it off for other "
        "coordinate systems");
  }
  if (alignment && batchedAlignmentFits(params.alignment)) {
    std::vector<AlignmentResult> aligned;
    alignment->align(params.alignment, {{&start, &finish}}, aligned);
    distance = aligned.front().distance;
    return std::move(aligned.front().alignedB);
  }
  AlignmentResult aligned = alignStructures(start, finish, params.alignment);
  distance = aligned.distance;
  return std::move(aligned.alignedB);
}

// The band's L-BFGS settings.
LbfgsParams bandLbfgsParams(const DnebParams& params, int iterations) {
  LbfgsParams lp;
  lp.historySize = params.historySize;
  lp.initialGuess = params.initialGuess;
  lp.maxStep = params.maxStepPerImage;              // per image: the workspace's step norm
  lp.maxRise = std::numeric_limits<double>::max();  // no energy-rise test: not a true gradient
  lp.maxIterations = iterations;
  lp.rmsTolerance = params.rmsTolerance;
  return lp;
}

// L-BFGS on the band x (in place), the spring constant adjusted after every iteration toward
// equal spacing (springAdjustFactor > 1).
LbfgsResult relaxBand(const DnebParams& params, DnebBand& band, std::vector<double>& x,
                      int iterations, std::size_t imageSize, const Lbfgs::Observer& observer) {
  const LbfgsParams lp = bandLbfgsParams(params, iterations);
  // The step norm is the largest per-image displacement, so that maxStep becomes OPTIM's
  // per-image cap (a band of 50 images should not be slowed 7x by a cap on the whole 50 x 3N
  // vector, nor let one image jump by sqrt(50) x maxStep). The direction is the two-loop
  // recursion, as in every host minimisation (the compact form's small matrix products and
  // copies of S and Y cost a band of LJ38 more than its direction is worth).
  LbfgsCpuWorkspaceOptions options;
  options.stepNormBlock = static_cast<Eigen::Index>(imageSize);
  LbfgsCpuWorkspace workspace(band, params.historySize, options);
  workspace.setCoordinates(x.data());
  std::vector<double> current(x.size());
  const auto adjust = [&](const LbfgsIteration& it) {
    if (params.springAdjustFactor > 1.0) {
      workspace.getCoordinates(current.data());
      const double k = band.springConstant();
      band.setSpringConstant(band.meanSpacingDeviation(current.data()) > params.spacingTolerance
                                 ? k * params.springAdjustFactor
                                 : k / params.springAdjustFactor);
    }
    if (observer) observer(it);
  };
  const LbfgsResult run = Lbfgs(lp).minimize(workspace, adjust);
  workspace.getCoordinates(x.data());
  return run;
}

// The endpoints and the relaxed interior images, with the band's tangents (none at the ends).
void storeImages(const std::vector<double>& start, const std::vector<double>& x,
                 const std::vector<double>& finish, const std::vector<double>& tangents,
                 DnebResult& result) {
  const std::size_t n = start.size();
  const int images = static_cast<int>(x.size() / n);
  result.images.reserve(images + 2);
  result.images.push_back(start);
  for (int i = 0; i < images; ++i) {
    result.images.emplace_back(x.begin() + i * n, x.begin() + (i + 1) * n);
  }
  result.images.push_back(finish);
  result.tangents.assign(images + 2, {});
  for (int i = 0; i < images; ++i) {
    result.tangents[i + 1].assign(tangents.begin() + i * n, tangents.begin() + (i + 1) * n);
  }
}

// Path length and the largest and mean deviation of a segment from the mean (percent).
void measureSpacing(DnebResult& result) {
  std::vector<double> segments;
  for (std::size_t i = 0; i + 1 < result.images.size(); ++i) {
    segments.push_back(distanceBetween(result.images[i].data(), result.images[i + 1].data(),
                                       result.images[i].size()));
    result.pathLength += segments.back();
  }
  const double mean = result.pathLength / static_cast<double>(segments.size());
  for (double d : segments) {
    if (mean > 0.0) {
      result.spacingDeviation =
          std::max(result.spacingDeviation, 100.0 * std::abs(d - mean) / mean);
      result.meanSpacingDeviation +=
          100.0 * std::abs(d - mean) / mean / static_cast<double>(segments.size());
    }
  }
}

// Interior local maxima of the energy profile, highest first.
void rankCandidates(DnebResult& result) {
  const int images = static_cast<int>(result.energies.size()) - 2;
  for (int i = 1; i <= images; ++i) {
    const double e = result.energies[i];
    if (e > result.energies[i - 1] && e > result.energies[i + 1]) result.candidates.push_back(i);
  }
  std::stable_sort(result.candidates.begin(), result.candidates.end(),
                   [&](int a, int b) { return result.energies[a] > result.energies[b]; });
}

// The images, spacing and candidates of a relaxed band x with its final energies and tangents.
void completeResult(const std::vector<double>& start, const std::vector<double>& x,
                    const std::vector<double>& finish, std::vector<double> energies,
                    const std::vector<double>& tangents, DnebResult& result) {
  result.energies = std::move(energies);
  storeImages(start, x, finish, tangents, result);
  measureSpacing(result);
  rankCandidates(result);
}

void checkEndpoints(std::size_t n, const std::vector<double>& start,
                    const std::vector<double>& finish) {
  if (start.size() != n || finish.size() != n) {
    throw std::invalid_argument("DNEB: start (" + std::to_string(start.size()) + ") and finish (" +
                                std::to_string(finish.size()) + ") must have the potential's " +
                                std::to_string(n) + " coordinates");
  }
}

}  // namespace

DnebTeamSettings dnebTeamSettings(const DnebParams& params, int images, int imageSize,
                                  int iterations) {
  DnebTeamSettings set;
  set.images = images;
  set.imageSize = imageSize;
  set.lbfgs = lbfgsTeamSettings(bandLbfgsParams(params, iterations),
                                static_cast<std::size_t>(images) * imageSize);
  set.springConstant = params.springConstant;
  set.springAdjustFactor = params.springAdjustFactor;
  set.spacingTolerance = params.spacingTolerance;
  set.coldFusionDrop = params.coldFusionDrop;
  set.doublyNudged = params.doublyNudged ? 1 : 0;
  set.segmentSprings = params.segmentSprings ? 1 : 0;
  return set;
}

bool sameDnebBandSettings(const DnebParams& a, const DnebParams& b) {
  return a.springConstant == b.springConstant && a.springAdjustFactor == b.springAdjustFactor &&
         a.spacingTolerance == b.spacingTolerance && a.rmsTolerance == b.rmsTolerance &&
         a.maxStepPerImage == b.maxStepPerImage && a.initialGuess == b.initialGuess &&
         a.historySize == b.historySize && a.doublyNudged == b.doublyNudged &&
         a.segmentSprings == b.segmentSprings && a.coldFusionDrop == b.coldFusionDrop;
}

void checkDnebBandJobs(const std::vector<DnebBandJob>& jobs) {
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const DnebBandJob& job = jobs[k];
    if (!job.start || !job.finish || job.images < 1 || job.iterations < 1)
      throw std::invalid_argument("DNEB bands: job " + std::to_string(k) +
                                  " needs both endpoints, at least one image (has " +
                                  std::to_string(job.images) + ") and one iteration (has " +
                                  std::to_string(job.iterations) + ")");
  }
}

DnebBandStart Dneb::prepare(const std::vector<double>& start, const std::vector<double>& finish,
                            std::size_t n, BatchedAlignment* alignment) const {
  checkEndpoints(n, start, finish);
  DnebBandStart band;
  band.finishAligned = alignedFinish(m_params, start, finish, band.endpointDistance, alignment);
  band.images = imageCount(band.endpointDistance);
  band.iterations = iterationCount(band.images);
  return band;
}

DnebResult Dneb::complete(const std::vector<double>& start, const DnebBandStart& prepared,
                          DnebRelaxedBand relaxed) const {
  DnebResult result;
  result.endpointDistance = prepared.endpointDistance;
  result.interiorImages = prepared.images;
  result.iterationLimit = prepared.iterations;
  const LbfgsResult& run = relaxed.outcome.run;
  result.rmsGradient = relaxed.outcome.rmsGradient;
  result.springConstant = relaxed.outcome.springConstant;
  result.iterations = run.iterations;
  result.functionCalls = (run.functionCalls + 1) * prepared.images + 2;
  result.coldFusionSteps = relaxed.outcome.coldFusionEvaluations;
  result.status = run.status;
  completeResult(start, relaxed.band, prepared.finishAligned, std::move(relaxed.energies),
                 relaxed.tangents, result);
  return result;
}

DnebResult Dneb::run(const std::vector<double>& start, const std::vector<double>& finish,
                     DnebBands& bands) const {
  const DnebBandStart prepared =
      prepare(start, finish, bands.imageSize(), bands.endpointAlignment());
  std::vector<DnebRelaxedBand> relaxed;
  bands.relax(m_params, {prepared.job(start)}, relaxed);
  return complete(start, prepared, std::move(relaxed.front()));
}

DnebResult Dneb::run(Potential& potential, const std::vector<double>& start,
                     const std::vector<double>& finish, const Lbfgs::Observer& observer,
                     BatchedPotential* batchedImages) const {
  const std::size_t n = potential.dimension();
  const DnebBandStart prepared = prepare(start, finish, n);
  const std::vector<double>& finishAligned = prepared.finishAligned;
  const int images = prepared.images;
  DnebResult result;
  result.endpointDistance = prepared.endpointDistance;
  result.interiorImages = images;
  result.iterationLimit = prepared.iterations;
  DnebBand band(potential, start, finishAligned, images, m_params.springConstant,
                m_params.doublyNudged, m_params.segmentSprings);
  band.setBatchedImages(batchedImages);
  std::vector<double> x = band.interpolate();
  if (std::isfinite(m_params.coldFusionDrop)) {
    band.setColdFusionEnergy(std::min(band.startEnergy(), band.finishEnergy()) -
                             m_params.coldFusionDrop);
  }
  const LbfgsResult run = relaxBand(m_params, band, x, result.iterationLimit, n, observer);
  // One more evaluation at the final band, so that energies and tangents belong to it.
  std::vector<double> g(x.size());
  band.energyGradient(x.data(), g.data());
  double g2 = 0.0;
  for (double v : g) g2 += v * v;

  result.rmsGradient = std::sqrt(g2 / static_cast<double>(g.size()));
  result.springConstant = band.springConstant();
  result.iterations = run.iterations;
  result.functionCalls = (run.functionCalls + 1) * images + 2;
  result.coldFusionSteps = band.coldFusionEvaluations();
  result.status = run.status;
  completeResult(start, x, finishAligned, band.energies(), band.tangents(), result);
  return result;
}

}  // namespace landscape
