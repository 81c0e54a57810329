#include "landscape/formats/PermAllowFile.h"

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

struct Token {
  std::string text;
  std::size_t line;
};

// Every value of the file with its line number: Fortran list-directed input separates values by
// blanks or commas.
std::vector<Token> tokens(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open perm.allow file");
  std::vector<Token> out;
  std::string text;
  std::size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    for (char& c : text) {
      if (c == ',' || c == '\t' || c == '\r') c = ' ';
    }
    std::istringstream words(text);
    for (std::string word; words >> word;) out.push_back({word, line});
  }
  if (in.bad()) throw std::runtime_error(path + ": read error");
  return out;
}

// The values of one perm.allow file read in order, with messages that name the file and line.
class PermAllowReader {
 public:
  PermAllowReader(const std::string& path, std::size_t atoms)
      : m_path(path), m_all(tokens(path)), m_atoms(atoms) {}

  std::vector<PermutationGroup> read();

 private:
  struct Header {
    long long size, swaps;
    std::size_t line;
  };
  // Atom -> (group, line), 1-based: the group that already permutes it.
  using Owners = std::map<int, std::pair<std::size_t, std::size_t>>;

  std::string where(std::size_t line) const { return m_path + ":" + std::to_string(line) + ": "; }
  std::size_t lastLine() const { return m_all.empty() ? std::size_t{1} : m_all.back().line; }
  bool moreOnLine(std::size_t line) const {
    return m_next < m_all.size() && m_all[m_next].line == line;
  }
  /// The next value as an integer >= minimum, and its line; `what` names it in messages.
  std::pair<long long, std::size_t> integer(const std::string& what, long long minimum);
  PermutationGroup group(long long g, Owners& owners);
  Header groupHeader(const std::string& name);
  /// The SIZE x (1 + NSWAP) atom indices (0-based) of a group; firstLine gets their first line.
  std::vector<int> groupIndices(const std::string& name, const Header& h, std::size_t& firstLine);

  std::string m_path;
  std::vector<Token> m_all;
  std::size_t m_atoms;
  std::size_t m_next = 0;
};

std::pair<long long, std::size_t> PermAllowReader::integer(const std::string& what,
                                                           long long minimum) {
  if (m_next == m_all.size()) {
    throw std::runtime_error(where(lastLine()) + "the file ends where " + what + " was expected");
  }
  const Token& t = m_all[m_next++];
  const auto v = parseFortranInteger(t.text);
  if (!v || *v < minimum) {
    throw std::runtime_error(where(t.line) + "expected " + what + " (an integer >= " +
                             std::to_string(minimum) + "), found " + quoteInput(t.text));
  }
  return {*v, t.line};
}

std::vector<PermutationGroup> PermAllowReader::read() {
  const auto [groupCount, countLine] = integer("the number of groups", 0);
  if (moreOnLine(countLine)) {
    throw std::runtime_error(where(countLine) +
                             "the first line holds only the number of groups, found also " +
                             quoteInput(m_all[m_next].text));
  }
  std::vector<PermutationGroup> groups;
  Owners owners;
  for (long long g = 1; g <= groupCount; ++g) groups.push_back(group(g, owners));
  if (m_next < m_all.size()) {
    throw std::runtime_error(where(m_all[m_next].line) + "the file declares " +
                             std::to_string(groupCount) + " groups (line " +
                             std::to_string(countLine) + "), but more values follow: " +
                             quoteInput(m_all[m_next].text));
  }
  return groups;
}

PermAllowReader::Header PermAllowReader::groupHeader(const std::string& name) {
  const auto [size, headerLine] = integer("the number of atoms of " + name, 2);
  const auto [swaps, swapLine] = integer("the number of swap sets of " + name, 0);
  if (swapLine != headerLine) {
    throw std::runtime_error(where(headerLine) + name +
                             ": expected 'SIZE NSWAP' on one line, found only '" +
                             std::to_string(size) + "'");
  }
  if (moreOnLine(headerLine)) {
    throw std::runtime_error(where(headerLine) + name +
                             ": expected only 'SIZE NSWAP' on this line, found also " +
                             quoteInput(m_all[m_next].text));
  }
  if (size > static_cast<long long>(m_atoms) || swaps > static_cast<long long>(m_atoms)) {
    throw std::runtime_error(where(headerLine) + name + " declares " + std::to_string(size) +
                             " atoms and " + std::to_string(swaps) +
                             " swap sets, more than the system's " + std::to_string(m_atoms) +
                             " atoms");
  }
  return {size, swaps, headerLine};
}

std::vector<int> PermAllowReader::groupIndices(const std::string& name, const Header& h,
                                               std::size_t& firstLine) {
  const std::string counts = name + " (SIZE " + std::to_string(h.size) + ", NSWAP " +
                             std::to_string(h.swaps) + " on line " + std::to_string(h.line) +
                             ") needs ";
  const std::size_t expected = static_cast<std::size_t>(h.size * (1 + h.swaps));
  const std::size_t first = m_next;
  std::vector<int> indices;
  for (std::size_t k = 0; k < expected; ++k) {
    if (m_next == m_all.size()) {
      throw std::runtime_error(where(lastLine()) + counts + std::to_string(expected) +
                               " atom indices, SIZE x (1 + NSWAP); the file ends after " +
                               std::to_string(m_next - first));
    }
    const Token& t = m_all[m_next++];
    if (k == 0) firstLine = t.line;
    const auto v = parseFortranInteger(t.text);
    if (!v || *v < 1 || *v > static_cast<long long>(m_atoms)) {
      throw std::runtime_error(where(t.line) + name + ": expected an atom index from 1 to " +
                               std::to_string(m_atoms) + ", found " + quoteInput(t.text));
    }
    indices.push_back(static_cast<int>(*v - 1));
  }
  // The indices of a group end on a line of their own: more values there mean the counts on
  // the SIZE NSWAP line disagree with the indices (the next group's header starts a new line).
  if (m_next < m_all.size() && m_all[m_next].line == m_all[m_next - 1].line) {
    throw std::runtime_error(where(m_all[m_next].line) + counts + std::to_string(expected) +
                             " atom indices, SIZE x (1 + NSWAP), but this line has more (" +
                             quoteInput(m_all[m_next].text) + ")");
  }
  return indices;
}

PermutationGroup PermAllowReader::group(long long g, Owners& owners) {
  const std::string name = "group " + std::to_string(g);
  const Header h = groupHeader(name);
  std::size_t firstLine = 0;
  const std::vector<int> indices = groupIndices(name, h, firstLine);
  PermutationGroup group;
  const std::size_t n = static_cast<std::size_t>(h.size);
  group.atoms.assign(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(n));
  for (long long s = 0; s < h.swaps; ++s) {
    const auto begin = indices.begin() + static_cast<std::ptrdiff_t>((s + 1) * h.size);
    group.swapSets.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(n));
  }
  std::map<int, int> seen;
  for (int atom : indices) {
    if (++seen[atom] > 1) {
      throw std::runtime_error(where(firstLine) + name + ": atom " + std::to_string(atom + 1) +
                               " appears twice (its atoms and swap-set atoms must all differ)");
    }
  }
  for (int atom : group.atoms) {
    const auto it = owners.find(atom);
    if (it != owners.end()) {
      throw std::runtime_error(where(firstLine) + name + ": atom " + std::to_string(atom + 1) +
                               " is already in group " + std::to_string(it->second.first) +
                               " (line " + std::to_string(it->second.second) +
                               "); groups may not overlap");
    }
    owners[atom] = {static_cast<std::size_t>(g), firstLine};
  }
  return group;
}

}  // namespace

std::vector<PermutationGroup> readPermAllow(const std::string& path, std::size_t atoms) {
  return PermAllowReader(path, atoms).read();
}

std::string formatPermAllow(const std::vector<PermutationGroup>& groups) {
  std::ostringstream out;
  out << groups.size() << "\n";
  for (const PermutationGroup& group : groups) {
    out << group.atoms.size() << " " << group.swapSets.size() << "\n";
    const char* separator = "";
    for (int atom : group.atoms) {
      out << separator << atom + 1;
      separator = " ";
    }
    for (const std::vector<int>& set : group.swapSets) {
      for (int atom : set) out << " " << atom + 1;
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace landscape
