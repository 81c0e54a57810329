#include "src/pathsample/PathsampleNetworkSource.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/HarmonicRates.h"
#include "landscape/network/KineticsOnlyDatabase.h"

namespace landscape {

namespace fs = std::filesystem;

bool usesMolecularUnits(const PathsampleConfig& c) { return c.units == PathsampleUnits::Molecular; }
std::string reportedRateUnit(const PathsampleConfig& c) {
  return usesMolecularUnits(c) ? "s^-1" : "reduced time^-1";
}

bool readsPathsampleFolder(const PathsampleConfig& c) {
  return !c.databaseGiven && (!c.pathdataFile.empty() || c.noPoints) &&
         fs::exists(fs::path(c.directory) / "min.data");
}

void checkPathdataAtoms(const PathsampleConfig& c, std::size_t atoms, const std::string& where) {
  if (c.pathdataAtoms == 0 || c.noPoints || atoms == 0 || atoms == c.pathdataAtoms) return;
  throw std::runtime_error(c.pathdataAtomsWhere + ": NATOMS " + std::to_string(c.pathdataAtoms) +
                           ", but " + where + " holds " + std::to_string(atoms) + " atoms");
}

/// min.data and ts.data of `dir` with min.A and min.B (required when `needSets`); transition
/// states must name lines of min.data (ts.data line named otherwise).
StoredTransitionNetwork readKineticsFiles(const std::string& dir, bool needSets) {
  const fs::path d(dir);
  StoredTransitionNetwork n;
  n.minima = readMinData((d / "min.data").string());
  if (n.minima.empty()) throw std::runtime_error((d / "min.data").string() + ": no minima");
  const std::string tsPath = (d / "ts.data").string();
  n.transitionStates = readTsData(tsPath, n.minima.size());
  const bool hasA = fs::exists(d / "min.A"), hasB = fs::exists(d / "min.B");
  if (hasA && hasB) {
    n.setA = readEndpointSet((d / "min.A").string(), n.minima.size());
    n.setB = readEndpointSet((d / "min.B").string(), n.minima.size());
  } else if (needSets || hasA || hasB) {
    throw std::runtime_error((d / (hasA ? "min.B" : "min.A")).string() +
                             ": missing; the endpoint sets need min.A and min.B (a count, then "
                             "that many 1-based lines of min.data)");
  }
  return n;
}

/// Checks the endpoint sets before the graph transformation sees them, in the user's words.
void checkEndpointSets(const KineticsNetwork& k) {
  const StoredTransitionNetwork& n = k.network;
  if (n.setA.empty() || n.setB.empty())
    throw std::runtime_error(k.source + ": no endpoint sets A and B (" + k.setNames +
                             "); import a database with min.A and min.B");
  for (int a : n.setA)
    if (std::find(n.setB.begin(), n.setB.end(), a) != n.setB.end())
      throw std::runtime_error(k.setNames + ": minimum " + std::to_string(a + 1) +
                               " (1-based, as in min.data) is in both A and B; the sets must be "
                               "disjoint");
}

KineticsNetwork kineticsNetwork(const PathsampleConfig& c, bool needSets) {
  KineticsNetwork k;
  if (readsPathsampleFolder(c)) {
    k.network = readKineticsFiles(c.directory, needSets);
    k.source = (fs::path(c.directory) / "min.data").string();
    k.setNames = "min.A and min.B of " + c.directory;
    // The files' frequencies are PATHSAMPLE's: reduced, or rad/s for molecules (s^-1 rates).
    k.rateFactor = 1.0;
    if (usesMolecularUnits(c)) {  // PATHSAMPLE's molecules: kcal/mol (AMBER)
      const MolecularKineticConstants kcal = molecularKineticConstants("kcal/mol");
      k.kTPerTemperature = kcal.boltzmann;
      k.planckSeconds = kcal.planckSeconds;
    }
  } else {
    DatabaseMetadata metadata;
    k.network = readNetworkOfEitherKind(c.database, &metadata);
    checkPathdataAtoms(c, metadata.atoms, c.database);
    k.source = c.database;
    k.setNames = "the endpoint sets A and B of " + c.database;
    // A kinetics-only network keeps its files' frequencies (KineticsOnlyDatabase.h): rad/s and
    // kcal/mol for molecules, as PATHSAMPLE's files hold them.
    const bool kineticsOnly = metadata.atoms == 0;
    const std::string unit = kineticsOnly ? std::string("kcal/mol") : metadata.energyUnit;
    // kT and the frequency unit follow the network's energy unit (TIP4P water's kJ/mol, kcal/mol
    // otherwise). Reduced units take kT in the energy unit and report the graph's rates as they
    // are: for kJ/mol they would be read as kcal/mol's, so they are refused.
    if (usesMolecularUnits(c)) {
      MolecularKineticConstants constants;
      try {
        constants = molecularKineticConstants(unit);
      } catch (const std::invalid_argument&) {
        throw std::runtime_error(c.database + ": its energies are in '" + unit +
                                 "'; --units molecular needs a network in kcal/mol or kJ/mol");
      }
      if (unit != "kcal/mol" && c.temperaturesFromPathdata)
        throw std::runtime_error(c.database + ": its energies are in " + unit +
                                 ", and the temperatures came from " + c.pathdataFile +
                                 " (PATHSAMPLE's kT, read as kcal/mol); give --temperature in K");
      k.kTPerTemperature = constants.boltzmann;
      k.planckSeconds = constants.planckSeconds;
      k.rateFactor = kineticsOnly ? 1.0 : constants.frequencyPerSecond;
    } else if (metadata.energyUnit == "kJ/mol") {
      throw std::runtime_error(c.database +
                               ": its energies are in kJ/mol; its kinetics need --units "
                               "molecular (temperatures in K, rates in s^-1)");
    }
  }
  if (std::isfinite(c.maxTsEnergy)) {
    std::vector<StoredTransitionState>& ts = k.network.transitionStates;
    ts.erase(
        std::remove_if(ts.begin(), ts.end(),
                       [&](const StoredTransitionState& t) { return t.energy > c.maxTsEnergy; }),
        ts.end());
  }
  if (needSets) checkEndpointSets(k);
  return k;
}

}  // namespace landscape
