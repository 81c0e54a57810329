#pragma once
// The Gupta references of tests/data/clusters (README.md there): pele's Gupta13 coordinates and
// the energies and gradients ASAP computed (tools/utilities/make_gupta_references.py), read for
// the CPU and CUDA tests of the Gupta potential.
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "TestData.h"
#include "potentials/GuptaPotential.h"

namespace landscape {

/// A random cluster for the Gupta tests: atoms at random in a sphere of radius 0.62 r0 n^(1/3),
/// no two closer than 0.85 r0 (the CPU and CUDA tests draw the same ones from a seed).
inline std::vector<double> guptaRandomCluster(std::size_t n, unsigned seed, double r0 = 1.0) {
  std::mt19937_64 rng(seed);
  const double radius = 0.62 * r0 * std::cbrt(static_cast<double>(n));
  std::uniform_real_distribution<double> u(-radius, radius);
  std::vector<double> x;
  while (x.size() < 3 * n) {
    const double v[3] = {u(rng), u(rng), u(rng)};
    if (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > radius * radius) continue;
    bool clear = true;
    for (std::size_t j = 0; j < x.size(); j += 3) {
      const double dx = v[0] - x[j], dy = v[1] - x[j + 1], dz = v[2] - x[j + 2];
      clear = clear && dx * dx + dy * dy + dz * dz > 0.85 * 0.85 * r0 * r0;
    }
    if (clear) x.insert(x.end(), v, v + 3);
  }
  return x;
}


struct GuptaReferenceCase {
  std::string name;
  GuptaParams params;
  std::vector<double> x, g;  ///< [3N] positions and the reference gradient dE/dx
  double energy = 0.0;
  std::size_t atoms() const { return x.size() / 3; }
};

/// Every case of tests/data/clusters/gupta_asap.txt; empty when the file is not found.
inline std::vector<GuptaReferenceCase> readGuptaReferenceCases() {
  std::vector<GuptaReferenceCase> cases;
  const auto path = testDataPath("clusters/gupta_asap.txt");
  if (!path) return cases;
  std::ifstream in(*path);
  std::string line;
  std::size_t rows = 0, atoms = 0;  // rows: atom lines still to read (after `energy`)
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string key;
    if (rows > 0) {
      double v[6];
      std::istringstream row(line);
      for (double& value : v)
        if (!(row >> value)) throw std::runtime_error(*path + ": bad atom row: " + line);
      GuptaReferenceCase& c = cases.back();
      for (int k = 0; k < 3; ++k) {
        c.x.push_back(v[k]);
        c.g.push_back(v[3 + k]);
      }
      --rows;
      continue;
    }
    s >> key;
    if (key == "case") {
      cases.emplace_back();
      s >> cases.back().name;
    } else if (key == "params") {
      GuptaParams& p = cases.back().params;
      s >> p.p >> p.q >> p.a >> p.xi >> p.r0;
    } else if (key == "atoms") {
      s >> atoms;
    } else if (key == "energy") {
      s >> cases.back().energy;
      rows = atoms;
    } else {
      throw std::runtime_error(*path + ": unexpected line: " + line);
    }
  }
  return cases;
}

/// pele's Gupta13 coordinates (tests/data/clusters/gupta13_x0.txt); empty when not found.
inline std::vector<double> readGupta13Coordinates() {
  std::vector<double> x;
  const auto path = testDataPath("clusters/gupta13_x0.txt");
  if (!path) return x;
  std::ifstream in(*path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    double v;
    while (s >> v) x.push_back(v);
  }
  return x;
}

}  // namespace landscape
