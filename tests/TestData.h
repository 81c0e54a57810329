#pragma once
// Where the test data lives: tests/data in the repository (tests/data/README.md lists the
// folders and their origin).
//
// Root: $LANDSCAPE_TEST_DATA if set, else <source>/tests/data, where <source> is
// $LANDSCAPE_SOURCE_DIR if set, else the LANDSCAPE_SOURCE_DIR compile definition of the test
// target. Files generated at build time rather than stored (gb/myoglobin_x4 and gb/myoglobin_x10,
// made by tools/utilities/make_prmtop_copies) are looked up under the root first, then under the
// build tree's data folder (the LANDSCAPE_GENERATED_DATA_DIR compile definition). Tests that need
// a file call testDataPath() and GTEST_SKIP() with a message when it returns nullopt.
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
  return (std::filesystem::path(source) / "tests" / "data").lexically_normal().string();
}

/// Full path of relative (e.g. "lj38/gmin/lowest") under testDataRoot(), else under the build
/// tree's generated data folder, or nullopt when no regular file is in either.
inline std::optional<std::string> testDataPath(const std::string& relative) {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::path(testDataRoot()) / relative;
  if (std::filesystem::is_regular_file(path, error)) return path.string();
#ifdef LANDSCAPE_GENERATED_DATA_DIR
  const std::filesystem::path generated =
      std::filesystem::path(LANDSCAPE_GENERATED_DATA_DIR) / relative;
  if (std::filesystem::is_regular_file(generated, error)) return generated.string();
#endif
  return std::nullopt;
}

}  // namespace landscape

// Tests outside namespace landscape may call these unqualified.
using landscape::testDataPath;
using landscape::testDataRoot;
