// minima.h5 (landscape/network/Database.h) and GMIN's `lowest` file (landscape/formats/LowestFile.h).
#include <gtest/gtest.h>

#include <optional>

#include "tests/TestData.h"
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/formats/LowestFile.h"
#include "landscape/network/Database.h"
#include "landscape/network/StoredMinimum.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

/// A fresh directory under the system temporary directory, removed with everything in it.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    static std::atomic<int> counter{0};
    std::random_device entropy;
    m_path =
        fs::temp_directory_path() / ("landscape-db-test-" + std::to_string(::getpid()) + "-" +
                                     std::to_string(counter++) + "-" + std::to_string(entropy()));
    fs::create_directories(m_path);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  fs::path m_path;
};

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

DatabaseMetadata ljMetadata(std::size_t atoms) {
  DatabaseMetadata metadata;
  metadata.potential = "lj";
  metadata.energyUnit = "reduced (epsilon)";
  metadata.lengthUnit = "reduced (sigma)";
  metadata.atoms = atoms;
  metadata.program = "gmin";
  metadata.createdBy = "landscape tests";
  return metadata;
}

std::vector<StoredMinimum> randomMinima(std::size_t count, std::size_t atoms, unsigned seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> coordinate(-3.0, 3.0);
  std::uniform_real_distribution<double> energy(-180.0, -150.0);
  std::vector<StoredMinimum> minima(count);
  for (std::size_t i = 0; i < count; ++i) {
    minima[i].energy = energy(generator);
    minima[i].coordinates.resize(3 * atoms);
    for (double& x : minima[i].coordinates) x = coordinate(generator);
    minima[i].firstFoundStep = static_cast<long>(10 * i + 1);
    minima[i].functionCalls = static_cast<long>(1000 * i + 17);
  }
  return minima;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expectSameMinima(const std::vector<StoredMinimum>& expected,
                      const std::vector<StoredMinimum>& actual) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE("minimum " + std::to_string(i));
    EXPECT_TRUE(sameBits(actual[i].energy, expected[i].energy)) << actual[i].energy;
    ASSERT_EQ(actual[i].coordinates.size(), expected[i].coordinates.size());
    for (std::size_t k = 0; k < expected[i].coordinates.size(); ++k) {
      ASSERT_TRUE(sameBits(actual[i].coordinates[k], expected[i].coordinates[k]))
          << "coordinate " << k << ": " << actual[i].coordinates[k] << " vs "
          << expected[i].coordinates[k];
    }
    EXPECT_EQ(actual[i].firstFoundStep, expected[i].firstFoundStep);
    EXPECT_EQ(actual[i].functionCalls, expected[i].functionCalls);
  }
}

template <typename Exception, typename Function>
std::string messageOf(Function&& function) {
  try {
    function();
  } catch (const Exception& error) {
    return error.what();
  }
  ADD_FAILURE() << "no exception was thrown";
  return "";
}

// ---- minima.h5 -------------------------------------------------------------------------------

TEST(MinimaDatabaseTest, RoundTripIsBitExact) {
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  std::vector<StoredMinimum> minima = randomMinima(5, 38, 7);
  // Values that a text format would lose.
  minima[0].energy = -173.92842649999999;
  minima[1].coordinates[0] = -0.0;
  minima[1].coordinates[1] = std::numeric_limits<double>::denorm_min();
  minima[1].coordinates[2] = 1e300;
  minima[2].functionCalls = 9'000'000'000'000L;  // beyond 32 bits
  minima[3].firstFoundStep = -1;

  DatabaseMetadata written = ljMetadata(38);
  written.createdBy = "landscape 0.1.0 (Å)";
  MinimaDatabase::write(path, written, minima);

  DatabaseMetadata read;
  expectSameMinima(minima, MinimaDatabase::read(path, &read));
  EXPECT_EQ(read.potential, written.potential);
  EXPECT_EQ(read.energyUnit, written.energyUnit);
  EXPECT_EQ(read.lengthUnit, written.lengthUnit);
  EXPECT_EQ(read.atoms, written.atoms);
  EXPECT_EQ(read.program, written.program);
  EXPECT_EQ(read.createdBy, written.createdBy);
  EXPECT_EQ(MinimaDatabase::count(path), 5u);
  EXPECT_EQ(MinimaDatabase::readMetadata(path).atoms, 38u);
  EXPECT_FALSE(fs::exists(path + ".tmp")) << "the temporary file must be renamed away";
}

TEST(MinimaDatabaseTest, EmptyListAndEmptyStringsRoundTrip) {
  TemporaryDirectory directory;
  const std::string path = directory.file("empty.h5");
  DatabaseMetadata written = ljMetadata(13);
  written.potential = "";
  written.program = "";
  MinimaDatabase::write(path, written, {});
  DatabaseMetadata read;
  EXPECT_TRUE(MinimaDatabase::read(path, &read).empty());
  EXPECT_EQ(read.atoms, 13u);
  EXPECT_EQ(read.potential, "");
  EXPECT_EQ(read.program, "");
  EXPECT_EQ(MinimaDatabase::count(path), 0u);
}

TEST(MinimaDatabaseTest, LargeSystemRowsLargerThanAChunkRoundTrip) {
  TemporaryDirectory directory;
  const std::string path = directory.file("large.h5");
  const std::vector<StoredMinimum> minima = randomMinima(3, 7000, 11);  // 168 KB per row
  MinimaDatabase::write(path, ljMetadata(7000), minima);
  expectSameMinima(minima, MinimaDatabase::read(path));
}

TEST(MinimaDatabaseTest, WriteReplacesAnExistingFile) {
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  MinimaDatabase::write(path, ljMetadata(4), randomMinima(6, 4, 1));
  const std::vector<StoredMinimum> second = randomMinima(2, 4, 2);
  MinimaDatabase::write(path, ljMetadata(4), second);
  expectSameMinima(second, MinimaDatabase::read(path));
}

TEST(MinimaDatabaseTest, AppendExtendsTheDatasets) {
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  const std::vector<StoredMinimum> first = randomMinima(2, 5, 3);
  const std::vector<StoredMinimum> second = randomMinima(3, 5, 4);
  MinimaDatabase::append(path, ljMetadata(5), first);  // no file yet: same as write
  MinimaDatabase::append(path, ljMetadata(5), second);
  MinimaDatabase::append(path, ljMetadata(5), {});
  std::vector<StoredMinimum> all = first;
  all.insert(all.end(), second.begin(), second.end());
  expectSameMinima(all, MinimaDatabase::read(path));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(MinimaDatabaseTest, AppendRejectsADifferentSystem) {
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  const std::vector<StoredMinimum> first = randomMinima(2, 5, 3);
  MinimaDatabase::write(path, ljMetadata(5), first);
  DatabaseMetadata otherUnits = ljMetadata(5);
  otherUnits.energyUnit = "kcal/mol";
  const std::string message = messageOf<std::runtime_error>(
      [&] { MinimaDatabase::append(path, otherUnits, randomMinima(1, 5, 9)); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("energy_unit"), std::string::npos) << message;
  EXPECT_THROW(MinimaDatabase::append(path, ljMetadata(6), randomMinima(1, 6, 9)),
               std::runtime_error);
  expectSameMinima(first, MinimaDatabase::read(path));
}

TEST(MinimaDatabaseTest, WriteRejectsInconsistentInputAndKeepsTheOldFile) {
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  const std::vector<StoredMinimum> good = randomMinima(2, 5, 3);
  MinimaDatabase::write(path, ljMetadata(5), good);

  std::vector<StoredMinimum> bad = randomMinima(2, 5, 4);
  bad[1].coordinates.pop_back();
  const std::string message =
      messageOf<std::invalid_argument>([&] { MinimaDatabase::write(path, ljMetadata(5), bad); });
  EXPECT_NE(message.find("minimum 1 has 14 coordinates"), std::string::npos) << message;
  EXPECT_THROW(MinimaDatabase::write(path, ljMetadata(0), {}), std::invalid_argument);
  DatabaseMetadata noUnit = ljMetadata(5);
  noUnit.energyUnit.clear();
  EXPECT_THROW(MinimaDatabase::write(path, noUnit, good), std::invalid_argument);
  expectSameMinima(good, MinimaDatabase::read(path));
}

TEST(MinimaDatabaseTest, WriteIntoAMissingDirectoryThrowsNamingThePath) {
  TemporaryDirectory directory;
  const std::string path = directory.file("no-such-directory/minima.h5");
  const std::string message = messageOf<std::runtime_error>(
      [&] { MinimaDatabase::write(path, ljMetadata(5), randomMinima(1, 5, 1)); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(MinimaDatabaseTest, ReadingAMissingFileThrowsNamingThePath) {
  TemporaryDirectory directory;
  const std::string path = directory.file("absent.h5");
  const std::string message = messageOf<std::runtime_error>([&] { MinimaDatabase::read(path); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
}

TEST(MinimaDatabaseTest, ReadingANonHdf5FileThrowsNamingThePath) {
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  writeText(path, "          38\nEnergy of minimum      1=    -173.9284262\n");
  const std::string message = messageOf<std::runtime_error>([&] { MinimaDatabase::read(path); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("not an HDF5 file"), std::string::npos) << message;
}

TEST(MinimaDatabaseTest, ReadingAnUnknownSchemaVersionThrows) {
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  MinimaDatabase::write(path, ljMetadata(5), randomMinima(2, 5, 3));
  for (int version : {MinimaDatabase::kSchemaVersion + 1, 0}) {
    detail::overwriteSchemaVersion(path, version);
    const std::string message = messageOf<std::runtime_error>([&] { MinimaDatabase::read(path); });
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find("schema_version " + std::to_string(version)), std::string::npos)
        << message;
  }
  detail::overwriteSchemaVersion(path, MinimaDatabase::kSchemaVersion);
  EXPECT_EQ(MinimaDatabase::read(path).size(), 2u);
}

TEST(MinimaDatabaseTest, H5dumpReadsTheFile) {
  if (std::system("command -v h5dump >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "h5dump is not installed (Debian package hdf5-tools)";
  }
  TemporaryDirectory directory;
  const std::string path = directory.file("minima.h5");
  MinimaDatabase::write(path, ljMetadata(3), randomMinima(2, 3, 5));
  const std::string output = directory.file("h5dump.txt");
  const std::string command = "h5dump -H '" + path + "' > '" + output + "' 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << readText(output);
  const std::string header = readText(output);
  for (const char* expected :
       {"ATTRIBUTE \"schema_version\"", "GROUP \"minima\"", "DATASET \"coordinates\"",
        "( 2, 9 ) / ( H5S_UNLIMITED, 9 )", "DATASET \"function_calls\"", "H5T_STD_I64LE",
        "H5T_IEEE_F64LE", "ATTRIBUTE \"units\""}) {
    EXPECT_NE(header.find(expected), std::string::npos) << "missing " << expected << " in\n"
                                                        << header;
  }
}

// ---- lowest ----------------------------------------------------------------------------------

TEST(LowestFileTest, FortranGMatchesGfortran) {
  // Reference strings printed by gfortran 12 with FORMAT('[',G20.10,']').
  const std::vector<std::pair<double, std::string>> cases = {
      {-173.9284262, "    -173.9284262    "},  {0.05, "    0.5000000000E-01"},
      {0.0, "     0.000000000    "},           {1e10, "    0.1000000000E+11"},
      {-1.5e-120, "   -0.1500000000-119"},     {0.1, "    0.1000000000    "},
      {12345.678, "     12345.67800    "},     {9999999999.4, "     9999999999.    "},
      {0.09999999999, "    0.9999999999E-01"}, {0.099999999996, "    0.1000000000    "},
      {999.99999996, "     1000.000000    "},  {-0.5, "   -0.5000000000    "},
      {1e100, "    0.1000000000+101"},         {2.5e300, "    0.2500000000+301"},
  };
  for (const auto& [value, expected] : cases) {
    EXPECT_EQ(detail::fortranG(value, 20, 10), expected) << value;
  }
}

/// Reads the example's numbers with plain stream extraction, independently of readLowestFile.
std::vector<StoredMinimum> parseExampleIndependently(const std::vector<std::string>& lines) {
  std::vector<StoredMinimum> minima;
  std::size_t next = 0;
  while (next < lines.size()) {
    const std::size_t atoms = std::stoul(lines[next++]);
    StoredMinimum minimum;
    std::string energyLine = lines[next++];
    std::istringstream energy(energyLine.substr(energyLine.find('=') + 1));
    std::string word;
    energy >> minimum.energy >> word >> word >> word >> word >> minimum.firstFoundStep >> word >>
        minimum.functionCalls;
    for (std::size_t atom = 0; atom < atoms; ++atom) {
      std::istringstream fields(lines[next++]);
      double x = 0, y = 0, z = 0;
      fields >> word >> x >> y >> z;
      minimum.coordinates.insert(minimum.coordinates.end(), {x, y, z});
    }
    minima.push_back(minimum);
  }
  return minima;
}

TEST(LowestFileTest, FormatsGminsExampleCharacterForCharacter) {
  const std::optional<std::string> found = testDataPath("lj38/gmin/lowest");
  if (!found) {
    GTEST_SKIP() << "GMIN's LJ38 example output lj38/gmin/lowest is absent under "
                 << testDataRoot() << "; set LANDSCAPE_TEST_DATA to the test data folder";
  }
  const std::string path = *found;
  const std::string original = readText(path);
  const std::vector<std::string> originalLines = splitLines(original);
  const std::vector<StoredMinimum> minima = parseExampleIndependently(originalLines);
  ASSERT_EQ(minima.size(), 2u);
  EXPECT_EQ(minima[0].firstFoundStep, 108);
  EXPECT_EQ(minima[1].functionCalls, 127635);

  const std::string formatted = formatLowest(minima, "SI");
  const std::vector<std::string> formattedLines = splitLines(formatted);
  ASSERT_EQ(formattedLines.size(), originalLines.size());
  for (std::size_t i = 0; i < originalLines.size(); ++i) {
    ASSERT_EQ(formattedLines[i], originalLines[i]) << "line " << i + 1 << " of " << path;
  }
  EXPECT_EQ(formatted, original);
}

TEST(LowestFileTest, ReadsGminsExample) {
  const std::optional<std::string> found = testDataPath("lj38/gmin/lowest");
  if (!found) {
    GTEST_SKIP() << "GMIN's LJ38 example output lj38/gmin/lowest is absent under "
                 << testDataRoot() << "; set LANDSCAPE_TEST_DATA to the test data folder";
  }
  const std::string path = *found;
  std::vector<std::string> labels;
  const std::vector<StoredMinimum> minima = readLowestFile(path, &labels);
  ASSERT_EQ(minima.size(), 2u);
  EXPECT_DOUBLE_EQ(minima[0].energy, -173.9284262);
  EXPECT_EQ(minima[0].firstFoundStep, 108);
  EXPECT_EQ(minima[0].functionCalls, 14890);
  EXPECT_DOUBLE_EQ(minima[1].energy, -173.2523776);
  EXPECT_EQ(minima[1].firstFoundStep, 878);
  EXPECT_EQ(minima[1].functionCalls, 127635);
  ASSERT_EQ(minima[0].coordinates.size(), 114u);
  EXPECT_DOUBLE_EQ(minima[0].coordinates[0], 0.6299851998);
  EXPECT_DOUBLE_EQ(minima[1].coordinates[113], -0.1773107578);
  ASSERT_EQ(labels.size(), 38u);
  for (const std::string& label : labels) EXPECT_EQ(label, "SI");
  EXPECT_EQ(formatLowest(minima, "SI"), readText(path));
}

TEST(LowestFileTest, RoundTripWithTheDefaultLabel) {
  TemporaryDirectory directory;
  const std::string path = directory.file("lowest");
  std::vector<StoredMinimum> minima = randomMinima(3, 13, 21);
  minima[2].energy = 0.0123;  // printed in the E form of G20.10
  writeLowestFile(path, minima);
  EXPECT_FALSE(fs::exists(path + ".tmp"));

  std::vector<std::string> labels;
  const std::vector<StoredMinimum> read = readLowestFile(path, &labels);
  ASSERT_EQ(read.size(), minima.size());
  for (std::size_t i = 0; i < minima.size(); ++i) {
    // G20.10 keeps 10 significant digits; F20.10 keeps 10 decimals.
    EXPECT_NEAR(read[i].energy, minima[i].energy, 1e-9 * std::fabs(minima[i].energy));
    ASSERT_EQ(read[i].coordinates.size(), minima[i].coordinates.size());
    for (std::size_t k = 0; k < minima[i].coordinates.size(); ++k) {
      EXPECT_NEAR(read[i].coordinates[k], minima[i].coordinates[k], 5.01e-11);
    }
    EXPECT_EQ(read[i].firstFoundStep, minima[i].firstFoundStep);
    EXPECT_EQ(read[i].functionCalls, minima[i].functionCalls);
  }
  EXPECT_EQ(labels, std::vector<std::string>(13, "LA"));
  // What was read formats to the same text.
  EXPECT_EQ(formatLowest(read), readText(path));
}

TEST(LowestFileTest, ReadsGminsOlderFormatWithoutFunctionCalls) {
  TemporaryDirectory directory;
  const std::string path = directory.file("lowest");
  const std::string text =
      "       2\n"
      "Energy of minimum      1=  -1.000000000     first found at step        3\n"
      "LA        0.0000000000        0.0000000000        0.0000000000\n"
      "LA        1.1224620483        0.0000000000        0.0000000000\n"
      "\n";
  writeText(path, text);
  const std::vector<StoredMinimum> minima = readLowestFile(path);
  ASSERT_EQ(minima.size(), 1u);
  EXPECT_EQ(minima[0].energy, -1.0);
  EXPECT_EQ(minima[0].firstFoundStep, 3);
  EXPECT_EQ(minima[0].functionCalls, -1);
  EXPECT_EQ(minima[0].coordinates[3], 1.1224620483);
  const std::vector<std::string> lines = splitLines(formatLowest(minima));
  EXPECT_EQ(lines[1], "Energy of minimum      1=    -1.000000000     first found at step        3");
}

TEST(LowestFileTest, ParseErrorsNameTheFileAndLine) {
  TemporaryDirectory directory;
  const std::string path = directory.file("lowest");
  writeText(path,
            "          2\n"
            "Energy of minimum      1=    -1.000000000     first found at step        3 after  "
            "                 9 function calls\n"
            "LA        0.0000000000        0.0000000000        0.0000000000\n"
            "LA        1.1224620483        oops        0.0000000000\n");
  std::string message = messageOf<std::runtime_error>([&] { readLowestFile(path); });
  EXPECT_NE(message.find(path + ":4:"), std::string::npos) << message;

  writeText(path, "          2\nEnergy of minimum      1=    -1.000000000\n");
  message = messageOf<std::runtime_error>([&] { readLowestFile(path); });
  EXPECT_NE(message.find(path + ":2:"), std::string::npos) << message;

  writeText(path,
            "          2\nEnergy of minimum      1=    -1.0  first found at step 3\nLA 0 0 0\n");
  message = messageOf<std::runtime_error>([&] { readLowestFile(path); });
  EXPECT_NE(message.find("ends after 1 of the 2 atoms"), std::string::npos) << message;

  writeText(path, "two\n");
  message = messageOf<std::runtime_error>([&] { readLowestFile(path); });
  EXPECT_NE(message.find(path + ":1:"), std::string::npos) << message;

  message = messageOf<std::runtime_error>([&] { readLowestFile(directory.file("absent")); });
  EXPECT_NE(message.find(directory.file("absent")), std::string::npos) << message;
}

TEST(LowestFileTest, RejectsLabelsAndCoordinatesItCannotWrite) {
  std::vector<StoredMinimum> minima = randomMinima(1, 2, 1);
  EXPECT_THROW(formatLowest(minima, ""), std::invalid_argument);
  EXPECT_THROW(formatLowest(minima, "L A"), std::invalid_argument);
  EXPECT_EQ(splitLines(formatLowest(minima, "C"))[2].substr(0, 4), "C   ");
  minima[0].coordinates[4] = 1e12;
  EXPECT_THROW(formatLowest(minima), std::invalid_argument);
  minima[0].coordinates.pop_back();
  EXPECT_THROW(formatLowest(minima), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
