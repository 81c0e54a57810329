#include "potentials/SiteModel.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace landscape {

std::vector<std::size_t> SiteModel::moleculeStarts() const {
  std::vector<std::size_t> starts(moleculeCount() + 1, siteCount());
  for (std::size_t i = siteCount(); i-- > 0;) starts[molecule[i]] = i;
  return starts;
}

void SiteModel::check() const {
  const auto bad = [this](const std::string& what) {
    throw std::invalid_argument("site model" + (name.empty() ? std::string() : " '" + name + "'") +
                                ": " + what);
  };
  const std::size_t n = molecule.size();
  if (n == 0) bad("molecule: no sites");
  if (charge.size() != n)
    bad("charge has " + std::to_string(charge.size()) + " entries for " + std::to_string(n) +
        " sites");
  if (c6.size() != n)
    bad("c6 has " + std::to_string(c6.size()) + " entries for " + std::to_string(n) + " sites");
  if (c12.size() != n)
    bad("c12 has " + std::to_string(c12.size()) + " entries for " + std::to_string(n) + " sites");
  if (molecule[0] != 0)
    bad("molecule: the first site belongs to molecule " + std::to_string(molecule[0]) + ", not 0");
  std::size_t run = 1;
  for (std::size_t i = 1; i <= n; ++i) {
    if (i < n && molecule[i] == molecule[i - 1]) {
      ++run;
      continue;
    }
    if (run == 2)
      bad("molecule " + std::to_string(molecule[i - 1]) +
          " has 2 sites; a rigid molecule needs at least 3 (a point bead has 1)");
    if (i < n && molecule[i] != molecule[i - 1] + 1)
      bad("molecule: site " + std::to_string(i) + " belongs to molecule " +
          std::to_string(molecule[i]) + " after molecule " + std::to_string(molecule[i - 1]) +
          " (sites must be molecule-major, molecules numbered 0, 1, 2, ...)");
    run = 1;
  }
  if (moleculeCount() < 2) bad("molecule: only one molecule, nothing interacts");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(charge[i])) bad("charge of site " + std::to_string(i) + " is not finite");
    if (!(std::isfinite(c6[i]) && c6[i] >= 0.0))
      bad("c6 of site " + std::to_string(i) + " is " + std::to_string(c6[i]) +
          "; it must be finite and >= 0");
    if (!(std::isfinite(c12[i]) && c12[i] >= 0.0))
      bad("c12 of site " + std::to_string(i) + " is " + std::to_string(c12[i]) +
          "; it must be finite and >= 0");
  }
  if (!(std::isfinite(coulomb) && coulomb >= 0.0))
    bad("coulomb constant " + std::to_string(coulomb) + " must be finite and >= 0");
  if (energyUnit.empty()) bad("energyUnit is empty");
  if (lengthUnit.empty()) bad("lengthUnit is empty");
}

}  // namespace landscape
