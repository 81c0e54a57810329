#include "potentials/RigidBodySet.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "landscape/core/InputChecks.h"

namespace landscape {

void RigidBodySet::addBody(const std::vector<std::size_t>& atoms, const std::string& where) {
  const std::string prefix = where.empty()
                                 ? "rigid body " + std::to_string(m_bodies.size() + 1)
                                 : where + ": rigid body " + std::to_string(m_bodies.size() + 1);
  if (atoms.size() < 3)
    throw std::invalid_argument(prefix + " has " + std::to_string(atoms.size()) +
                                " atoms; a body needs at least 3 non-collinear atoms to define "
                                "a rotation (leave single atoms out of every group)");
  std::vector<std::size_t> sorted = atoms;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] >= m_atomCount)
      throw std::invalid_argument(prefix + ": atom " + std::to_string(sorted[i] + 1) +
                                  " is out of range (the system has " +
                                  std::to_string(m_atomCount) + " atoms, numbered from 1)");
    if (i > 0 && sorted[i] == sorted[i - 1])
      throw std::invalid_argument(prefix + ": atom " + std::to_string(sorted[i] + 1) +
                                  " is listed twice");
    if (m_bodyOfAtom[sorted[i]] >= 0)
      throw std::invalid_argument(
          prefix + ": atom " + std::to_string(sorted[i] + 1) + " already belongs to rigid body " +
          std::to_string(m_bodyOfAtom[sorted[i]] + 1) + " (bodies must not overlap)");
  }
  for (std::size_t a : atoms) m_bodyOfAtom[a] = static_cast<long>(m_bodies.size());
  m_bodies.push_back(atoms);
}

std::vector<std::size_t> RigidBodySet::freeAtoms() const {
  std::vector<std::size_t> out;
  for (std::size_t a = 0; a < m_atomCount; ++a)
    if (m_bodyOfAtom[a] < 0) out.push_back(a);
  return out;
}

RigidBodySet readRigidBodies(const std::string& path, std::size_t atomCount) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the rigid-body file");
  RigidBodySet set(atomCount);
  std::string line;
  long lineNo = 0;
  long expected = 0;  // indices still owed to the open GROUP
  long groupLine = 0;
  std::vector<std::size_t> group;
  auto where = [&](long n) { return path + ":" + std::to_string(n); };
  auto closeGroup = [&]() {
    try {
      set.addBody(group, where(groupLine));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(e.what());
    }
    group.clear();
  };
  while (std::getline(in, line)) {
    ++lineNo;
    const std::size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      std::string upper = word;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (upper == "GROUP") {
        if (expected > 0)
          throw std::runtime_error(where(lineNo) + ": GROUP found while the GROUP of line " +
                                   std::to_string(groupLine) + " still expects " +
                                   std::to_string(expected) + " atom indices");
        std::string count;
        if (!(words >> count))
          throw std::runtime_error(where(lineNo) + ": GROUP must be followed by its atom count");
        const std::optional<long long> n = parseFortranInteger(count);
        if (!n || *n < 1)
          throw std::runtime_error(where(lineNo) + ": GROUP size " + quoteInput(count) +
                                   " is not a positive integer");
        if (static_cast<unsigned long long>(*n) > atomCount)
          throw std::runtime_error(where(lineNo) + ": GROUP size " + std::to_string(*n) +
                                   " is more than the system's " + std::to_string(atomCount) +
                                   " atoms");
        expected = static_cast<long>(*n);
        groupLine = lineNo;
        continue;
      }
      if (expected == 0)
        throw std::runtime_error(where(lineNo) + ": " + quoteInput(word) +
                                 " is outside any GROUP block (expected 'GROUP n')");
      const std::optional<long long> parsed = parseFortranInteger(word);
      if (!parsed)
        throw std::runtime_error(where(lineNo) + ": atom index " + quoteInput(word) +
                                 " is not an integer");
      const long long index = *parsed;
      if (index < 1 || static_cast<unsigned long long>(index) > atomCount)
        throw std::runtime_error(where(lineNo) + ": atom index " + std::to_string(index) +
                                 " is out of range 1.." + std::to_string(atomCount));
      group.push_back(static_cast<std::size_t>(index - 1));
      if (--expected == 0) closeGroup();
    }
  }
  if (expected > 0)
    throw std::runtime_error(where(groupLine) + ": GROUP ends at the end of the file " +
                             std::to_string(expected) + " atom indices short");
  return set;
}

std::string formatRigidBodies(const RigidBodySet& set, const std::vector<std::string>& comments) {
  std::ostringstream out;
  for (const std::string& c : comments) out << "# " << c << "\n";
  for (std::size_t b = 0; b < set.bodyCount(); ++b) {
    out << "GROUP " << set.body(b).size() << "\n";
    for (std::size_t a : set.body(b)) out << a + 1 << "\n";
  }
  return out.str();
}

void writeRigidBodies(const std::string& path, const RigidBodySet& set,
                      const std::vector<std::string>& comments) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error(path + ": cannot write the rigid-body file");
  out << formatRigidBodies(set, comments);
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace landscape
