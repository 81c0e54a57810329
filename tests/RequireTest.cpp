// landscape/core/Require.h: a failed check throws its sentence; the lazy form makes the sentence
// only when the check fails.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "landscape/core/Require.h"

namespace {

using landscape::require;

std::string thrownBy(bool ok, int& made) {
  try {
    require(ok, [&] {
      ++made;
      return "count must be >= 1, got " + std::to_string(0);
    });
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Require, LazySentenceIsMadeOnlyWhenTheCheckFails) {
  int made = 0;
  EXPECT_EQ(thrownBy(true, made), "");
  EXPECT_EQ(made, 0);
  EXPECT_EQ(thrownBy(false, made), "count must be >= 1, got 0");
  EXPECT_EQ(made, 1);
}

TEST(Require, SentenceGivenWholeIsThrownAsItIs) {
  EXPECT_NO_THROW(require(true, "never seen"));
  try {
    require(false, std::string("alignment maxIterations must be >= 1, got 0"));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "alignment maxIterations must be >= 1, got 0");
  }
}

}  // namespace
