#pragma once
// A whole DNEB band relaxed by one team (Trygubenko and Wales, J. Chem. Phys. 120, 2082 (2004);
// the band, its gradient and its L-BFGS as landscape/paths/Dneb.h describes them), written once
// for the GPU kernel (gpu/BatchedDnebKernels.cu: a block per band, a warp per image at a time)
// and its CPU twin (landscape/paths/DnebBandTwin). The band's L-BFGS is lbfgsTeamMinimise over
// images x n coordinates, with the two things a band changes: the step norm that maxStep caps is
// the largest displacement of one image (OPTIM's per-image cap), and after every accepted step
// the spring constant follows the image spacing. The energy-rise test is off (maxRise = the
// largest double), so only a NaN energy (an image below the cold-fusion energy) shrinks a step.
//
// A Team here is the L-BFGS Team of landscape/minimisation/LbfgsTeamTerms.h over the band, plus
//   forWarpItems(count, f)    f(i, warp) for items i in [0, count) of this thread's warp (every
//                             item once over the team; on the CPU all of them, in order), warp a
//                             team of its own of one image's n coordinates (forEach, sum<R>,
//                             isLeader, as DeviceTeam);
//   evaluateImage(warp, x, g) one image's energy at x, gradient into g (n each);
//   stopRequested()           the same answer on every thread (a stop ends the band with status
//                             Stopped before its next iteration, as Lbfgs::minimize polls).
// Every scalar of the band (spring constant, cold-fusion count) is held by all threads alike:
// each comes from values all threads read after a barrier, combined in the same order.
//
// Arithmetic is written as separate IEEE operations (the GPU file is compiled with -fmad=false,
// the twin with -ffp-contract=off), so kernel and twin give the same bits; against Dneb::run,
// whose sums run over the components in order, the band agrees to round-off.
#include <cmath>

#include "landscape/core/HostDevice.h"
#include "landscape/core/TeamTerms.h"
#include "landscape/minimisation/LbfgsTeamTerms.h"

namespace landscape {

/// Improved tangent (Henkelman and Jonsson, J. Chem. Phys. 113, 9978 (2000)) of an image of
/// energy e between neighbours of energies ep (previous) and en (next): the weights of the
/// segments plus = x_{i+1} - x_i and minus = x_i - x_{i-1}; the uphill neighbour's segment on a
/// monotonic stretch, an energy-weighted mixture at extrema.
struct DnebTangentWeights {
  double plus, minus;
};
LANDSCAPE_HD DnebTangentWeights dnebTangentWeights(double ep, double e, double en) {
  if (en > e && e > ep) return {1.0, 0.0};
  if (en < e && e < ep) return {0.0, 1.0};
  const double up = fabs(en - e), down = fabs(ep - e);
  const double dMax = up > down ? up : down, dMin = up < down ? up : down;
  return en > ep ? DnebTangentWeights{dMax, dMin} : DnebTangentWeights{dMin, dMax};
}

/// The band's settings (units as DnebParams').
struct DnebTeamSettings {
  int images;                 ///< interior images >= 1
  int imageSize;              ///< coordinates per image
  LbfgsTeamSettings lbfgs;    ///< n = images x imageSize; maxStep per image; maxRise off
  double springConstant;      ///< initial k (energy / length^2)
  double springAdjustFactor;  ///< 1: k fixed
  double spacingTolerance;
  double coldFusionDrop;  ///< below the lower endpoint (energy); infinity: off
  int doublyNudged;
  int segmentSprings;
};

/// One band's arrays: start, finish, tangents, energies and x are what goes in and comes out
/// (the io block, DnebTeamIo); the rest is work space.
struct DnebTeamStorage {
  const double* start;     ///< [imageSize]
  const double* finish;    ///< [imageSize], aligned onto start
  double* tangents;        ///< [images x imageSize] unit tangents at the last evaluation
  double* energies;        ///< [images + 2] at the last evaluation, endpoints included
  LbfgsTeamStorage lbfgs;  ///< x [images x imageSize] holds the band on return
  double* direction;       ///< [images x imageSize]
  double* trueGradients;   ///< [images x imageSize] the images' own gradients
  double* lengths;         ///< [images + 1] segment lengths, then per-image step norms
};

/// Doubles of a band's input and output (start, finish, x, tangents, energies) and of its work
/// space.
LANDSCAPE_HD long dnebTeamIoDoubles(int images, int imageSize) {
  const long n = static_cast<long>(images) * imageSize;
  return 2L * imageSize + 2 * n + images + 2;
}
LANDSCAPE_HD long dnebTeamWorkDoubles(int images, int imageSize, int m) {
  const long n = static_cast<long>(images) * imageSize;
  return (5 + 2L * m) * n + 2L * m + images + 1;
}

/// The outputs in a band's io block (start, finish, x, tangents, energies in that order).
struct DnebTeamIo {
  double* x;
  double* tangents;
  double* energies;
};
LANDSCAPE_HD DnebTeamIo dnebTeamIo(double* io, int images, int imageSize) {
  const long n = static_cast<long>(images) * imageSize;
  double* x = io + 2L * imageSize;
  return {x, x + n, x + 2 * n};
}

/// The arrays of one band over its io block and its work block.
LANDSCAPE_HD DnebTeamStorage dnebTeamLayout(double* io, double* work, int images, int imageSize,
                                            int m) {
  const long n = static_cast<long>(images) * imageSize;
  const DnebTeamIo out = dnebTeamIo(io, images, imageSize);
  double* x = out.x;
  DnebTeamStorage st;
  st.start = io;
  st.finish = io + imageSize;
  st.tangents = out.tangents;
  st.energies = out.energies;
  st.lbfgs = {x,
              work,
              work + n,
              work + 2 * n,
              work + 3 * n,
              work + (3 + static_cast<long>(m)) * n,
              work + (3 + 2L * m) * n,
              work + (3 + 2L * m) * n + m};
  double* rest = work + (3 + 2L * m) * n + 2L * m;
  st.direction = rest;
  st.trueGradients = rest + n;
  st.lengths = rest + 2 * n;
  return st;
}

/// A band under way: its settings, arrays and scalars.
struct DnebTeamBand {
  DnebTeamSettings set;
  DnebTeamStorage st;
  double springConstant;
  double coldFusionEnergy;  ///< -infinity: off
  int coldFusionEvaluations;
};

/// What a band ended with.
struct DnebTeamOutcome {
  LbfgsResult run;            ///< the band's L-BFGS
  double rmsGradient;         ///< of the band gradient at the final band (energy / length)
  double springConstant;      ///< k at the end
  int coldFusionEvaluations;  ///< evaluations with an image below the cold-fusion energy
  int unused;
};

/// The band gradient of one image (Dneb.h): with tau the improved tangent, the true gradient
/// perpendicular to tau, the spring gradient k (2 x_i - x_{i-1} - x_{i+1}) along it (or
/// -k (|x_{i+1} - x_i| - |x_i - x_{i-1}|) with segment springs) and, doubly nudged, the part of
/// the perpendicular spring gradient that does not oppose the true one. Writes the unit tangent.
template <class Warp>
LANDSCAPE_HD void dnebTeamNudge(Warp& warp, const double* xp, const double* x, const double* xn,
                                DnebTangentWeights w, const double* gTrue, double k,
                                bool segmentSprings, bool doublyNudged, double* tau,
                                double* gBand) {
  // The weighted tangent and the squared lengths of tau and of both segments.
  const TeamSum<3> lengths = warp.template sum<3>([&](int j) {
    const double plus = xn[j] - x[j], minus = x[j] - xp[j];
    tau[j] = w.plus * plus + w.minus * minus;
    return TeamSum<3>{{tau[j] * tau[j], plus * plus, minus * minus}};
  });
  double norm2 = lengths.v[0];
  if (!(norm2 > 0.0) || !teamFinite(norm2))  // equal energies or coincident images
    norm2 = warp.template sum<1>([&](int j) {
                  tau[j] = (xn[j] - x[j]) + (x[j] - xp[j]);
                  return TeamSum<1>{{tau[j] * tau[j]}};
                })
                .v[0];
  const double tauNorm = sqrt(norm2);
  // The true and spring gradients along the unit tangent.
  const TeamSum<2> along = warp.template sum<2>([&](int j) {
    tau[j] = tauNorm > 0.0 ? tau[j] / tauNorm : 0.0;
    const double spring = k * ((x[j] - xp[j]) - (xn[j] - x[j]));
    return TeamSum<2>{{gTrue[j] * tau[j], spring * tau[j]}};
  });
  const double trueAlong = along.v[0], springAlong = along.v[1];
  // |g_perp|^2 and g^s_perp . g_perp.
  const TeamSum<2> perp = warp.template sum<2>([&](int j) {
    const double p = gTrue[j] - trueAlong * tau[j];
    const double spring = k * ((x[j] - xp[j]) - (xn[j] - x[j])) - springAlong * tau[j];
    return TeamSum<2>{{p * p, spring * p}};
  });
  const double perpNorm2 = perp.v[0];
  const double parallelSpring =
      segmentSprings ? -k * (sqrt(lengths.v[1]) - sqrt(lengths.v[2])) : springAlong;
  // Doubly nudged part: undefined, and left out, where g_perp vanishes.
  const bool nudgeTwice = doublyNudged && perpNorm2 > 0.0;
  const double twice = nudgeTwice ? perp.v[1] / perpNorm2 : 0.0;
  warp.forEach([&](int j) {
    const double p = gTrue[j] - trueAlong * tau[j];
    double b = p + parallelSpring * tau[j];
    if (nudgeTwice) {
      const double spring = k * ((x[j] - xp[j]) - (xn[j] - x[j])) - springAlong * tau[j];
      b = b + (spring - twice * p);
    }
    gBand[j] = b;
  });
}

/// Image i of the band x (0: start, images + 1: finish).
LANDSCAPE_HD const double* dnebTeamImage(const DnebTeamBand& band, const double* x, int i) {
  if (i == 0) return band.st.start;
  if (i == band.set.images + 1) return band.st.finish;
  return x + static_cast<long>(i - 1) * band.set.imageSize;
}

/// The band "energy" (the sum of the interior image energies; NaN while an image is below the
/// cold-fusion energy) at x, the band gradient into g. Starts with a barrier and ends with one.
template <class Team>
LANDSCAPE_HD double dnebTeamEvaluate(Team& team, DnebTeamBand& band, const double* x, double* g) {
  const int images = band.set.images, size = band.set.imageSize;
  double* energies = band.st.energies;
  team.sync();
  team.forWarpItems(images, [&](int i, auto& warp) {
    const long offset = static_cast<long>(i) * size;
    const double e = team.evaluateImage(warp, x + offset, band.st.trueGradients + offset);
    if (warp.isLeader()) energies[i + 1] = e;
  });
  team.sync();
  const double k = band.springConstant;
  team.forWarpItems(images, [&](int i, auto& warp) {
    const long offset = static_cast<long>(i) * size;
    dnebTeamNudge(warp, dnebTeamImage(band, x, i), x + offset, dnebTeamImage(band, x, i + 2),
                  dnebTangentWeights(energies[i], energies[i + 1], energies[i + 2]),
                  band.st.trueGradients + offset, k, band.set.segmentSprings != 0,
                  band.set.doublyNudged != 0, band.st.tangents + offset, g + offset);
  });
  team.sync();
  double sum = 0.0;
  bool cold = false;
  for (int i = 1; i <= images; ++i) {
    sum = sum + energies[i];
    cold = cold || energies[i] < band.coldFusionEnergy;
  }
  if (!cold) return sum;
  ++band.coldFusionEvaluations;
  return static_cast<double>(NAN);
}

/// The band's changes to lbfgsTeamMinimise (LbfgsTeamPlainHooks).
struct DnebTeamHooks {
  DnebTeamBand* band;

  /// The largest |p| of one image.
  template <class Team, class Owned>
  LANDSCAPE_HD double stepNorm(Team& team, const Owned&, double) {
    const int images = band->set.images, size = band->set.imageSize;
    const double* p = band->st.direction;
    double* norms = band->st.lengths;
    team.sync();  // p written by its owners
    team.forWarpItems(images, [&](int i, auto& warp) {
      const double* pi = p + static_cast<long>(i) * size;
      const double norm2 =
          warp.template sum<1>([&](int j) { return TeamSum<1>{{pi[j] * pi[j]}}; }).v[0];
      if (warp.isLeader()) norms[i] = sqrt(norm2);
    });
    team.sync();
    double largest = 0.0;
    for (int i = 0; i < images; ++i) largest = norms[i] > largest ? norms[i] : largest;
    return largest;  // the next writes of lengths[] follow an evaluation's barriers
  }

  /// k times springAdjustFactor while the mean relative deviation of the segment lengths from
  /// their mean exceeds spacingTolerance, divided by it otherwise (OPTIM's NEBK factor).
  template <class Team>
  LANDSCAPE_HD void accepted(Team& team, const LbfgsTeamStorage& st, double) {
    const DnebTeamSettings& set = band->set;
    if (!(set.springAdjustFactor > 1.0)) return;
    const int segments = set.images + 1;
    double* lengths = band->st.lengths;
    team.sync();  // x written by its owners
    team.forWarpItems(segments, [&](int i, auto& warp) {
      const double* a = dnebTeamImage(*band, st.x, i);
      const double* b = dnebTeamImage(*band, st.x, i + 1);
      const double d2 = warp.template sum<1>([&](int j) {
                              const double d = a[j] - b[j];
                              return TeamSum<1>{{d * d}};
                            })
                            .v[0];
      if (warp.isLeader()) lengths[i] = sqrt(d2);
    });
    team.sync();
    double mean = 0.0;
    for (int i = 0; i < segments; ++i) mean = mean + lengths[i];
    mean = mean / static_cast<double>(segments);
    double deviation = 0.0;
    if (mean > 0.0) {
      for (int i = 0; i < segments; ++i) deviation = deviation + fabs(lengths[i] - mean) / mean;
      deviation = deviation / static_cast<double>(segments);
    }
    band->springConstant = deviation > set.spacingTolerance
                               ? band->springConstant * set.springAdjustFactor
                               : band->springConstant / set.springAdjustFactor;
  }

  /// A stop request ends the band before its next iteration (status Stopped): the team's
  /// stopRequested(), the host's flag on the device.
  template <class Team>
  LANDSCAPE_HD bool stopped(Team& team) {
    return team.stopRequested();
  }
};

/// Relaxes the band between st.start and st.finish from their linear interpolation: the band is
/// left in st.lbfgs.x as laid out (dnebTeamLayout), with the energies and tangents of one more
/// evaluation there.
template <class Team>
LANDSCAPE_HD DnebTeamOutcome dnebTeamRelax(Team& team, DnebTeamBand& band) {
  const DnebTeamSettings& set = band.set;
  const int images = set.images, size = set.imageSize;
  LbfgsTeamStorage st = band.st.lbfgs;
  double* const x = st.x;
  const double* start = band.st.start;
  const double* finish = band.st.finish;
  team.forOwned([&](int c, int) {
    const int i = c / size, j = c - i * size;
    const double t = static_cast<double>(i + 1) / static_cast<double>(images + 1);
    x[c] = (1.0 - t) * start[j] + t * finish[j];
  });
  // The endpoints' energies (their gradients into g and gt, scratch until the first evaluation).
  team.forWarpItems(2, [&](int e, auto& warp) {
    const double energy = team.evaluateImage(warp, e == 0 ? start : finish, e == 0 ? st.g : st.gt);
    if (warp.isLeader()) band.st.energies[e == 0 ? 0 : images + 1] = energy;
  });
  team.sync();
  const double lower = band.st.energies[0] < band.st.energies[images + 1]
                           ? band.st.energies[0]
                           : band.st.energies[images + 1];
  band.springConstant = set.springConstant;
  band.coldFusionEvaluations = 0;
  band.coldFusionEnergy =
      teamFinite(set.coldFusionDrop) ? lower - set.coldFusionDrop : -static_cast<double>(INFINITY);
  DnebTeamOutcome out{};
  out.run = lbfgsTeamMinimise(team, st, set.lbfgs, DnebTeamHooks{&band});
  // One more evaluation at the final band, so that energies and tangents belong to it.
  dnebTeamEvaluate(team, band, st.x, st.g);
  const double* g = st.g;
  const double g2 = team.template sumOwned<1>(
                            [&](int c, int, TeamSum<1>& acc) { acc.v[0] = acc.v[0] + g[c] * g[c]; })
                        .v[0];
  if (st.x != x) {
    const double* last = st.x;
    team.forOwned([&](int c, int) { x[c] = last[c]; });
  }
  out.rmsGradient = sqrt(g2 / static_cast<double>(set.lbfgs.n));
  out.springConstant = band.springConstant;
  out.coldFusionEvaluations = band.coldFusionEvaluations;
  return out;
}

}  // namespace landscape
