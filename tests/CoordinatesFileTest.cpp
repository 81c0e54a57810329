// readCoordinates / writeXyz (landscape/formats/CoordinatesFile.h): both formats, Fortran numbers, and
// the one-line "FILE:LINE: expected ..., found ..." errors.
#include <gtest/gtest.h>

#include "tests/TempFile.h"

using landscape::TempFile;

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "tests/TestData.h"

namespace {

using landscape::parseFortranInteger;
using landscape::parseFortranReal;
using landscape::readCoordinates;
using landscape::writeXyz;

// A file under the temporary directory with a name no other test (or process) uses; removed at
// the end of the scope.
// Expects readCoordinates(file) to throw a one-line message containing `path:line: ` and `what`.
void expectReadError(const std::string& contents, const std::string& lineTag,
                     const std::string& what) {
  TempFile file(contents);
  try {
    readCoordinates(file.path());
    ADD_FAILURE() << "no error for:\n" << contents;
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.path() + lineTag), std::string::npos) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

}  // namespace

TEST(CoordinatesFile, ReadsGminLj38ExampleCoords) {
  const auto path = testDataPath("lj38/gmin/coords");
  if (!path) GTEST_SKIP() << "lj38/gmin/coords not found under " << testDataRoot();
  const std::vector<double> x = readCoordinates(*path);
  ASSERT_EQ(x.size(), 3u * 38u);
  EXPECT_DOUBLE_EQ(x[0], 0.1351325303);
  EXPECT_DOUBLE_EQ(x[1], 0.8210579007);
  EXPECT_DOUBLE_EQ(x[2], -1.0798500854);
  EXPECT_DOUBLE_EQ(x[113], -1.2915185426);
}

TEST(CoordinatesFile, ReadsBareCoordsWithFortranExponentsAndTrailingBlankLines) {
  TempFile file("  1.0D0   -2.5d-1  3\n\t0.5E+1, 0 0\n-1.  .25  +7\n\n   \n");
  // "0.5E+1," is not a number: commas are not separators in a coords file.
  EXPECT_THROW(readCoordinates(file.path()), std::runtime_error);

  TempFile good("  1.0D0   -2.5d-1  3\n\t0.5E+1 0 0\r\n-1.  .25  +7\n\n   \n");
  const std::vector<double> x = readCoordinates(good.path());
  const std::vector<double> expected = {1.0, -0.25, 3.0, 5.0, 0.0, 0.0, -1.0, 0.25, 7.0};
  EXPECT_EQ(x, expected);
}

TEST(CoordinatesFile, ReadsXyz) {
  TempFile file(
      "3\nLJ3 energy -3.0 (any comment, even 3 numbers 1 2 3)\n"
      "LA 0.0 0.0 0.0\nAr 1.12 0 0\r\nX 0.56 0.97D0 -1.5E-1\n\n");
  const std::vector<double> x = readCoordinates(file.path());
  const std::vector<double> expected = {0.0, 0.0, 0.0, 1.12, 0.0, 0.0, 0.56, 0.97, -0.15};
  EXPECT_EQ(x, expected);

  TempFile blankComment("1\n\nLA 1 2 3\n");
  EXPECT_EQ(readCoordinates(blankComment.path()), (std::vector<double>{1, 2, 3}));
}

TEST(CoordinatesFile, WriteXyzRoundTrips) {
  const std::vector<double> x = {0.1351325303, 0.8210579007, -1.0798500854,
                                 1.0 / 3.0,    -2.0e-7,      123.456789012345};
  TempFile file("", ".xyz");
  writeXyz(file.path(), x, "energy -1.0\nsecond line", "Ar");
  std::ifstream in(file.path());
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "2");
  std::getline(in, line);
  EXPECT_EQ(line, "energy -1.0 second line");  // a comment stays one line
  std::getline(in, line);
  EXPECT_EQ(line.rfind("Ar ", 0), 0u) << line;

  const std::vector<double> back = readCoordinates(file.path());
  ASSERT_EQ(back.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(back[i], x[i], 1e-14) << i;

  writeXyz(file.path(), x, "default label");
  std::ifstream again(file.path());
  std::getline(again, line);
  std::getline(again, line);
  std::getline(again, line);
  EXPECT_EQ(line.rfind("LA ", 0), 0u) << line;
}

TEST(CoordinatesFile, WriteXyzRejectsBadInput) {
  TempFile file("", ".xyz");
  EXPECT_THROW(writeXyz(file.path(), {1.0, 2.0}, "c"), std::invalid_argument);
  EXPECT_THROW(writeXyz(file.path(), {1.0, 2.0, std::nan("")}, "c"), std::invalid_argument);
  EXPECT_THROW(writeXyz(file.path(), {1.0, 2.0, 3.0}, "c", "two words"), std::invalid_argument);
  const std::string unwritable =
      (std::filesystem::temp_directory_path() / "landscape-no-such-dir-7f3a" / "x.xyz").string();
  try {
    writeXyz(unwritable, {1.0, 2.0, 3.0}, "c");
    ADD_FAILURE() << "no error writing " << unwritable;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(unwritable), std::string::npos) << e.what();
  }
}

TEST(CoordinatesFile, BareCoordsErrorsNameFileAndLine) {
  expectReadError("1 2 3\n4 5\n", ":2: ", "expected 3 numbers, found 2");
  expectReadError("1 2 3\n4 5 6 7\n", ":2: ", "expected 3 numbers, found 4");
  expectReadError("1 2 3\n4 five 6\n", ":2: ", "'five', which is not a number");
  expectReadError("1 2 nan\n", ":1: ", "non-finite number 'nan'");
  expectReadError("1 2 3\nInf 0 0\n", ":2: ", "non-finite number 'Inf'");
  expectReadError("1 2 3\n1D999 0 0\n", ":2: ", "non-finite number '1D999' (overflow)");
  expectReadError("1 2 3\n\n4 5 6\n", ":3: ", "blank lines only after the last atom");
  expectReadError("\n1 2 3\n", ":1: ", "found a blank line");
  expectReadError("1.5\n", ":1: ", "expected an atom count (XYZ) or 3 numbers");
}

TEST(CoordinatesFile, XyzErrorsNameFileAndLine) {
  expectReadError("3\ncomment\nLA 0 0 0\nLA 1 0 0\n",
                  ":5: ", "expected 3 atoms (count on line 1), found 2");
  expectReadError("2\ncomment\nLA 0 0 0\nLA 1 0 0\nLA 2 0 0\n", ":5: ", "found more lines");
  expectReadError("2\ncomment\nLA 0 0 0\n1 0 0\n",
                  ":4: ", "expected a label and 3 numbers, found 3 fields");
  expectReadError("1\ncomment\nLA 0 x 0\n", ":3: ", "'x', which is not a number");
  expectReadError("0\ncomment\n", ":1: ", "expected an atom count >= 1, found 0");
  expectReadError("2\n", ":3: ", "expected 2 atoms (count on line 1), found 0");
}

TEST(CoordinatesFile, EmptyAndMissingFiles) {
  TempFile empty("");
  try {
    readCoordinates(empty.path());
    ADD_FAILURE() << "no error for an empty file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(empty.path() + ": empty coordinates file"),
              std::string::npos)
        << e.what();
  }
  TempFile blank("\n  \n\n");
  EXPECT_THROW(readCoordinates(blank.path()), std::runtime_error);

  const std::string missing =
      (std::filesystem::temp_directory_path() / "landscape-no-such-coords-91c2").string();
  try {
    readCoordinates(missing);
    ADD_FAILURE() << "no error for a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
}

TEST(CoordinatesFile, FortranNumberSyntax) {
  EXPECT_EQ(parseFortranReal("5.0D-3"), 5.0e-3);
  EXPECT_EQ(parseFortranReal("1.d0"), 1.0);
  EXPECT_EQ(parseFortranReal(".5"), 0.5);
  EXPECT_EQ(parseFortranReal("5."), 5.0);
  EXPECT_EQ(parseFortranReal("-1E+2"), -100.0);
  EXPECT_EQ(parseFortranReal("+3"), 3.0);
  for (const char* bad : {"", "abc", "1e", "1D+", "nan", "inf", "0x10", "1.0.0", "--1", ".", "1 2",
                          "1e999", "5.0D-3x"})
    EXPECT_FALSE(parseFortranReal(bad).has_value()) << bad;

  EXPECT_EQ(parseFortranInteger("38"), 38);
  EXPECT_EQ(parseFortranInteger("-7"), -7);
  for (const char* bad : {"", "-", "3.0", "1e3", "x", "99999999999999999999"})
    EXPECT_FALSE(parseFortranInteger(bad).has_value()) << bad;
}
