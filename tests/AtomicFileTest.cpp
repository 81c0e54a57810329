// Whole-file atomic writes and durable appends (landscape/formats/AtomicFile).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "landscape/formats/AtomicFile.h"

namespace {

namespace fs = std::filesystem;

fs::path freshFolder(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("landscape-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

// Appends create the file and add to its end in order, with every byte (a journal's records);
// a write replaces everything, leaving no temporary file behind.
TEST(AtomicFile, AppendsAddInOrderAndAWriteReplacesTheWhole) {
  const fs::path dir = freshFolder("atomic-file");
  const std::string path = (dir / "journal").string();
  const std::string binary("a\0b\n", 4);
  landscape::appendToFileDurably(path, binary, "journal");
  landscape::appendToFileDurably(path, "second", "journal");
  EXPECT_EQ(landscape::readWholeFile(path, "journal"), binary + "second");
  landscape::writeFileAtomically(path, "whole", "journal");
  EXPECT_EQ(landscape::readWholeFile(path, "journal"), "whole");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  fs::remove_all(dir);
}

// A file that cannot be opened is an error naming it and its kind, never a silent loss.
TEST(AtomicFile, AppendToAMissingFolderNamesTheFile) {
  const std::string path = "/nonexistent-landscape-folder/journal";
  try {
    landscape::appendToFileDurably(path, "x", "ended connect runs");
    FAIL() << "appended to " << path;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ended connect runs '" + path + "': cannot open it"),
              std::string::npos)
        << e.what();
  }
}
