#pragma once
// Reading GMIN's `lowest` file in tests (GMIN's LJ38 example output, tests/data/lj38/gmin), apart
// from the product's writer (landscape/formats), so that tests compare against the file as GMIN
// wrote it.
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace landscape {

/// All structures of a GMIN `lowest` file: per structure a line with the atom count, a line
/// "Energy of minimum ...", then one line "SYMBOL x y z" per atom. Empty if the file is absent.
inline std::vector<std::vector<double>> readGminLowest(const std::string& path) {
  std::vector<std::vector<double>> structures;
  std::ifstream in(path);
  if (!in) return structures;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream countLine(line);
    int atoms = 0;
    if (!(countLine >> atoms)) continue;
    if (!std::getline(in, line)) throw std::runtime_error(path + ": missing energy line");
    std::vector<double> x;
    for (int i = 0; i < atoms; ++i) {
      if (!std::getline(in, line)) throw std::runtime_error(path + ": truncated structure");
      std::istringstream atom(line);
      std::string symbol;
      double c[3];
      if (!(atom >> symbol >> c[0] >> c[1] >> c[2]))
        throw std::runtime_error(path + ": bad atom line '" + line + "'");
      x.insert(x.end(), c, c + 3);
    }
    structures.push_back(std::move(x));
  }
  return structures;
}

}  // namespace landscape
