#pragma once
// The pair-potential reference cases of tests/data/pair (energies and gradients computed by LAMMPS,
// ASE, pele and numpy; the format and the measured agreements are in tests/data/pair/README.md),
// read into a PairModel, coordinates and the reference energy and gradient.
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "potentials/PairModel.h"

namespace landscape {

struct PairReferenceCase {
  std::shared_ptr<const PairModel> model;
  std::vector<double> x;         ///< 3N coordinates
  double energy = 0.0;           ///< the reference energy
  std::vector<double> gradient;  ///< 3N, dE/dx
  std::string code;              ///< the "# code:" line: who computed the numbers
};

inline PairReferenceCase readPairReferenceCase(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  PairReferenceCase c;
  PairModel m;
  std::string line;
  std::size_t atoms = 0;
  int lineNumber = 0;
  auto fail = [&](const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(lineNumber) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++lineNumber;
    if (line.rfind("# code:", 0) == 0) c.code = line.substr(8);
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string key;
    s >> key;
    if (key == "law") {
      std::string name;
      s >> name;
      m.law = parsePairLaw(name);
    } else if (key == "cutoff") {
      std::string name;
      s >> name;
      m.cutoff = parsePairCutoff(name);
    } else if (key == "box") {
      s >> m.box.length[0] >> m.box.length[1] >> m.box.length[2];
    } else if (key == "species") {
      int count = 0;
      s >> count;
      for (int t = 0; t < count; ++t) m.speciesNames.push_back(std::string(1, char('A' + t)));
      m.pairs.assign(count * count, PairParameters{});
    } else if (key == "pair") {
      int a, b;
      std::string k1, k2, k3, k4;
      PairParameters p;
      s >> a >> b >> k1 >> p.epsilon >> k2 >> p.sigma >> k3 >> p.rho >> k4 >> p.cutoff;
      if (!s || k1 != "epsilon" || k2 != "sigma" || k3 != "rho" || k4 != "rcut")
        fail("expected 'pair a b epsilon E sigma S rho R rcut C'");
      m.setPair(a, b, p);
    } else if (key == "atoms") {
      s >> atoms;
    } else if (key == "energy") {
      s >> c.energy;
      for (std::size_t i = 0; i < atoms; ++i) {
        ++lineNumber;
        if (!std::getline(in, line)) fail("expected " + std::to_string(atoms) + " atom rows");
        std::istringstream row(line);
        int species;
        double v[6];
        row >> species >> v[0] >> v[1] >> v[2] >> v[3] >> v[4] >> v[5];
        if (!row) fail("expected 'species x y z gx gy gz'");
        m.species.push_back(species);
        c.x.insert(c.x.end(), v, v + 3);
        c.gradient.insert(c.gradient.end(), v + 3, v + 6);
      }
    } else {
      fail("unknown keyword '" + key + "'");
    }
    if (key != "energy" && !s) fail("cannot read the values of '" + key + "'");
  }
  if (c.x.size() != 3 * atoms || atoms == 0) throw std::runtime_error(path + ": no atom rows");
  m.check();
  c.model = std::make_shared<const PairModel>(std::move(m));
  return c;
}

/// The cases of tests/data/pair, by file name without ".txt".
inline std::vector<std::string> pairReferenceCaseNames() {
  return {"lj_pbc_ts",     "lj_cluster",         "ka_n256_ts",    "ka_n256_trunc",
          "ka_n256_fs",    "ka_n1000_co043",     "morse_cluster_rho6", "morse_pbc_ts",
          "blj13_pele",    "morse13_pele"};
}

}  // namespace landscape
