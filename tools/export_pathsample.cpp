// export_pathsample: a transition-network database (optim's network.h5, or any minima database)
// -> PATHSAMPLE's min.data, ts.data, points.min and points.ts, and optionally OPTIM's path.info
// with every transition state. Formats: landscape/formats/PathsampleExport.h.
//
//   export_pathsample DATABASE [--output DIR] [--path-info]
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/Database.h"

namespace {

const char* kUsage =
    "Usage: export_pathsample DATABASE [--output DIR] [--path-info]\n"
    "Writes PATHSAMPLE's min.data, ts.data, points.min and points.ts (and with --path-info\n"
    "OPTIM's path.info, every transition state as a min-ts-min triple) into DIR (default .)\n"
    "from an HDF5 transition-network database written by optim (docs/database.md).\n"
    "Units are the database's (reduced epsilon and sigma for Lennard-Jones, unit masses).\n";

int run(int argc, char** argv) {
  std::string database, output = ".";
  bool pathInfo = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--output" && i + 1 < argc) {
      output = argv[++i];
    } else if (a == "--path-info") {
      pathInfo = true;
    } else if (!a.empty() && a[0] != '-' && database.empty()) {
      database = a;
    } else {
      throw std::runtime_error("unexpected argument '" + a + "'\n" + kUsage);
    }
  }
  if (database.empty()) throw std::runtime_error(std::string("no DATABASE given\n") + kUsage);

  landscape::DatabaseMetadata metadata;
  const landscape::StoredTransitionNetwork network =
      landscape::TransitionNetworkDatabase::read(database, &metadata);
  landscape::writePathsampleFiles(output, network);
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
        path, landscape::formatPathInfo(landscape::pathInfoTriples(network, all)), "path.info");
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
