// plot_force_curve: draws force curves written by `sop` (force_curve_<r>.dat) with matplotlib
// through `python3 -m landscape.plots force-curve` (tools/PythonPlot.h): force in pN against the
// extension (or the cantilever displacement Z) in Angstrom with the fraction of native contacts Q
// on a second axis, and Q against time in ns; several files overlay (replicas).
//
// Usage: plot_force_curve OUT.png CURVE.dat [CURVE.dat ...]   (OUT may be .pdf or .svg)
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "src/common/OptionTable.h"
#include "tools/PythonPlot.h"

namespace {

struct Options {
  std::string image;                ///< OUT.png
  std::vector<std::string> curves;  ///< CURVE.dat ...
};

landscape::OptionTable<Options> optionTable() {
  landscape::OptionTable<Options> t("plot_force_curve");
  t.about =
      "usage: plot_force_curve OUT.png CURVE.dat [CURVE.dat ...]\n"
      "Draws force curves written by `sop` (force_curve_<r>.dat) with matplotlib (python3 -m\n"
      "landscape.plots force-curve): force in pN against extension or cantilever displacement Z\n"
      "in Angstrom, Q on the right axis, and Q against time in ns. OUT may be .png, .pdf or .svg.\n";
  t.helpCommand();
  t.positional("OUT.png", "the figure to write", landscape::fieldOf(&Options::image));
  t.positional("CURVE.dat", "6 columns: time force_kcal force_pN x tip Q",
               landscape::fieldOf(&Options::curves));
  return t;
}

int run(int argc, char** argv) {
  Options o;
  // No options besides --help: a dash-led argument is a typo, not a file name to overwrite.
  parseToolCommandLine(optionTable(), argc, argv, o);
  if (o.curves.empty()) {
    std::cerr << "plot_force_curve: give OUT.png and at least one CURVE.dat (--help)\n";
    return 2;
  }
  std::vector<std::string> args = {"force-curve"};
  args.insert(args.end(), o.curves.begin(), o.curves.end());
  args.insert(args.end(), {"-o", o.image});
  return landscape::runPythonPlot("plot_force_curve", args);
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
