#include "landscape/dynamics/SopDynamics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"
#include "landscape/core/StopRequest.h"
#include "landscape/core/InputChecks.h"
#include "landscape/dynamics/LangevinTerms.h"
#include "landscape/dynamics/RandomTerms.h"
#include "potentials/Sop.h"
#include "potentials/SopTerms.h"

namespace landscape {

double sopFrictionPreset(const std::string& name) {
  if (name == "sop-gpu") return kSopGpuFriction;
  if (name == "bulk-water") return kBulkWaterFriction;
  throw std::invalid_argument("SOP friction preset must be 'sop-gpu' or 'bulk-water', got " +
                              quoteInput(name));
}

void SopDynamicsParams::check() const {
  langevin.check();
  require(replicas >= 1, "SOP dynamics replicas must be >= 1, got " + std::to_string(replicas));
  requirePrecision(precision, sopDynamicsPrecisions(), "SOP dynamics");
  require(std::isfinite(skin) && skin > 0, "SOP neighbour-list skin (skin, A) must be > 0");
  require(rebuildInterval >= 0, "SOP rebuildInterval (steps) must be >= 0");
  require(maxNeighbours >= 0, "SOP maxNeighbours must be >= 0 (0 = automatic)");
  require(cudaGraphSteps >= 0 && cudaGraphSteps % 2 == 0,
          "SOP cudaGraphSteps must be 0 (off) or an even number of steps, got " +
              std::to_string(cudaGraphSteps));
  require(cudaPersistentSteps >= 0,
          "SOP cudaPersistentSteps must be >= 0 (0 = off), got " +
              std::to_string(cudaPersistentSteps));
  if (pulling.enabled) {
    require(std::isfinite(pulling.springK) && pulling.springK > 0,
            "pulling springK (kcal/mol/A^2) must be > 0");
    require(std::isfinite(pulling.speed), "pulling speed (A/ps) must be finite");
  }
  if (indentation.enabled) {
    const SopIndentationParams& t = indentation;
    require(std::isfinite(t.tipRadius) && t.tipRadius > 0, "indentation tipRadius (A) must be > 0");
    require(std::isfinite(t.tipEpsilon) && t.tipEpsilon >= 0,
            "indentation tipEpsilon (kcal/mol) must be >= 0");
    require(std::isfinite(t.tipSigma) && t.tipSigma > 0, "indentation tipSigma (A) must be > 0");
    require(std::isfinite(t.tipCutoff) && t.tipCutoff > 0.5 * t.tipSigma,
            "indentation tipCutoff (A) must be > tipSigma / 2");
    require(std::isfinite(t.springK) && t.springK > 0,
            "indentation springK (kcal/mol/A^2) must be > 0");
    require(std::isfinite(t.speed), "indentation speed (A/ps) must be finite");
    require(std::isfinite(t.tipFriction) && t.tipFriction > 0,
            "indentation tipFriction (kcal ps/(mol A^2)) must be > 0");
    const double norm =
        std::sqrt(t.direction[0] * t.direction[0] + t.direction[1] * t.direction[1] +
                  t.direction[2] * t.direction[2]);
    require(std::isfinite(norm) && norm > 0, "indentation direction must be a non-zero vector");
    require(std::isfinite(t.startGap), "indentation startGap (A) must be finite");
    require(std::isfinite(t.fixedLayer) && t.fixedLayer >= 0,
            "indentation fixedLayer (A) must be >= 0");
  }
  require(!(pulling.enabled && indentation.enabled),
          "SOP dynamics: choose pulling or indentation, not both");
}

SopProtocol makeSopProtocol(const SopTopology& topology, const std::vector<double>& start,
                            const SopDynamicsParams& params) {
  params.check();
  const int n = static_cast<int>(topology.beadCount());
  if (start.size() != 3 * topology.beadCount())
    throw std::invalid_argument("SOP dynamics: the start structure has " +
                                std::to_string(start.size()) + " coordinates, the topology " +
                                std::to_string(3 * n));
  SopProtocol p;
  p.fixed.assign(n, 0);
  if (params.pulling.enabled) {
    const SopPullingParams& q = params.pulling;
    p.pulling = true;
    p.pulledBead = q.pulledBead < 0 ? n - 1 : q.pulledBead;
    p.fixedBead = q.fixedBead;
    require(p.pulledBead < n, "pulling pulledBead " + std::to_string(p.pulledBead) +
                                  " is not a bead (the system has " + std::to_string(n) + ")");
    require(p.fixedBead < n && p.fixedBead != p.pulledBead,
            "pulling fixedBead must be -1 or a bead other than the pulled one");
    std::array<double, 3> from{0, 0, 0};
    if (p.fixedBead >= 0) {
      p.fixed[p.fixedBead] = 1;
      for (int c = 0; c < 3; ++c) from[c] = start[3 * p.fixedBead + c];
    } else {
      for (int i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) from[c] += start[3 * i + c] / n;
    }
    double norm = 0;
    for (int c = 0; c < 3; ++c) {
      p.pullAnchor0[c] = start[3 * p.pulledBead + c];
      p.pullDirection[c] = p.pullAnchor0[c] - from[c];
      norm += p.pullDirection[c] * p.pullDirection[c];
    }
    norm = std::sqrt(norm);
    require(norm > 1e-9, "pulling: the pulled bead sits on the fixed point, no direction");
    for (double& d : p.pullDirection) d /= norm;
    p.pullSpringK = q.springK;
    p.pullSpeed = q.speed;
  }
  if (params.indentation.enabled) {
    const SopIndentationParams& t = params.indentation;
    p.indentation = true;
    const double norm =
        std::sqrt(t.direction[0] * t.direction[0] + t.direction[1] * t.direction[1] +
                  t.direction[2] * t.direction[2]);
    for (int c = 0; c < 3; ++c) p.tipDirection[c] = t.direction[c] / norm;
    // Heights along n: the top of the structure has the smallest projection, the bottom the
    // largest.
    std::array<double, 3> centre{0, 0, 0};
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) centre[c] += start[3 * i + c] / n;
    double top = std::numeric_limits<double>::max(), bottom = std::numeric_limits<double>::lowest();
    std::vector<double> h(n);
    for (int i = 0; i < n; ++i) {
      h[i] = 0;
      for (int c = 0; c < 3; ++c) h[i] += (start[3 * i + c] - centre[c]) * p.tipDirection[c];
      top = std::min(top, h[i]);
      bottom = std::max(bottom, h[i]);
    }
    for (int i = 0; i < n; ++i)
      if (h[i] >= bottom - t.fixedLayer) p.fixed[i] = 1;
    const double offset = top - t.startGap - t.tipRadius;
    for (int c = 0; c < 3; ++c) p.tipOrigin[c] = centre[c] + offset * p.tipDirection[c];
    p.tipRadius = t.tipRadius;
    p.tipEpsilon = t.tipEpsilon;
    p.tipSigma = t.tipSigma;
    p.tipCutoff = t.tipCutoff;
    p.tipSpringK = t.springK;
    p.tipSpeed = t.speed;
    p.tipMobility = params.langevin.timeStep / t.tipFriction;
    p.tipMinGap = 0.2 * t.tipSigma;
  }
  return p;
}

SopSample sampleSop(const SopTopology& topology, const SopProtocol& p, const double* x,
                    double tipPosition, double time, double qTolerance) {
  SopSample s;
  s.time = time;
  s.q = nativeContactFraction(topology, x, qTolerance);
  if (p.pulling) {
    double along = 0, ext2 = 0;
    for (int c = 0; c < 3; ++c) {
      const double anchor = p.pullAnchor0[c] + p.pullSpeed * time * p.pullDirection[c];
      along += (anchor - x[3 * p.pulledBead + c]) * p.pullDirection[c];
      const double from = p.fixedBead >= 0 ? x[3 * p.fixedBead + c] : 0.0;
      ext2 += (x[3 * p.pulledBead + c] - from) * (x[3 * p.pulledBead + c] - from);
    }
    s.force = p.pullSpringK * along;
    s.extension = std::sqrt(ext2);
  }
  if (p.indentation) {
    const double base = p.tipSpeed * time;
    s.extension = base;
    s.tipPosition = tipPosition;
    s.force = p.tipSpringK * (base - tipPosition);
  }
  return s;
}

namespace {

constexpr double kSopBytesPerBeadAndReplica = 256.0;

// params, once the memory they ask for is known to be there (runs before any member allocates).
const SopDynamicsParams& affordable(const SopTopology& topology, const SopDynamicsParams& params) {
  requireSopDynamicsMemory(topology.beadCount(), params.replicas);
  return params;
}

}  // namespace

void requireSopDynamicsMemory(std::size_t beads, int replicas) {
  requireMemory("SOP dynamics of " + std::to_string(replicas) + " replicas x " +
                    std::to_string(beads) + " beads",
                static_cast<double>(beads) * static_cast<double>(replicas),
                kSopBytesPerBeadAndReplica);
}

SopDynamicsCpu::SopDynamicsCpu(const SopTopology& topology, const std::vector<double>& start,
                               const SopDynamicsParams& params)
    : m_params(affordable(topology, params)),
      m_protocol(makeSopProtocol(topology, start, params)),
      m_beads(topology.beadCount()),
      m_sop(std::make_unique<Sop>(topology)),
      m_streams(params.langevin.generator, params.langevin.seed,
                topology.beadCount() * static_cast<std::size_t>(params.replicas)),
      m_tip(params.replicas, 0.0),
      m_g(3 * topology.beadCount()),
      m_words(kWordsPerStreamStep * m_streams.streams()) {
  m_x.reserve(start.size() * params.replicas);
  for (int r = 0; r < params.replicas; ++r) m_x.insert(m_x.end(), start.begin(), start.end());
}

void SopDynamicsCpu::run(long steps) {
  if (steps < 0) throw std::invalid_argument("SOP dynamics run: steps must be >= 0");
  const SopProtocol& p = m_protocol;
  const std::size_t n = m_beads, total = m_streams.streams();
  const double mobility = m_params.langevin.mobilityStep();
  const double amplitude = m_params.langevin.noiseAmplitude();
  const SopRepulsion<double> tipRep = makeSopRepulsion<double>(
      p.tipEpsilon, p.tipSigma > 0 ? p.tipSigma : 1.0, p.tipCutoff > 0 ? p.tipCutoff : 1.0);
  // A stop request ends the run between two steps (stepsDone() tells how far it got).
  for (long step = 0; step < steps && !stopRequested(); ++step) {
    const double t = static_cast<double>(m_steps) * m_params.langevin.timeStep;
    m_streams.nextStep(m_words.data());
    for (int r = 0; r < m_params.replicas; ++r) {
      double* x = m_x.data() + 3 * n * r;
      m_sop->energyGradient(x, m_g.data());
      if (p.pulling) {
        for (int c = 0; c < 3; ++c) {
          const double anchor = p.pullAnchor0[c] + p.pullSpeed * t * p.pullDirection[c];
          m_g[3 * p.pulledBead + c] += p.pullSpringK * (x[3 * p.pulledBead + c] - anchor);
        }
      }
      double dUdz = 0;
      if (p.indentation) {
        double centre[3];
        for (int c = 0; c < 3; ++c) centre[c] = p.tipOrigin[c] + m_tip[r] * p.tipDirection[c];
        for (std::size_t i = 0; i < n; ++i) {
          double d[3], d2 = 0;
          for (int c = 0; c < 3; ++c) {
            d[c] = x[3 * i + c] - centre[c];
            d2 += d[c] * d[c];
          }
          const SopTerm<double> term = sopTip(std::sqrt(d2), p.tipRadius, tipRep, p.tipMinGap);
          for (int c = 0; c < 3; ++c) {
            m_g[3 * i + c] += term.dEdrOverR * d[c];
            dUdz -= term.dEdrOverR * d[c] * p.tipDirection[c];
          }
        }
      }
      for (std::size_t i = 0; i < n; ++i) {
        if (p.fixed[i]) continue;
        const std::size_t s = r * n + i;
        const std::uint32_t w[4] = {m_words[s], m_words[total + s], m_words[2 * total + s],
                                    m_words[3 * total + s]};
        double gauss[3];
        rng::particleGaussians(w, gauss);
        for (int c = 0; c < 3; ++c)
          x[3 * i + c] =
              langevinUpdate(x[3 * i + c], m_g[3 * i + c], mobility, amplitude, gauss[c]);
      }
      if (p.indentation)
        m_tip[r] -= p.tipMobility * (p.tipSpringK * (m_tip[r] - p.tipSpeed * t) + dUdz);
    }
    ++m_steps;
  }
}

std::vector<double> SopDynamicsCpu::positions(int replica) {
  if (replica < 0 || replica >= m_params.replicas)
    throw std::out_of_range("SOP dynamics: no replica " + std::to_string(replica));
  const auto first = m_x.begin() + 3 * m_beads * replica;
  return std::vector<double>(first, first + 3 * m_beads);
}

double SopDynamicsCpu::tipPosition(int replica) {
  if (replica < 0 || replica >= m_params.replicas)
    throw std::out_of_range("SOP dynamics: no replica " + std::to_string(replica));
  return m_tip[replica];
}

void requireSopStateShape(const SopDynamicsState& s, std::size_t beads, int replicas) {
  const std::size_t coordinates = 3 * beads * static_cast<std::size_t>(replicas);
  require(s.step >= 0 && s.random.step == static_cast<std::uint64_t>(s.step),
          "SOP dynamics state: step " + std::to_string(s.step) + " but random streams at step " +
              std::to_string(s.random.step));
  require(s.positions.size() == coordinates && s.tips.size() == static_cast<std::size_t>(replicas),
          "SOP dynamics state: " + std::to_string(s.positions.size()) + " coordinates and " +
              std::to_string(s.tips.size()) + " tips for " + std::to_string(replicas) +
              " replicas of " + std::to_string(beads) + " beads");
  require(s.listPositions.empty() == s.rebuildDue.empty() &&
              (s.listPositions.empty() || (s.listPositions.size() == coordinates &&
                                           s.rebuildDue.size() == s.tips.size())),
          "SOP dynamics state: an incomplete neighbour-list reference");
  const auto finite = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
  };
  require(finite(s.positions) && finite(s.tips) && finite(s.listPositions),
          "SOP dynamics state: non-finite coordinates");
}

SopDynamicsState SopDynamicsCpu::saveState() {
  SopDynamicsState s;
  s.step = m_steps;
  s.positions = m_x;
  s.tips = m_tip;
  s.random = m_streams.state();
  return s;
}

void SopDynamicsCpu::restoreState(const SopDynamicsState& s) {
  requireSopStateShape(s, m_beads, m_params.replicas);
  require(s.listPositions.empty(), "SOP dynamics state: a CUDA neighbour-list reference given "
                                   "to the CPU backend");
  m_streams.restore(s.random);  // checks the words first
  m_steps = s.step;
  m_x = s.positions;
  m_tip = s.tips;
}

}  // namespace landscape
