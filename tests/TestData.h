#pragma once
// Where the shared test data lives (DESIGN.md; /work/shared/data/README.md lists the folders).
//
// Root: $LANDSCAPE_TEST_DATA if set, else <source>/../shared/data, where <source> is
// $LANDSCAPE_SOURCE_DIR if set, else the LANDSCAPE_SOURCE_DIR compile definition of the test
// target. Tests that need a file call testDataPath() and GTEST_SKIP() with a message when it
// returns nullopt, so a checkout without the data still passes.
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

namespace landscape {

/// The test-data root directory as configured (it need not exist).
inline std::string testDataRoot() {
  if (const char* root = std::getenv("LANDSCAPE_TEST_DATA"); root != nullptr && *root != '\0')
    return root;
  std::string source;
  if (const char* env = std::getenv("LANDSCAPE_SOURCE_DIR"); env != nullptr && *env != '\0')
    source = env;
#ifdef LANDSCAPE_SOURCE_DIR
  if (source.empty()) source = LANDSCAPE_SOURCE_DIR;
#endif
  if (source.empty()) source = ".";
  return (std::filesystem::path(source) / ".." / "shared" / "data").lexically_normal().string();
}

/// Full path of relative (e.g. "lj38/gmin/lowest") under testDataRoot(), or nullopt when no
/// regular file is there.
inline std::optional<std::string> testDataPath(const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(testDataRoot()) / relative;
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  return path.string();
}

}  // namespace landscape

// Tests outside namespace landscape may call these unqualified.
using landscape::testDataPath;
using landscape::testDataRoot;
