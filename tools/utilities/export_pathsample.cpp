// export_pathsample: a transition-network database (optim's network.h5, or any minima database)
// -> PATHSAMPLE's min.data, ts.data, points.min and points.ts, and optionally OPTIM's path.info
// with every transition state. Formats: landscape/formats/PathsampleExport.h.
//
//   export_pathsample DATABASE [--output DIR] [--path-info]
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/Database.h"
#include "src/common/OptionTable.h"

namespace {

struct Options {
  std::string database, output = ".";
  bool pathInfo = false;
};

landscape::OptionTable<Options> optionTable() {
  landscape::OptionTable<Options> t("export_pathsample");
  t.about =
      "Usage: export_pathsample DATABASE [--output DIR] [--path-info]\n"
      "Writes PATHSAMPLE's min.data, ts.data, points.min and points.ts (and with --path-info\n"
      "OPTIM's path.info, every transition state as a min-ts-min triple) into DIR\n"
      "from an HDF5 transition-network database written by optim (docs/database.md).\n"
      "Units are the database's (reduced epsilon and sigma for Lennard-Jones, unit masses);\n"
      "for a mass-weighted (AMBER) database OPTIM's and PATHSAMPLE's: kcal/mol, Angstrom,\n"
      "log products and path.info eigenvalues of the mass-weighted Hessian in (rad/s)^2.\n";
  t.helpCommand();
  t.positional("DATABASE", "the HDF5 transition-network database",
               landscape::fieldOf(&Options::database));
  t.add("output", "DIR", "folder of the files", landscape::fieldOf(&Options::output));
  t.flag("path-info", "also write path.info", landscape::fieldOf(&Options::pathInfo));
  return t;
}

int run(int argc, char** argv) {
  Options o;
  parseToolCommandLine(optionTable(), argc, argv, o);
  const std::string &database = o.database, &output = o.output;
  const bool pathInfo = o.pathInfo;
  if (database.empty()) throw std::runtime_error("no DATABASE given (--help)");

  landscape::DatabaseMetadata metadata;
  const landscape::StoredTransitionNetwork network =
      landscape::TransitionNetworkDatabase::read(database, &metadata);
  const double conversion = landscape::pathsampleFrequencyConversion(metadata);
  landscape::writePathsampleFiles(output, network, conversion);
  std::printf(
      "export_pathsample: %zu minima and %zu transition states of %s (%zu atoms, %s) "
      "written to %s/{min.data,ts.data,points.min,points.ts}\n",
      network.minima.size(), network.transitionStates.size(), database.c_str(), metadata.atoms,
      metadata.energyUnit.c_str(), output.c_str());
  if (pathInfo) {
    std::vector<int> all;
    for (std::size_t t = 0; t < network.transitionStates.size(); ++t) {
      all.push_back(static_cast<int>(t));
    }
    const std::string path = (std::filesystem::path(output) / "path.info").string();
    landscape::writeFileAtomically(
        path, landscape::formatPathInfo(landscape::pathInfoTriples(network, all, {}, conversion)),
        "path.info");
    std::printf("export_pathsample: %zu min-ts-min triples written to %s\n", all.size(),
                path.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "export_pathsample: error: " << e.what() << "\n";
    return 1;
  }
}
