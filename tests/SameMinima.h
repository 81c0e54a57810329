#pragma once
// Two gmin minima databases (minima.h5) hold the same minima, bit for bit and in the same order.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "landscape/network/Database.h"

namespace landscape {

inline void expectSameMinimaDatabases(const std::filesystem::path& a,
                                      const std::filesystem::path& b) {
  const std::vector<StoredMinimum> x = MinimaDatabase::read(a.string());
  const std::vector<StoredMinimum> y = MinimaDatabase::read(b.string());
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].energy, y[i].energy) << "minimum " << i;
    EXPECT_EQ(x[i].firstFoundStep, y[i].firstFoundStep) << "minimum " << i;
    EXPECT_EQ(x[i].functionCalls, y[i].functionCalls) << "minimum " << i;
    EXPECT_EQ(x[i].coordinates, y[i].coordinates) << "minimum " << i;
  }
}

}  // namespace landscape
