#include "landscape/network/DatabaseCompatibility.h"

#include "landscape/core/InputChecks.h"

namespace landscape {

std::string potentialIdentity(const std::string& potential) {
  bool ours = false;
  // The pair potentials' (PairModel::describe()) too: "Morse rho 6 13 atoms", "tabulated pair".
  for (const char* family : {"Lennard-Jones ", "AMBER GB ", "SOP ", "Morse ", "tabulated pair "})
    ours = ours || potential.rfind(family, 0) == 0;
  if (!ours) return "";
  std::string identity = potential.substr(0, potential.find(" with "));
  const std::size_t backend = identity.rfind(" (");
  if (backend != std::string::npos && identity.back() == ')') identity.erase(backend);
  return identity;
}

std::string databaseIncompatibility(const DatabaseMetadata& stored, const DatabaseMetadata& run) {
  if (stored.atoms != run.atoms)
    return "it holds " + std::to_string(stored.atoms) + "-atom structures, this run " +
           std::to_string(run.atoms);
  if (stored.energyUnit != run.energyUnit)
    return "its energies are in " + quoteInput(stored.energyUnit) + ", this run's in " +
           quoteInput(run.energyUnit);
  if (stored.lengthUnit != run.lengthUnit)
    return "its lengths are in " + quoteInput(stored.lengthUnit) + ", this run's in " +
           quoteInput(run.lengthUnit);
  const std::string a = potentialIdentity(stored.potential), b = potentialIdentity(run.potential);
  if (!a.empty() && !b.empty() && a != b)
    return "it was written with the potential " + quoteInput(a) + ", this run uses " +
           quoteInput(b);
  return "";
}

}  // namespace landscape
