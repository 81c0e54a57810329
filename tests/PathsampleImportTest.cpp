// PATHSAMPLE database <-> network.h5 (landscape/formats/PathsampleExport, landscape/network/Database):
// the wales-group LJ38 databases (tests/data/lj38/pathsample, .../pathsample-untrap/input and
// expected_output) are imported into HDF5 and exported again byte for byte, endpoint sets
// included; the readers reject bad input naming file, line and field.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "landscape/formats/PathsampleExport.h"
#include "landscape/network/Database.h"
#include "landscape/network/KineticsOnlyDatabase.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    m_path = fs::temp_directory_path() /
             ("landscape-ps-import-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(m_path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  std::string file(const std::string& name) const { return (m_path / name).string(); }
  std::string path() const { return m_path.string(); }

 private:
  fs::path m_path;
};

std::string bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

void expectByteForByteRoundTrip(const std::string& relative, bool hasEndpoints) {
  const std::string source = testDataRoot() + "/" + relative;
  if (!fs::exists(source + "/min.data")) GTEST_SKIP() << source << " missing";
  ScratchDir scratch;
  const std::size_t atoms = pathsampleAtomCount(source);
  EXPECT_EQ(atoms, 38u);
  DatabaseMetadata metadata;
  metadata.atoms = atoms;
  metadata.energyUnit = "reduced (epsilon)";
  metadata.lengthUnit = "reduced (sigma)";
  metadata.potential = "lj";
  metadata.program = "pathsample";
  TransitionNetworkDatabase::write(scratch.file("network.h5"), metadata,
                                   readPathsampleFiles(source, atoms));
  const StoredTransitionNetwork stored = TransitionNetworkDatabase::read(scratch.file("network.h5"));
  EXPECT_EQ(!stored.setA.empty(), hasEndpoints);
  writePathsampleFiles(scratch.file("out"), stored);
  std::vector<std::string> files = {"min.data", "ts.data", "points.min", "points.ts"};
  if (hasEndpoints) files.insert(files.end(), {"min.A", "min.B"});
  for (const std::string& name : files) {
    const std::string original = bytes(source + "/" + name);
    ASSERT_FALSE(original.empty()) << name;
    EXPECT_TRUE(original == bytes(scratch.file("out/" + name))) << relative << "/" << name;
  }
  EXPECT_EQ(fs::exists(scratch.file("out/min.A")), hasEndpoints);
}

TEST(PathsampleImport, Lj38InitialDatabaseRoundTripsByteForByte) {
  expectByteForByteRoundTrip("lj38/pathsample", false);
}

TEST(PathsampleImport, Lj38UntrapInputRoundTripsByteForByte) {
  expectByteForByteRoundTrip("lj38/pathsample-untrap/input", true);
}

TEST(PathsampleImport, Lj38GrownDatabaseRoundTripsByteForByte) {
  expectByteForByteRoundTrip("lj38/pathsample-untrap/expected_output", true);
}

TEST(PathsampleImport, EndpointSetsParseAndFormat) {
  ScratchDir scratch;
  writeText(scratch.file("min.A"), "2\n 3 1\n");
  EXPECT_EQ(readEndpointSet(scratch.file("min.A"), 5), (std::vector<int>{2, 0}));
  EXPECT_EQ(formatEndpointSet({1}), "         1\n         2\n");
}

void expectError(const std::string& path, const std::string& fragment,
                 const std::function<void()>& read) {
  try {
    read();
    ADD_FAILURE() << "no error for " << path;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(PathsampleImport, RejectsBadInputNamingFileLineAndField) {
  ScratchDir scratch;
  const std::string good = "  -1.0  2.0  1  1.0 1.0 1.0\n";
  writeText(scratch.file("inf.data"), good + "  -1.0  Infinity  1  1.0 1.0 1.0\n");
  expectError(scratch.file("inf.data"), ":2: expected a finite number", [&] {
    readMinData(scratch.file("inf.data"));
  });
  writeText(scratch.file("overflow.data"), good + "  -1.0D400  2.0  1  1.0 1.0 1.0\n");
  expectError(scratch.file("overflow.data"), ":2: expected a finite number (no inf, nan or overflow) for the energy", [&] {
    readMinData(scratch.file("overflow.data"));
  });
  writeText(scratch.file("order.data"), "  -1.0  2.0  0  1.0 1.0 1.0\n");
  expectError(scratch.file("order.data"), ":1: expected an integer >= 1 for the point-group order",
              [&] { readMinData(scratch.file("order.data")); });
  writeText(scratch.file("ts.data"), "  -1.0  2.0  1  1  99999999999  1.0 1.0 1.0\n");
  expectError(scratch.file("ts.data"), ":1: expected an integer >= 1 for the second minimum",
              [&] { readTsData(scratch.file("ts.data")); });
  writeText(scratch.file("min.B"), "2\n 1\n");
  expectError(scratch.file("min.B"), "the count says 2 minima, but 1 follow",
              [&] { readEndpointSet(scratch.file("min.B"), 4); });
  writeText(scratch.file("min.A"), "1\n 7\n");
  expectError(scratch.file("min.A"), ":2: minimum 7 is beyond min.data's 4 minima",
              [&] { readEndpointSet(scratch.file("min.A"), 4); });
  writeText(scratch.file("twice.A"), "2\n 3\n 3\n");
  expectError(scratch.file("twice.A"), ":3: minimum 3 is listed twice",
              [&] { readEndpointSet(scratch.file("twice.A"), 4); });
  const double nan = std::nan("");
  writeText(scratch.file("points.bin"), std::string(reinterpret_cast<const char*>(&nan), 8) +
                                            std::string(16, '\0'));
  expectError(scratch.file("points.bin"), "record 1 (byte offset 0), coordinate 1 is not finite",
              [&] { readPoints(scratch.file("points.bin"), 3); });
}

// A kinetics-only network (PATHSAMPLE's NOPOINTS, the 9-community example) in network.h5's layout:
// written and read back equal, recognised by holdsOne, refused by the readers of coordinates, and a
// database with coordinates is not taken for one.
TEST(KineticsOnlyDatabase, NineCommunityNetworkRoundTrips) {
  const std::string source = testDataRoot() + "/kinetics/9comm";
  if (!fs::exists(source + "/min.data")) GTEST_SKIP() << source << " missing";
  ScratchDir scratch;
  StoredTransitionNetwork n;
  n.minima = readMinData(source + "/min.data");
  n.transitionStates = readTsData(source + "/ts.data", n.minima.size());
  n.setA = readEndpointSet(source + "/min.A", n.minima.size());
  n.setB = readEndpointSet(source + "/min.B", n.minima.size());
  DatabaseMetadata metadata;
  metadata.atoms = 0;
  metadata.energyUnit = "reduced (epsilon)";
  metadata.lengthUnit = "reduced (sigma)";
  metadata.program = "pathsample";
  const std::string db = scratch.file("k.h5");
  KineticsOnlyDatabase::write(db, metadata, n);
  EXPECT_TRUE(KineticsOnlyDatabase::holdsOne(db));
  DatabaseMetadata back;
  const StoredTransitionNetwork r = KineticsOnlyDatabase::read(db, &back);
  EXPECT_EQ(back.atoms, 0u);
  EXPECT_EQ(back.energyUnit, metadata.energyUnit);
  ASSERT_EQ(r.minima.size(), 994u);
  ASSERT_EQ(r.transitionStates.size(), 4320u);
  for (std::size_t i = 0; i < r.minima.size(); ++i) {
    EXPECT_EQ(r.minima[i].energy, n.minima[i].energy);
    EXPECT_EQ(r.minima[i].properties.logProductOfPositiveEigenvalues,
              n.minima[i].properties.logProductOfPositiveEigenvalues);
    EXPECT_EQ(r.minima[i].properties.pointGroupOrder, n.minima[i].properties.pointGroupOrder);
    EXPECT_TRUE(r.minima[i].coordinates.empty());
  }
  for (std::size_t i = 0; i < r.transitionStates.size(); ++i) {
    EXPECT_EQ(r.transitionStates[i].energy, n.transitionStates[i].energy);
    EXPECT_EQ(r.transitionStates[i].plusMinimum, n.transitionStates[i].plusMinimum);
    EXPECT_EQ(r.transitionStates[i].minusMinimum, n.transitionStates[i].minusMinimum);
  }
  EXPECT_EQ(r.setA, n.setA);
  EXPECT_EQ(r.setB, n.setB);
  // The readers of coordinates refuse it at its atoms attribute.
  try {
    TransitionNetworkDatabase::read(db);
    ADD_FAILURE() << "a kinetics-only file read as a network with coordinates";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("atoms"), std::string::npos) << e.what();
  }
  // Coordinates or atoms != 0 are refused on write; other files are not kinetics-only ones.
  metadata.atoms = 3;
  EXPECT_THROW(KineticsOnlyDatabase::write(scratch.file("bad.h5"), metadata, n),
               std::invalid_argument);
  metadata.atoms = 0;
  n.transitionStates[0].minusMinimum = 994;
  EXPECT_THROW(KineticsOnlyDatabase::write(scratch.file("bad.h5"), metadata, n),
               std::invalid_argument);
  EXPECT_FALSE(fs::exists(scratch.file("bad.h5")));
  EXPECT_FALSE(KineticsOnlyDatabase::holdsOne(scratch.file("missing.h5")));
  EXPECT_FALSE(KineticsOnlyDatabase::holdsOne(source + "/min.data"));
}

}  // namespace
}  // namespace landscape
