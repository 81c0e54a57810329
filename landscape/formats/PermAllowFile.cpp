#include "landscape/formats/PermAllowFile.h"

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/CoordinatesFile.h"

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

}  // namespace

std::vector<PermutationGroup> readPermAllow(const std::string& path, std::size_t atoms) {
  const std::vector<Token> all = tokens(path);
  std::size_t next = 0;
  const auto where = [&](std::size_t line) { return path + ":" + std::to_string(line) + ": "; };
  const auto lastLine = [&]() { return all.empty() ? std::size_t{1} : all.back().line; };
  // The next value as an integer >= minimum; `what` names it in messages.
  const auto integer = [&](const std::string& what, long long minimum) {
    if (next == all.size()) {
      throw std::runtime_error(where(lastLine()) + "the file ends where " + what + " was expected");
    }
    const Token& t = all[next++];
    const auto v = parseFortranInteger(t.text);
    if (!v || *v < minimum) {
      throw std::runtime_error(where(t.line) + "expected " + what + " (an integer >= " +
                               std::to_string(minimum) + "), found " + quoteInput(t.text));
    }
    return std::make_pair(*v, t.line);
  };

  const auto [groupCount, countLine] = integer("the number of groups", 0);
  if (next < all.size() && all[next].line == countLine) {
    throw std::runtime_error(where(countLine) +
                             "the first line holds only the number of groups, found also " +
                             quoteInput(all[next].text));
  }
  std::vector<PermutationGroup> groups;
  std::map<int, std::pair<std::size_t, std::size_t>> permutedBy;  // atom -> (group, line), 1-based
  for (long long g = 1; g <= groupCount; ++g) {
    const std::string name = "group " + std::to_string(g);
    const auto [size, headerLine] = integer("the number of atoms of " + name, 2);
    const auto [swaps, swapLine] = integer("the number of swap sets of " + name, 0);
    if (swapLine != headerLine) {
      throw std::runtime_error(where(headerLine) + name +
                               ": expected 'SIZE NSWAP' on one line, found only '" +
                               std::to_string(size) + "'");
    }
    if (next < all.size() && all[next].line == headerLine) {
      throw std::runtime_error(where(headerLine) + name +
                               ": expected only 'SIZE NSWAP' on this line, found also " +
                               quoteInput(all[next].text));
    }
    if (size > static_cast<long long>(atoms) || swaps > static_cast<long long>(atoms)) {
      throw std::runtime_error(where(headerLine) + name + " declares " + std::to_string(size) +
                               " atoms and " + std::to_string(swaps) +
                               " swap sets, more than the system's " + std::to_string(atoms) +
                               " atoms");
    }
    const std::size_t expected = static_cast<std::size_t>(size * (1 + swaps));
    const std::size_t first = next;
    std::vector<int> indices;
    std::size_t firstLine = 0;
    for (std::size_t k = 0; k < expected; ++k) {
      if (next == all.size()) {
        throw std::runtime_error(
            where(lastLine()) + name + " (SIZE " + std::to_string(size) + ", NSWAP " +
            std::to_string(swaps) + " on line " + std::to_string(headerLine) + ") needs " +
            std::to_string(expected) + " atom indices, SIZE x (1 + NSWAP); the file ends after " +
            std::to_string(next - first));
      }
      const Token& t = all[next++];
      if (k == 0) firstLine = t.line;
      const auto v = parseFortranInteger(t.text);
      if (!v || *v < 1 || *v > static_cast<long long>(atoms)) {
        throw std::runtime_error(where(t.line) + name + ": expected an atom index from 1 to " +
                                 std::to_string(atoms) + ", found " + quoteInput(t.text));
      }
      indices.push_back(static_cast<int>(*v - 1));
    }
    // The indices of a group end on a line of their own: more values there mean the counts on
    // the SIZE NSWAP line disagree with the indices (the next group's header starts a new line).
    if (next < all.size() && all[next].line == all[next - 1].line) {
      throw std::runtime_error(where(all[next].line) + name + " (SIZE " + std::to_string(size) +
                               ", NSWAP " + std::to_string(swaps) + " on line " +
                               std::to_string(headerLine) + ") needs " + std::to_string(expected) +
                               " atom indices, SIZE x (1 + NSWAP), but this line has more (" +
                               quoteInput(all[next].text) + ")");
    }
    PermutationGroup group;
    const std::size_t n = static_cast<std::size_t>(size);
    group.atoms.assign(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(n));
    for (long long s = 0; s < swaps; ++s) {
      const auto begin = indices.begin() + static_cast<std::ptrdiff_t>((s + 1) * size);
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
      const auto it = permutedBy.find(atom);
      if (it != permutedBy.end()) {
        throw std::runtime_error(where(firstLine) + name + ": atom " + std::to_string(atom + 1) +
                                 " is already in group " + std::to_string(it->second.first) +
                                 " (line " + std::to_string(it->second.second) +
                                 "); groups may not overlap");
      }
      permutedBy[atom] = {static_cast<std::size_t>(g), firstLine};
    }
    groups.push_back(std::move(group));
  }
  if (next < all.size()) {
    throw std::runtime_error(where(all[next].line) + "the file declares " +
                             std::to_string(groupCount) + " groups (line " +
                             std::to_string(countLine) +
                             "), but more values follow: " + quoteInput(all[next].text));
  }
  return groups;
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
