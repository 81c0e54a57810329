// OPTIM's perm.allow: parsing (swap sets, commas, indices continued on the next line) and the
// errors that name the file and line (bad index, overlapping groups, counts that disagree).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/formats/PermAllowFile.h"
#include "tests/TempFile.h"

namespace landscape {
namespace {

std::string errorOf(const std::string& contents, std::size_t atoms) {
  const TempFile file(contents, ".allow");
  try {
    readPermAllow(file.path(), atoms);
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    // Every message starts with the file name.
    EXPECT_EQ(message.rfind(file.path() + ":", 0), 0u) << message;
    return message.substr(file.path().size());
  }
  ADD_FAILURE() << "no error for:\n" << contents;
  return "";
}

TEST(PermAllowFile, ReadsGroupsWithSwapSetsAsZeroBasedIndices) {
  // Ace-Ash-Nme style: two methyl groups, then two carbons with three swapped hydrogens each
  // (split over two lines, commas allowed as in Fortran list-directed input), then a pair.
  const TempFile file(
      "4\n"
      "3 0\n"
      "1 3 4\n"
      "3 0\n"
      " 23, 24, 25\n"
      "\n"
      "2 3\n"
      "5 9 6 10\n"
      "7 11 8 12\n"
      "2 0\n"
      "15 16\n",
      ".allow");
  const std::vector<PermutationGroup> groups = readPermAllow(file.path(), 25);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].atoms, (std::vector<int>{0, 2, 3}));
  EXPECT_TRUE(groups[0].swapSets.empty());
  EXPECT_EQ(groups[1].atoms, (std::vector<int>{22, 23, 24}));
  EXPECT_EQ(groups[2].atoms, (std::vector<int>{4, 8}));
  ASSERT_EQ(groups[2].swapSets.size(), 3u);
  EXPECT_EQ(groups[2].swapSets[0], (std::vector<int>{5, 9}));
  EXPECT_EQ(groups[2].swapSets[1], (std::vector<int>{6, 10}));
  EXPECT_EQ(groups[2].swapSets[2], (std::vector<int>{7, 11}));
  EXPECT_EQ(groups[3].atoms, (std::vector<int>{14, 15}));
  // What formatPermAllow writes reads back the same.
  const TempFile again(formatPermAllow(groups), ".allow");
  const std::vector<PermutationGroup> back = readPermAllow(again.path(), 25);
  ASSERT_EQ(back.size(), groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    EXPECT_EQ(back[g].atoms, groups[g].atoms);
    EXPECT_EQ(back[g].swapSets, groups[g].swapSets);
  }
  // The groups are valid alignment parameters.
  AlignmentParams params;
  params.permutationGroups = groups;
  EXPECT_NO_THROW(params.check());
}

TEST(PermAllowFile, ZeroGroupsAndNestedSwapSets) {
  EXPECT_TRUE(readPermAllow(TempFile("0\n", ".allow").path(), 5).empty());
  // Swapped methyl carbons 1 and 5 carry their hydrogens (2-4, 6-8), which are also permutable
  // among themselves: a swap-set atom may be an atom of a later group.
  const TempFile nested("3\n2 3\n1 5 2 6 3 7 4 8\n3 0\n2 3 4\n3 0\n6 7 8\n", ".allow");
  const std::vector<PermutationGroup> groups = readPermAllow(nested.path(), 8);
  ASSERT_EQ(groups.size(), 3u);
  AlignmentParams params;
  params.permutationGroups = groups;
  EXPECT_NO_THROW(params.check());
}

TEST(PermAllowFile, ErrorsNameTheLineAndWhatWasExpected) {
  struct Case {
    const char* contents;
    const char* message;  // after "FILE"
  };
  const std::vector<Case> cases = {
      {"", ":1: the file ends where the number of groups was expected"},
      {"two\n", ":1: expected the number of groups (an integer >= 0), found 'two'"},
      {"1 2\n2 0\n1 2\n", ":1: the first line holds only the number of groups, found also '2'"},
      {"1\n1 0\n1\n", ":2: expected the number of atoms of group 1 (an integer >= 2), found '1'"},
      {"1\n2\n1 2\n", ":2: group 1: expected 'SIZE NSWAP' on one line, found only '2'"},
      {"1\n2 0 5\n1 2\n", ":2: group 1: expected only 'SIZE NSWAP' on this line, found also '5'"},
      // Bad indices.
      {"1\n2 0\n1 0\n", ":3: group 1: expected an atom index from 1 to 5, found '0'"},
      {"1\n2 0\n1 6\n", ":3: group 1: expected an atom index from 1 to 5, found '6'"},
      {"1\n2 0\n1 x\n", ":3: group 1: expected an atom index from 1 to 5, found 'x'"},
      {"1\n2 0\n1 1.5\n", ":3: group 1: expected an atom index from 1 to 5, found '1.5'"},
      // Counts that disagree with the indices.
      {"1\n2 0\n1 2 3\n",
       ":3: group 1 (SIZE 2, NSWAP 0 on line 2) needs 2 atom indices, SIZE x (1 + NSWAP), but "
       "this line has more ('3')"},
      {"1\n2 1\n1 2 3\n",
       ":3: group 1 (SIZE 2, NSWAP 1 on line 2) needs 4 atom indices, SIZE x (1 + NSWAP); the "
       "file ends after 3"},
      {"2\n2 0\n1 2\n", ":3: the file ends where the number of atoms of group 2 was expected"},
      {"1\n2 0\n1 2\n2 0\n3 4\n",
       ":4: the file declares 1 groups (line 1), but more values follow: '2'"},
      {"1\n6 0\n1 2 3 4 5 6\n",
       ":2: group 1 declares 6 atoms and 0 swap sets, more than the system's 5 atoms"},
      // Overlaps.
      {"2\n2 0\n1 2\n3 0\n3 4 2\n",
       ":5: group 2: atom 2 is already in group 1 (line 3); groups may not overlap"},
      {"1\n2 1\n1 2 2 3\n",
       ":3: group 1: atom 2 appears twice (its atoms and swap-set atoms must all differ)"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(errorOf(c.contents, 5), c.message) << c.contents;
  }
  EXPECT_THROW(readPermAllow("/nonexistent/perm.allow", 5), std::runtime_error);
}

}  // namespace
}  // namespace landscape
