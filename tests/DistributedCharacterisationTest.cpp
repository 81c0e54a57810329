// src/common/DistributedCharacterisation: the new stationary points of a growth cycle characterised
// in blocks over K ranks (threads standing in for them) give every rank the properties one process
// computes, bit for bit, in the points' order; a rank's message that does not fit is refused.
#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <vector>

#include "landscape/core/IndexBlock.h"
#include "potentials/LennardJones.h"
#include "src/common/DistributedCharacterisation.h"
#include "tests/Lj7Structures.h"
#include "tests/ThreadRanks.h"

namespace landscape {
namespace {

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

void expectSame(const StationaryPointProperties& a, const StationaryPointProperties& b, int i) {
  EXPECT_TRUE(sameBits({a.logProductOfPositiveEigenvalues}, {b.logProductOfPositiveEigenvalues}))
      << "point " << i;
  EXPECT_TRUE(sameBits(a.hessianEigenvalues, b.hessianEigenvalues)) << "point " << i;
  EXPECT_EQ(a.pointGroupOrder, b.pointGroupOrder) << "point " << i;
  EXPECT_TRUE(sameBits({a.principalMoments.begin(), a.principalMoments.end()},
                       {b.principalMoments.begin(), b.principalMoments.end()}))
      << "point " << i;
}

// LJ7's two lowest minima, each also rotated: 5 points, so 2 and 3 ranks get uneven blocks.
std::vector<std::vector<double>> lj7Points() {
  std::vector<double> turned = lj7PentagonalBipyramid();
  for (std::size_t a = 0; a < turned.size(); a += 3) std::swap(turned[a], turned[a + 2]);
  std::vector<double> shifted = lj7CappedOctahedron();
  for (double& x : shifted) x += 0.25;
  return {lj7PentagonalBipyramid(), lj7CappedOctahedron(), turned, shifted,
          lj7PentagonalBipyramid()};
}

TEST(DistributedCharacterisation, RanksGiveTheOneProcessPropertiesBitForBit) {
  const std::vector<std::vector<double>> points = lj7Points();
  LennardJones lj(7);
  const std::vector<StationaryPointProperties> solo = characteriseTogether(lj, points);
  ASSERT_EQ(solo.size(), points.size());
  EXPECT_EQ(solo[0].pointGroupOrder, 20);  // the pentagonal bipyramid, D5h
  for (int k : {2, 3, 7}) {
    std::mutex m;
    std::vector<std::vector<StationaryPointProperties>> got(static_cast<std::size_t>(k));
    onThreadRanks(k, [&](Communicator& ranks) {
      LennardJones own(7);
      std::vector<StationaryPointProperties> p = characteriseOverRanks(own, points, {}, ranks);
      std::lock_guard<std::mutex> lock(m);
      got[static_cast<std::size_t>(ranks.rank())] = std::move(p);
    });
    for (const auto& rank : got) {
      ASSERT_EQ(rank.size(), solo.size()) << k << " ranks";
      for (std::size_t i = 0; i < solo.size(); ++i) expectSame(rank[i], solo[i], static_cast<int>(i));
    }
  }
}

TEST(DistributedCharacterisation, PropertiesTravelWithEveryBitAndShortMessagesAreRefused) {
  StationaryPointProperties p;
  p.logProductOfPositiveEigenvalues = 12.5;
  p.hessianEigenvalues = {-1e-9, 0.0, 3.25};
  p.pointGroupOrder = 48;
  p.principalMoments = {1.0, 2.0, 2.5};
  ByteWriter out;
  putProperties(out, p);
  ByteReader in(out.bytes(), "rank 1's characterised points");
  expectSame(getProperties(in), p, 0);
  EXPECT_TRUE(in.done());
  std::vector<char> cut = out.bytes();
  cut.pop_back();
  ByteReader shortIn(cut, "rank 1's characterised points");
  EXPECT_THROW(getProperties(shortIn), std::runtime_error);
}

}  // namespace
}  // namespace landscape
