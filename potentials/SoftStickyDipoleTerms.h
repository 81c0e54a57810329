#pragma once
// Physics of one pair of soft-sticky-dipole (SSD) water molecules (Liu and Ichiye, J. Phys. Chem.
// 100, 2723 (1996), eqs 1-6; the sticky term with the factor 1/2 of Chandra and Ichiye, J. Chem.
// Phys. 111, 2701 (1999), as Fennell and Gezelter, J. Chem. Phys. 120, 9175 (2004), eqs 2-5 and
// OpenMD write it), shared by the CPU loop (potentials/SoftStickyDipole) and its device twin.
// Energies in kcal/mol, lengths in Angstrom.
//
// Each molecule is a point with a body frame (ex, ey, ez): the dipole mu lies along ez. With
// r = r_j - r_i, d = |r|, and the separation seen from each molecule in its own frame,
//   (x_i, y_i, z_i) = (ex_i.r, ey_i.r, ez_i.r),   (x_j, y_j, z_j) = -(ex_j.r, ey_j.r, ez_j.r),
//   U    = U_LJ + U_dp + U_sp,
//   U_LJ = 4 eps [(sigma/d)^12 - (sigma/d)^6],
//   U_dp = k mu^2 [ez_i.ez_j / d^3 - 3 (ez_i.r)(ez_j.r) / d^5],
//   U_sp = (v0/2) s(d) (w_i + w_j) + (v0'/2) s'(d) (w'_i + w'_j),
//   w_i  = sin(theta) sin(2 theta) cos(2 phi) = 2 (x_i^2 - y_i^2) z_i / d^3,
//   w'_i = (z_i/d - 0.6)^2 (z_i/d + 0.8)^2 - w0,
// theta, phi the polar angles of the separation in the molecule's frame. The switches are 1 below
// rL, 0 above rU and (rU - d)^2 (rU + 2 d - 3 rL) / (rU - rL)^3 between (eq 5 of Liu and Ichiye),
// s' likewise with rL', rU'. w_i is the tetrahedral hydrogen-bonding term: it attracts (w_i < 0)
// towards the hydrogens' directions (z > 0, in the body y-z plane) and the lone pairs' (z < 0, in
// the x-z plane); w' corrects its strength along the dipole.
//
// Derivatives are taken with the six axes as free 3-vectors in the formula above (the components
// are linear in them); softStickyDipoleMarkerGradient carries them through the frame's
// construction from 4 marker sites (potentials/SoftStickyDipole.h). This is the only place the
// formula lives.
#include <cmath>

#include "landscape/core/HostDevice.h"

namespace landscape {

/// The constants of one SSD model (SoftStickyDipoleParams::pairConstants() fills them).
struct SoftStickyDipoleConstants {
  double fourEps;       ///< 4 eps, kcal/mol
  double sigma2;        ///< sigma^2, Angstrom^2
  double dipoleFactor;  ///< k mu^2, kcal/mol Angstrom^3
  double halfV0;        ///< v0 / 2, kcal/mol
  double halfV0Prime;   ///< v0' / 2, kcal/mol
  double w0;
  double rL, rU, rLPrime, rUPrime;  ///< switch ranges, Angstrom
};

/// A frame's three axes, each a 3-vector: e[0] = ex, e[1] = ey, e[2] = ez.
struct SoftStickyDipoleFrame {
  double e[3][3];
};

/// The switch of Liu and Ichiye's eq 5 and its derivative with respect to d.
LANDSCAPE_HD void softStickySwitch(double d, double lower, double upper, double& s, double& ds) {
  if (d <= lower) {
    s = 1.0;
    ds = 0.0;
  } else if (d >= upper) {
    s = 0.0;
    ds = 0.0;
  } else {
    const double width = upper - lower, inv3 = 1.0 / (width * width * width);
    const double a = upper - d;
    s = a * a * (upper + 2.0 * d - 3.0 * lower) * inv3;
    ds = -6.0 * a * (d - lower) * inv3;
  }
}

/// One molecule's sticky terms s w + s' w' (weighted by v0/2 and v0'/2) from its view of the
/// separation (x, y, z) at distance d = 1 / id; adds d(term)/d(x, y, z) to dxyz and d(term)/dd (at
/// fixed x, y, z) to dd. id = 1 / d.
LANDSCAPE_HD double softStickyOneSide(const SoftStickyDipoleConstants& c, double x, double y,
                                      double z, double id, double s, double sp, double dsdd,
                                      double dspdd, double dxyz[3], double& dd) {
  const double id3 = id * id * id;
  const double w = 2.0 * (x * x - y * y) * z * id3;
  const double cz = z * id;
  const double a = cz - 0.6, b = cz + 0.8;
  const double wp = a * a * b * b - c.w0;
  const double dwpdc = 2.0 * a * b * (a + b);
  const double gw = c.halfV0 * s, gwp = c.halfV0Prime * sp;
  dxyz[0] += gw * 4.0 * x * z * id3;
  dxyz[1] -= gw * 4.0 * y * z * id3;
  dxyz[2] += gw * 2.0 * (x * x - y * y) * id3 + gwp * dwpdc * id;
  dd +=
      c.halfV0 * dsdd * w + c.halfV0Prime * dspdd * wp - gw * 3.0 * w * id - gwp * dwpdc * cz * id;
  return gw * w + gwp * wp;
}

/// One pair: energy and, when dr is not null, dU/dr (dr[3]: the gradient on centre j; centre i
/// gets -dr) and dU/d(axes) of each molecule (gi, gj: same layout as the frames). r2 > 0.
LANDSCAPE_HD double softStickyDipolePair(const SoftStickyDipoleConstants& c, const double r[3],
                                         const SoftStickyDipoleFrame& fi,
                                         const SoftStickyDipoleFrame& fj, double* dr,
                                         SoftStickyDipoleFrame* gi, SoftStickyDipoleFrame* gj) {
  const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const double d = sqrt(r2), id = 1.0 / d, ir2 = id * id;
  // Lennard-Jones.
  const double sr2 = c.sigma2 * ir2, sr6 = sr2 * sr2 * sr2;
  double energy = c.fourEps * (sr6 * sr6 - sr6);
  double dUdd = c.fourEps * (-12.0 * sr6 * sr6 + 6.0 * sr6) * id;  // at fixed orientations
  // Point dipoles.
  const double* ui = fi.e[2];
  const double* uj = fj.e[2];
  const double ai = ui[0] * r[0] + ui[1] * r[1] + ui[2] * r[2];
  const double aj = uj[0] * r[0] + uj[1] * r[1] + uj[2] * r[2];
  const double cij = ui[0] * uj[0] + ui[1] * uj[1] + ui[2] * uj[2];
  const double id3 = ir2 * id, id5 = id3 * ir2;
  energy += c.dipoleFactor * (cij * id3 - 3.0 * ai * aj * id5);
  // Sticky term: each molecule's view of the separation.
  double s, ds, sp, dsp;
  softStickySwitch(d, c.rL, c.rU, s, ds);
  softStickySwitch(d, c.rLPrime, c.rUPrime, sp, dsp);
  double view[2][3], dview[2][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  const SoftStickyDipoleFrame* frames[2] = {&fi, &fj};
  for (int m = 0; m < 2; ++m) {
    const double sign = m == 0 ? 1.0 : -1.0;
    for (int a = 0; a < 3; ++a) {
      const double* e = frames[m]->e[a];
      view[m][a] = sign * (e[0] * r[0] + e[1] * r[1] + e[2] * r[2]);
    }
  }
  if (s > 0.0 || sp > 0.0) {
    for (int m = 0; m < 2; ++m)
      energy += softStickyOneSide(c, view[m][0], view[m][1], view[m][2], id, s, sp, ds, dsp,
                                  dview[m], dUdd);
  }
  if (dr == nullptr) return energy;

  // d/dr of the dipole term: k mu^2 [-3 cij r / d^5 - 3 (aj u_i + ai u_j) / d^5
  // + 15 ai aj r / d^7]; of the rest through d (r / d) and the views (sign e_a).
  const double kd = c.dipoleFactor;
  for (int k = 0; k < 3; ++k) {
    double v = dUdd * r[k] * id;
    v += kd * (-3.0 * cij * r[k] * id5 - 3.0 * (aj * ui[k] + ai * uj[k]) * id5 +
               15.0 * ai * aj * r[k] * id5 * ir2);
    for (int a = 0; a < 3; ++a) v += dview[0][a] * fi.e[a][k] - dview[1][a] * fj.e[a][k];
    dr[k] = v;
  }
  for (int a = 0; a < 3; ++a)
    for (int k = 0; k < 3; ++k) {
      gi->e[a][k] = dview[0][a] * r[k];
      gj->e[a][k] = -dview[1][a] * r[k];
    }
  for (int k = 0; k < 3; ++k) {
    gi->e[2][k] += kd * (uj[k] * id3 - 3.0 * aj * r[k] * id5);
    gj->e[2][k] += kd * (ui[k] * id3 - 3.0 * ai * r[k] * id5);
  }
  return energy;
}

LANDSCAPE_HD double softStickyDot(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

LANDSCAPE_HD void softStickyCross(const double* a, const double* b, double* c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/// A molecule's centre and frame from its 4 markers m (12 numbers, at the body points (0,0,+h),
/// (0,0,-h), (+h,0,0), (-h,0,0)): the centre their mean, ez = a / |a| with a = m0 - m1, ex the
/// unit part of b = m2 - m3 perpendicular to ez, ey = ez x ex. A function of any 12 numbers (the
/// markers need not be rigid), exact for rigid ones.
LANDSCAPE_HD void softStickyDipoleFrameOfMarkers(const double* m, double centre[3],
                                                 SoftStickyDipoleFrame& f) {
  double a[3], b[3];
  for (int c = 0; c < 3; ++c) {
    centre[c] = 0.25 * (m[c] + m[3 + c] + m[6 + c] + m[9 + c]);
    a[c] = m[c] - m[3 + c];
    b[c] = m[6 + c] - m[9 + c];
  }
  const double ia = 1.0 / sqrt(softStickyDot(a, a));
  for (int c = 0; c < 3; ++c) f.e[2][c] = a[c] * ia;
  const double bz = softStickyDot(b, f.e[2]);
  double p[3];
  for (int c = 0; c < 3; ++c) p[c] = b[c] - bz * f.e[2][c];
  const double ip = 1.0 / sqrt(softStickyDot(p, p));
  for (int c = 0; c < 3; ++c) f.e[0][c] = p[c] * ip;
  softStickyCross(f.e[2], f.e[0], f.e[1]);
}

/// Writes to the 4 markers' gradient gm (12 numbers) the chain rule of dU/dcentre (gc) and
/// dU/d(axes) (ga, axes as free vectors) through softStickyDipoleFrameOfMarkers.
LANDSCAPE_HD void softStickyDipoleMarkerGradient(const double* m, const SoftStickyDipoleFrame& f,
                                                 const double gc[3],
                                                 const SoftStickyDipoleFrame& ga, double* gm) {
  const double* ex = f.e[0];
  const double* ez = f.e[2];
  double a[3], b[3];
  for (int c = 0; c < 3; ++c) {
    a[c] = m[c] - m[3 + c];
    b[c] = m[6 + c] - m[9 + c];
  }
  // ey = ez x ex: d(ey) = d(ez) x ex + ez x d(ex), so G_z += ex x G_y and G_x += G_y x ez.
  double gx[3], gz[3], t[3];
  softStickyCross(ex, ga.e[1], t);
  for (int c = 0; c < 3; ++c) gz[c] = ga.e[2][c] + t[c];
  softStickyCross(ga.e[1], ez, t);
  for (int c = 0; c < 3; ++c) gx[c] = ga.e[0][c] + t[c];
  // ex = p / |p|, p = b - (b.ez) ez.
  const double bz = softStickyDot(b, ez);
  double p[3];
  for (int c = 0; c < 3; ++c) p[c] = b[c] - bz * ez[c];
  const double ip = 1.0 / sqrt(softStickyDot(p, p));
  const double exg = softStickyDot(ex, gx);
  double gp[3];
  for (int c = 0; c < 3; ++c) gp[c] = (gx[c] - exg * ex[c]) * ip;
  const double gpz = softStickyDot(gp, ez);
  double gb[3];
  for (int c = 0; c < 3; ++c) {
    gb[c] = gp[c] - gpz * ez[c];
    gz[c] += -gpz * b[c] - bz * gp[c];
  }
  // ez = a / |a|.
  const double ia = 1.0 / sqrt(softStickyDot(a, a));
  const double ezg = softStickyDot(ez, gz);
  for (int c = 0; c < 3; ++c) {
    const double quarter = 0.25 * gc[c];
    const double da = (gz[c] - ezg * ez[c]) * ia;
    gm[c] = quarter + da;
    gm[3 + c] = quarter - da;
    gm[6 + c] = quarter + gb[c];
    gm[9 + c] = quarter - gb[c];
  }
}

}  // namespace landscape
