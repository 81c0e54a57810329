// plot_force_curve: draws a force curve written by `sop` (force_curve_<r>.dat) as a PNG: the
// cantilever force in pN (blue, left axis numbers) against the extension or the cantilever
// displacement Z in Angstrom (bottom axis), with the fraction of native contacts Q (red, scaled so
// that Q = 1 is the top of the plot). Several files may be given: each one's force is drawn in a
// darker shade of blue, so replicas overlay (seed 000 Figure 5 shows three curves per setting).
//
// Usage: plot_force_curve OUT.png CURVE.dat [CURVE.dat ...]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/formats/PngImage.h"
#include "src/OptionTable.h"

namespace {

struct Curve {
  std::vector<double> x, force, q;  // A, pN, fraction
};

struct Options {
  std::string image;                ///< OUT.png
  std::vector<std::string> curves;  ///< CURVE.dat ...
};

landscape::OptionTable<Options> optionTable() {
  landscape::OptionTable<Options> t("plot_force_curve");
  t.about =
      "usage: plot_force_curve OUT.png CURVE.dat [CURVE.dat ...]\n"
      "Draws force curves written by `sop` (force_curve_<r>.dat) as a PNG: the cantilever force "
      "in\n"
      "pN (blue, left axis) against the extension or cantilever displacement Z in Angstrom "
      "(bottom\n"
      "axis), with the fraction of native contacts Q in red (Q = 1 at the top of the plot). Each\n"
      "further CURVE.dat is drawn in a darker blue, so replicas overlay.\n";
  t.helpCommand();
  t.positional("OUT.png", "the image to write (900 x 560 pixels)",
               landscape::fieldOf(&Options::image));
  t.positional("CURVE.dat", "6 columns: time force_kcal force_pN x tip Q",
               landscape::fieldOf(&Options::curves));
  return t;
}

Curve readCurve(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  Curve c;
  std::string line;
  long lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    double time, forceKcal, forcePn, x, tip, q;
    if (!(s >> time >> forceKcal >> forcePn >> x >> tip >> q))
      throw std::runtime_error(path + ":" + std::to_string(lineNo) +
                               ": expected 6 columns (time force_kcal force_pN x tip Q)");
    c.x.push_back(x);
    c.force.push_back(forcePn);
    c.q.push_back(q);
  }
  if (c.x.size() < 2) throw std::runtime_error(path + ": fewer than 2 data lines");
  return c;
}

/// A "nice" tick spacing (1, 2 or 5 times a power of ten) giving about `ticks` intervals.
double tickStep(double span, int ticks) {
  const double raw = span / ticks;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

std::string label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

int run(int argc, char** argv) {
  Options o;
  // No options besides --help: a dash-led argument is a typo, not a file name to overwrite.
  parseToolCommandLine(optionTable(), argc, argv, o);
  if (o.curves.empty()) {
    std::cerr << "plot_force_curve: give OUT.png and at least one CURVE.dat (--help)\n";
    return 2;
  }
  std::vector<Curve> curves;
  for (const std::string& path : o.curves) curves.push_back(readCurve(path));
  double xMin = 1e300, xMax = -1e300, fMin = 0, fMax = -1e300;
  for (const Curve& c : curves) {
    xMin = std::min(xMin, *std::min_element(c.x.begin(), c.x.end()));
    xMax = std::max(xMax, *std::max_element(c.x.begin(), c.x.end()));
    fMin = std::min(fMin, *std::min_element(c.force.begin(), c.force.end()));
    fMax = std::max(fMax, *std::max_element(c.force.begin(), c.force.end()));
  }
  if (xMax <= xMin) xMax = xMin + 1;
  if (fMax <= fMin) fMax = fMin + 1;
  const double fStep = tickStep(fMax - fMin, 6), xStep = tickStep(xMax - xMin, 8);
  fMin = std::floor(fMin / fStep) * fStep;
  fMax = std::ceil(fMax / fStep) * fStep;
  xMin = std::floor(xMin / xStep) * xStep;
  xMax = std::ceil(xMax / xStep) * xStep;

  const int scale = 2, width = 900, height = 560;
  const int left = 30 + landscape::RgbImage::textWidth("-00000", scale), right = width - 30;
  const int top = 20, bottom = height - 50;
  landscape::RgbImage image(width, height);
  const landscape::Rgb black{0, 0, 0}, grey{215, 215, 215}, red{200, 30, 30};
  auto px = [&](double x) {
    return left + static_cast<int>(std::lround((x - xMin) / (xMax - xMin) * (right - left)));
  };
  auto py = [&](double f) {
    return bottom - static_cast<int>(std::lround((f - fMin) / (fMax - fMin) * (bottom - top)));
  };
  for (double f = fMin; f <= fMax + 0.5 * fStep; f += fStep) {
    image.line(left, py(f), right, py(f), grey);
    const std::string s = label(f);
    image.text(left - 10 - landscape::RgbImage::textWidth(s, scale), py(f) - 5, s, black, scale);
  }
  for (double x = xMin; x <= xMax + 0.5 * xStep; x += xStep) {
    image.line(px(x), top, px(x), bottom, grey);
    const std::string s = label(x);
    image.text(px(x) - landscape::RgbImage::textWidth(s, scale) / 2, bottom + 10, s, black, scale);
  }
  image.line(left, bottom, right, bottom, black, 2);
  image.line(left, top, left, bottom, black, 2);
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const Curve& c = curves[k];
    const int shade = static_cast<int>(200 - 150 * k / std::max<std::size_t>(1, curves.size()));
    const landscape::Rgb blue{0, static_cast<std::uint8_t>(shade / 2), 220};
    for (std::size_t i = 1; i < c.x.size(); ++i) {
      image.line(px(c.x[i - 1]), py(c.force[i - 1]), px(c.x[i]), py(c.force[i]), blue, 2);
      const double q0 = fMin + c.q[i - 1] * (fMax - fMin), q1 = fMin + c.q[i] * (fMax - fMin);
      image.line(px(c.x[i - 1]), py(q0), px(c.x[i]), py(q1), red, 1);
    }
  }
  landscape::writePng(o.image, image);
  std::printf("plot_force_curve: %zu curve(s), force %g..%g pN, x %g..%g A -> %s\n", curves.size(),
              fMin, fMax, xMin, xMax, o.image.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "plot_force_curve: error: " << e.what() << "\n";
    return 1;
  }
}
