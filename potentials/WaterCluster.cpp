#include "potentials/WaterCluster.h"

#include <algorithm>
#include <cmath>  // RigidBodyTerms.h calls sqrt, sin, cos
#include <stdexcept>
#include <string>

#include "potentials/RigidBodyTerms.h"

namespace landscape {

std::vector<double> tip4pBodyFrame() {
  return {0.0,          0.0, 0.0,            //
          0.756950327,  0.0, -0.5858822760,  //
          -0.756950327, 0.0, -0.5858822760,  //
          0.0,          0.0, -0.15};
}

double WaterIon::c6() const { return 4.0 * epsilon * std::pow(sigma, 6); }
double WaterIon::c12() const { return 4.0 * epsilon * std::pow(sigma, 12); }

const std::vector<WaterIon>& tip4pIonTypes() {
  static const std::vector<WaterIon> types = {
      {"Na+", "Na", 1.0, 3.33045, 0.0115980, 22.98977},
      {"Cl-", "Cl", -1.0, 4.41724, 0.492833, 35.453},
  };
  return types;
}

std::vector<WaterIon> tip4pIonsFromList(const std::string& list) {
  std::vector<WaterIon> ions;
  if (list.empty()) return ions;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string entry = list.substr(start, comma - start);
    start = comma + 1;
    const auto bad = [&](const std::string& why) {
      throw std::invalid_argument("ions '" + list + "': entry '" + entry + "' " + why +
                                  " (give NAME or NAME:COUNT, e.g. Na+:2,Cl-:2)");
    };
    if (entry.empty()) bad("is empty");
    const std::size_t colon = entry.find(':');
    const std::string name = entry.substr(0, colon);
    long long count = 1;
    if (colon != std::string::npos) {
      const std::string digits = entry.substr(colon + 1);
      const bool integer = !digits.empty() && digits.size() <= 6 &&
                           digits.find_first_not_of("0123456789") == std::string::npos;
      count = integer ? std::stoll(digits) : 0;
      if (count < 1 || count > 100000) bad("has a count that is not an integer from 1 to 100000");
    }
    const WaterIon* type = nullptr;
    for (const WaterIon& t : tip4pIonTypes())
      if (t.name == name) type = &t;
    if (type == nullptr) {
      std::string known;
      for (const WaterIon& t : tip4pIonTypes()) known += (known.empty() ? "" : ", ") + t.name;
      bad("names no known ion (known: " + known + ")");
    }
    ions.insert(ions.end(), static_cast<std::size_t>(count), *type);
  }
  return ions;
}

std::vector<std::string> WaterCluster::siteLabels() const {
  std::vector<std::string> labels;
  labels.reserve(model.siteCount());
  for (std::size_t m = 0; m < moleculeCount(); ++m)
    for (const char* site : {"O", "H", "H", "X"}) labels.emplace_back(site);
  for (const WaterIon& ion : ions) labels.push_back(ion.element);
  return labels;
}

std::vector<double> WaterCluster::referenceSites() const {
  std::vector<double> x;
  x.reserve(3 * model.siteCount());
  for (std::size_t m = 0; m < moleculeCount(); ++m)
    x.insert(x.end(), bodyFrame.begin(), bodyFrame.end());
  x.resize(3 * model.siteCount(), 0.0);
  return x;
}

RigidBodySystem WaterCluster::rigidSystem() const {
  return RigidBodySystem(bodies, referenceSites());
}

std::vector<double> WaterCluster::gminToSites(const std::vector<double>& gmin) const {
  const std::size_t n = moleculeCount(), k = sitesPerMolecule(), ionsN = ionCount();
  if (gmin.size() != 6 * n + 3 * ionsN)
    throw std::invalid_argument(
        "GMIN rigid coordinates of " + std::to_string(n) + " molecules" +
        (ionsN > 0 ? " and " + std::to_string(ionsN) + " ions" : std::string()) + " need " +
        std::to_string(6 * n + 3 * ionsN) + " numbers, got " + std::to_string(gmin.size()));
  std::vector<double> x(3 * (k * n + ionsN));
  for (std::size_t m = 0; m < n; ++m) {
    const double minusP[3] = {-gmin[3 * (n + m)], -gmin[3 * (n + m) + 1], -gmin[3 * (n + m) + 2]};
    double R[9];
    rotationMatrix(minusP, R);
    for (std::size_t s = 0; s < k; ++s) {
      double r[3];
      matVec3(R, &bodyFrame[3 * s], r);
      for (int c = 0; c < 3; ++c) x[3 * (k * m + s) + c] = gmin[3 * m + c] + r[c];
    }
  }
  std::copy(gmin.begin() + 6 * n, gmin.end(), x.begin() + 3 * k * n);
  return x;
}

std::vector<double> WaterCluster::sitesToGmin(const std::vector<double>& sites) const {
  const std::size_t n = moleculeCount(), k = sitesPerMolecule();
  const std::vector<double> q = rigidSystem().fromAtoms(sites);  // sizes checked there
  // Our sites are c + R(p) (s0 - c0); GMIN's O + R(-p_gmin) s0, so p_gmin = -p and O is site 0.
  std::vector<double> gmin(6 * n + 3 * ionCount());
  for (std::size_t m = 0; m < n; ++m)
    for (int c = 0; c < 3; ++c) {
      gmin[3 * m + c] = sites[3 * k * m + c];
      gmin[3 * (n + m) + c] = -q[3 * (n + m) + c];
    }
  std::copy(sites.begin() + 3 * k * n, sites.end(), gmin.begin() + 6 * n);
  return gmin;
}

std::vector<double> WaterCluster::gminToRigid(const std::vector<double>& gmin) const {
  return rigidSystem().fromAtoms(gminToSites(gmin));
}

RigidBodyMasses WaterCluster::masses() const {
  std::vector<double> atomMasses;
  for (std::size_t m = 0; m < moleculeCount(); ++m)
    atomMasses.insert(atomMasses.end(), {15.9994, 1.008, 1.008, 0.0});
  for (const WaterIon& ion : ions) atomMasses.push_back(ion.mass);
  return rigidBodyMassesOfAtoms(rigidSystem(), atomMasses);
}

WaterCluster tip4pCluster(std::size_t molecules, const std::vector<WaterIon>& ions) {
  if (molecules == 0 || molecules + ions.size() < 2)
    throw std::invalid_argument(
        "a TIP4P water cluster needs at least 2 molecules (or 1 with an ion), got " +
        std::to_string(molecules) +
        (ions.empty() ? std::string() : " and " + std::to_string(ions.size()) + " ions"));
  WaterCluster w;
  w.ions = ions;
  w.bodyFrame = tip4pBodyFrame();
  SiteModel& s = w.model;
  const double charge[4] = {0.0, kTip4pChargeH, kTip4pChargeH, kTip4pChargeM};
  for (std::size_t m = 0; m < molecules; ++m)
    for (int k = 0; k < 4; ++k) {
      s.molecule.push_back(m);
      s.charge.push_back(charge[k]);
      s.c6.push_back(k == 0 ? kTip4pC6 : 0.0);
      s.c12.push_back(k == 0 ? kTip4pC12 : 0.0);
    }
  for (std::size_t i = 0; i < ions.size(); ++i) {
    s.molecule.push_back(molecules + i);
    s.charge.push_back(ions[i].charge);
    s.c6.push_back(ions[i].c6());
    s.c12.push_back(ions[i].c12());
  }
  s.coulomb = kTip4pCoulomb;
  s.energyUnit = "kJ/mol";
  s.lengthUnit = "Angstrom";
  s.name = "TIP4P water x " + std::to_string(molecules);
  for (std::size_t i = 0; i < ions.size();) {
    std::size_t same = i + 1;
    while (same < ions.size() && ions[same].name == ions[i].name) ++same;
    s.name += " + " + ions[i].name + " x " + std::to_string(same - i);
    i = same;
  }
  s.check();
  w.bodies = RigidBodySet(4 * molecules + ions.size());
  for (std::size_t m = 0; m < molecules; ++m)
    w.bodies.addBody({4 * m, 4 * m + 1, 4 * m + 2, 4 * m + 3});
  return w;
}

}  // namespace landscape
