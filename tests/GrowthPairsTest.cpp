// takeCyclePairs: a growth cycle's pairs taken from the candidate list as PATHSAMPLE's GETRPAIR
// and GETUPAIR take them (the list used in order, each pair recorded as tried, a new list computed
// only when this one is used up), shared by `pathsample grow` and the Python module's grow.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "landscape/network/GrowthPairs.h"

namespace landscape {
namespace {

using Pair = std::array<int, 2>;

TEST(GrowthPairs, CycleTakesTheListInOrderAndRecomputesItOnlyWhenUsedUp) {
  std::vector<Pair> pending = {{1, 2}, {3, 4}};
  TriedPairs tried = {{0, 5}};
  int selections = 0;
  std::vector<std::size_t> newLists;
  // Each new list is computed after the pairs taken so far joined the tried pairs.
  const auto select = [&] {
    ++selections;
    EXPECT_TRUE(TriedPairIndex(tried).contains(3, 4, false));
    return std::vector<CandidatePair>{{5, 6, 1.0}, {7, 8, 0.5}, {9, 10, 0.1}};
  };
  const auto noted = [&](std::size_t size) { newLists.push_back(size); };
  EXPECT_EQ(takeCyclePairs(pending, tried, 3, select, noted),
            (std::vector<Pair>{{1, 2}, {3, 4}, {5, 6}}));
  EXPECT_EQ(selections, 1);
  EXPECT_EQ(newLists, (std::vector<std::size_t>{3}));
  EXPECT_EQ(pending, (std::vector<Pair>{{7, 8}, {9, 10}}));  // the rest waits for the next cycle
  EXPECT_EQ(tried, (TriedPairs{{0, 5}, {1, 2}, {3, 4}, {5, 6}}));
  // The next cycle continues the list before it asks for another.
  EXPECT_EQ(takeCyclePairs(pending, tried, 2, select, noted), (std::vector<Pair>{{7, 8}, {9, 10}}));
  EXPECT_EQ(selections, 1);
}

TEST(GrowthPairs, CycleIsShortWhenANewListIsEmpty) {
  std::vector<Pair> pending = {{1, 2}};
  TriedPairs tried;
  int selections = 0;
  const auto select = [&] {
    ++selections;
    return std::vector<CandidatePair>{};
  };
  EXPECT_EQ(takeCyclePairs(pending, tried, 4, select), (std::vector<Pair>{{1, 2}}));
  EXPECT_EQ(selections, 1);
  EXPECT_TRUE(takeCyclePairs(pending, tried, 4, select).empty());
  EXPECT_EQ(selections, 2);
}

TEST(GrowthPairs, StoredPairsOfOneMinimumOrTriedAlreadyAreDropped) {
  // A stored list that outlived a merge of minima: (4, 4) names one minimum twice, (1, 2) was
  // tried; the reverse order of a tried pair stays (PATHSAMPLE's UNTRAP may try it).
  std::vector<Pair> pending = {{4, 4}, {1, 2}, {2, 1}, {6, 7}};
  TriedPairs tried = {{1, 2}};
  const auto select = [] { return std::vector<CandidatePair>{{8, 9, 1.0}}; };
  EXPECT_EQ(takeCyclePairs(pending, tried, 3, select), (std::vector<Pair>{{2, 1}, {6, 7}, {8, 9}}));
  EXPECT_EQ(tried, (TriedPairs{{1, 2}, {2, 1}, {6, 7}, {8, 9}}));
}

TEST(GrowthPairs, ANewListOfDroppedPairsEndsTheCycleInsteadOfAskingForever) {
  std::vector<Pair> pending;
  TriedPairs tried = {{1, 2}};
  int selections = 0;
  const auto select = [&] {
    ++selections;
    return std::vector<CandidatePair>{{1, 2, 1.0}, {3, 3, 0.5}};
  };
  EXPECT_TRUE(takeCyclePairs(pending, tried, 2, select).empty());
  EXPECT_EQ(selections, 1);
}

}  // namespace
}  // namespace landscape
