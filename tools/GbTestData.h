#pragma once
// Where the GB benchmarks find a test system: the --data folder (default <source>/tests/data/gb),
// else the copy made at build time (myoglobin_x4 and myoglobin_x10 are generated into
// build/data/gb by tools/utilities/make_prmtop_copies; tests/data/gb/SOURCES.md).
#include <filesystem>
#include <string>

namespace landscape {

/// DIR/relative, or the build tree's generated copy when DIR lacks the file.
inline std::string gbDataFile(const std::string& data, const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(data) / relative;
  const std::filesystem::path generated =
      std::filesystem::path(LANDSCAPE_GENERATED_DATA_DIR) / "gb" / relative;
  if (!std::filesystem::exists(path) && std::filesystem::exists(generated))
    return generated.string();
  return path.string();
}

}  // namespace landscape
