// PATHSAMPLE and OPTIM files (landscape/PathsampleExport): the wales-group LJ38 example files are
// parsed and re-formatted byte for byte, written files read back equal, and the characterisation
// (landscape/Characterisation: log product, point-group order, moments of inertia) reproduces the
// columns of the example's min.data and ts.data from its points.min and points.ts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/formats/PathsampleKineticsFiles.h"
#include "landscape/paths/Characterisation.h"
#include "potentials/LennardJones.h"
#include "tests/Lj7Structures.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    m_path = fs::temp_directory_path() / ("landscape-pathsample-" + std::to_string(::getpid()) +
                                          "-" + std::to_string(counter++));
    fs::create_directories(m_path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  std::string file(const std::string& name) const { return (m_path / name).string(); }
  std::string path() const { return m_path.string(); }

 private:
  fs::path m_path;
};

// Two LJ7 minima and a made-up "transition state" between them, characterised for real.
StoredTransitionNetwork lj7Network() {
  LennardJones lj(7);
  StoredTransitionNetwork network;
  for (const std::vector<double>& x : {lj7PentagonalBipyramid(), lj7CappedOctahedron()}) {
    StoredNetworkMinimum m;
    m.coordinates = x;
    m.energy = lj.energy(x.data());
    m.properties = characterise(lj, x);
    network.minima.push_back(m);
  }
  StoredTransitionState ts;
  ts.coordinates = network.minima[0].coordinates;
  for (std::size_t i = 0; i < ts.coordinates.size(); ++i) {
    ts.coordinates[i] = 0.5 * (ts.coordinates[i] + network.minima[1].coordinates[i]);
  }
  ts.energy = lj.energy(ts.coordinates.data());
  ts.plusMinimum = 1;
  ts.minusMinimum = 0;
  ts.eigenvalue = -1.5;
  ts.properties = characterise(lj, ts.coordinates);
  network.transitionStates.push_back(ts);
  return network;
}

TEST(PathsampleExport, ReformatsTheExampleMinDataAndTsDataByteForByte) {
  const auto minData = testDataPath("lj38/pathsample/min.data");
  const auto tsData = testDataPath("lj38/pathsample/ts.data");
  if (!minData || !tsData) GTEST_SKIP() << "tests/data/lj38/pathsample not found";
  const std::vector<StoredNetworkMinimum> minima = readMinData(*minData);
  const std::vector<StoredTransitionState> states = readTsData(*tsData);
  ASSERT_EQ(minima.size(), 12u);
  ASSERT_EQ(states.size(), 11u);
  EXPECT_EQ(minima[1].properties.pointGroupOrder, 48);
  EXPECT_DOUBLE_EQ(minima[1].energy, -173.928426590627964);
  EXPECT_EQ(states[0].plusMinimum, 0);  // 1-based in the file
  EXPECT_EQ(states[0].minusMinimum, 1);
  EXPECT_EQ(formatMinData(minima), readWholeFile(*minData, "min.data"));
  EXPECT_EQ(formatTsData(states), readWholeFile(*tsData, "ts.data"));
}

TEST(PathsampleExport, ReformatsTheExamplePathInfoByteForByte) {
  const auto pathInfo = testDataPath("lj38/optim/path.info");
  if (!pathInfo) GTEST_SKIP() << "tests/data/lj38/optim/path.info not found";
  const std::vector<PathInfoPoint> points = readPathInfo(*pathInfo, 38);
  ASSERT_EQ(points.size(), 39u);  // 13 min-ts-min triples
  EXPECT_EQ(points[2].pointGroupOrder, 48);
  EXPECT_EQ(points[2].pointGroupLabel, "O h");
  EXPECT_EQ(points[0].hessianEigenvalues.size(), 114u);
  EXPECT_GT(points[0].hessianEigenvalues.front(), points[0].hessianEigenvalues.back());
  EXPECT_LT(points[1].hessianEigenvalues.back(), -1.0);  // the transition state's
  EXPECT_EQ(formatPathInfo(points), readWholeFile(*pathInfo, "path.info"));
}

TEST(PathsampleExport, CharacterisationReproducesTheExampleColumns) {
  const auto dir = testDataPath("lj38/pathsample/min.data");
  if (!dir) GTEST_SKIP() << "tests/data/lj38/pathsample not found";
  const std::string root = fs::path(*dir).parent_path().string();
  const StoredTransitionNetwork example = readPathsampleFiles(root, 38);
  LennardJones lj(38);
  auto compare = [&](const std::vector<double>& x, const StationaryPointProperties& expected,
                     const std::string& what) {
    const StationaryPointProperties p = characterise(lj, x);
    EXPECT_EQ(p.pointGroupOrder, expected.pointGroupOrder) << what;
    // PATHSAMPLE's log products come from OPTIM's analytic Hessian; ours from finite differences.
    EXPECT_NEAR(p.logProductOfPositiveEigenvalues, expected.logProductOfPositiveEigenvalues, 1e-4)
        << what;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(p.principalMoments[k], expected.principalMoments[k], 2e-10) << what;
    }
    ASSERT_EQ(p.hessianEigenvalues.size(), 114u);
  };
  for (std::size_t i = 0; i < example.minima.size(); ++i) {
    compare(example.minima[i].coordinates, example.minima[i].properties,
            "minimum " + std::to_string(i + 1));
  }
  for (std::size_t i = 0; i < example.transitionStates.size(); ++i) {
    compare(example.transitionStates[i].coordinates, example.transitionStates[i].properties,
            "transition state " + std::to_string(i + 1));
  }
}

TEST(PathsampleExport, ExamplePointsFilesAreRecordsOf3NDoubles) {
  const auto points = testDataPath("lj38/pathsample/points.min");
  if (!points) GTEST_SKIP() << "tests/data/lj38/pathsample not found";
  const std::vector<std::vector<double>> records = readPoints(*points, 114);
  ASSERT_EQ(records.size(), 12u);
  LennardJones lj(38);
  EXPECT_NEAR(lj.energy(records[1].data()), -173.928426590627964, 1e-9);
  EXPECT_THROW(readPoints(*points, 115), std::runtime_error);
}

TEST(PathsampleExport, WrittenFilesReadBackEqual) {
  const StoredTransitionNetwork network = lj7Network();
  TempDir dir;
  writePathsampleFiles(dir.path(), network);
  const StoredTransitionNetwork back = readPathsampleFiles(dir.path(), 7);
  ASSERT_EQ(back.minima.size(), 2u);
  ASSERT_EQ(back.transitionStates.size(), 1u);
  for (std::size_t i = 0; i < 2; ++i) {
    const StoredNetworkMinimum &a = network.minima[i], &b = back.minima[i];
    EXPECT_EQ(a.coordinates, b.coordinates);  // binary: exact
    EXPECT_NEAR(a.energy, b.energy, 1e-14);   // F25.15
    EXPECT_NEAR(a.properties.logProductOfPositiveEigenvalues,
                b.properties.logProductOfPositiveEigenvalues, 1e-14);
    EXPECT_EQ(a.properties.pointGroupOrder, b.properties.pointGroupOrder);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(a.properties.principalMoments[k], b.properties.principalMoments[k], 1e-10);
    }
  }
  EXPECT_EQ(back.minima[0].properties.pointGroupOrder, 20);  // D5h
  const StoredTransitionState &a = network.transitionStates[0], &b = back.transitionStates[0];
  EXPECT_EQ(b.plusMinimum, 1);
  EXPECT_EQ(b.minusMinimum, 0);
  EXPECT_EQ(a.coordinates, b.coordinates);
  EXPECT_NEAR(a.energy, b.energy, 1e-14);
  EXPECT_TRUE(std::isnan(b.eigenvalue));  // ts.data does not carry it
  // Writing what was read gives the same text again.
  TempDir again;
  writePathsampleFiles(again.path(), back);
  for (const char* name : {"min.data", "ts.data", "points.min", "points.ts"}) {
    EXPECT_EQ(readWholeFile(dir.file(name), name), readWholeFile(again.file(name), name)) << name;
  }
}

TEST(PathsampleExport, UnknownValuesAreWrittenAsNofrqsExpects) {
  StoredTransitionNetwork network = lj7Network();
  network.minima[0].properties = StationaryPointProperties{};
  const std::string text = formatMinData({network.minima[0]});
  // log product 0, order 1, moments 0.
  EXPECT_EQ(text.substr(25, 25), "        0.000000000000000");
  EXPECT_EQ(text.substr(50, 6), "     1");
  EXPECT_EQ(text.substr(56, 20), "        0.0000000000");
}

TEST(PathsampleExport, PathInfoTriplesRoundTrip) {
  const StoredTransitionNetwork network = lj7Network();
  const std::vector<PathInfoPoint> points = pathInfoTriples(network, {0});
  ASSERT_EQ(points.size(), 3u);
  EXPECT_DOUBLE_EQ(points[0].energy, network.minima[1].energy);  // plus side first
  EXPECT_DOUBLE_EQ(points[2].energy, network.minima[0].energy);
  EXPECT_EQ(points[2].pointGroupLabel, "D5h");
  EXPECT_EQ(points[2].pointGroupOrder, 20);
  ASSERT_EQ(points[1].hessianEigenvalues.size(), 21u);
  EXPECT_GE(points[1].hessianEigenvalues.front(), points[1].hessianEigenvalues.back());
  TempDir dir;
  writeFileAtomically(dir.file("path.info"), formatPathInfo(points), "path.info");
  const std::vector<PathInfoPoint> back = readPathInfo(dir.file("path.info"), 7);
  ASSERT_EQ(back.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(back[i].energy, points[i].energy, 1e-14);
    EXPECT_EQ(back[i].pointGroupOrder, points[i].pointGroupOrder);
    EXPECT_EQ(back[i].pointGroupLabel, points[i].pointGroupLabel);
    ASSERT_EQ(back[i].coordinates.size(), 21u);
    for (std::size_t k = 0; k < 21; ++k) {
      EXPECT_NEAR(back[i].coordinates[k], points[i].coordinates[k], 1e-14);
      // G20.10: ten significant digits.
      EXPECT_NEAR(back[i].hessianEigenvalues[k], points[i].hessianEigenvalues[k],
                  1e-9 * std::max(1.0, std::abs(points[i].hessianEigenvalues[k])));
    }
  }
  // Without Hessians (NOFRQS): no eigenvalue lines, and the reader tells the layouts apart.
  std::vector<PathInfoPoint> bare = points;
  for (PathInfoPoint& p : bare) p.hessianEigenvalues.clear();
  writeFileAtomically(dir.file("bare.info"), formatPathInfo(bare), "path.info");
  const std::vector<PathInfoPoint> bareBack = readPathInfo(dir.file("bare.info"), 7);
  ASSERT_EQ(bareBack.size(), 3u);
  EXPECT_TRUE(bareBack[1].hessianEigenvalues.empty());
  EXPECT_THROW(pathInfoTriples(network, {1}), std::invalid_argument);
}

TEST(PathsampleExport, OptimSpellingOfPointGroups) {
  EXPECT_EQ(optimPointGroupLabel("Oh"), "O h");
  EXPECT_EQ(optimPointGroupLabel("Cs"), "C s");
  EXPECT_EQ(optimPointGroupLabel("Ih"), "I h");
  EXPECT_EQ(optimPointGroupLabel("C1"), "C1");
  EXPECT_EQ(optimPointGroupLabel("C5v"), "C5v");
  EXPECT_EQ(optimPointGroupLabel("D5h"), "D5h");
}

TEST(PathsampleExport, ReadersNameFileAndLine) {
  TempDir dir;
  writeFileAtomically(dir.file("min.data"), "  -1.0 2.0 1 3 4 5\n  -1.0 x 1 3 4 5\n", "min.data");
  try {
    readMinData(dir.file("min.data"));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("min.data:2: expected a number for the log product"),
              std::string::npos)
        << e.what();
  }
  writeFileAtomically(dir.file("ts.data"), "  -1.0 2.0 1 0 1 3 4 5\n", "ts.data");
  EXPECT_THROW(readTsData(dir.file("ts.data")), std::runtime_error);  // minima are 1-based
  writeFileAtomically(dir.file("path.info"), "  -1.0\n     1 C1\n  1 2 3\n", "path.info");
  EXPECT_THROW(readPathInfo(dir.file("path.info"), 2), std::runtime_error);
  EXPECT_THROW(readMinData(dir.file("missing")), std::runtime_error);
  StoredTransitionNetwork network = lj7Network();
  network.transitionStates[0].plusMinimum = 5;
  EXPECT_THROW(writePathsampleFiles(dir.path(), network), std::invalid_argument);
}

// The NGT.rates files in Fortran's G20.10E4, as PATHSAMPLE wrote them for the wales-group
// Kinetics/MFPT example (tests/data/kinetics/9comm/expected_output): its strings, character for
// character.
TEST(PathsampleKineticsFiles, RatesColumnsAreFortranG20_10E4AsPathsampleWritesThem) {
  EXPECT_EQ(detail::fortranGE4(1.0, 20, 10), "   1.000000000      ");
  EXPECT_EQ(detail::fortranGE4(0.1329748539E-11, 20, 10), "  0.1329748539E-0011");
  EXPECT_EQ(detail::fortranGE4(0.7360803384E-02, 20, 10), "  0.7360803384E-0002");
  EXPECT_EQ(detail::fortranGE4(0.7520218829E+12, 20, 10), "  0.7520218829E+0012");
  EXPECT_EQ(detail::fortranGE4(-0.25, 20, 10), " -0.2500000000      ");
  EXPECT_EQ(detail::fortranGE4(0.0, 20, 10), "   0.000000000      ");
  const std::string expected = testDataRoot() + "/kinetics/9comm/expected_output";
  if (!fs::exists(expected + "/NGT.rates.new")) GTEST_SKIP() << expected << " missing";
  std::ifstream in(expected + "/NGT.rates.new");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(formatPassageRatesFile({{1.0, 0.1329748539E-11, 0.3229297774E-11, 0.7520218829E+12,
                                     0.3096648467E+12}}),
            text.str());
}

// A kinetics-only network's files: min.data, ts.data, min.A, min.B and no points files.
TEST(PathsampleExport, KineticsOnlyFilesHaveNoPoints) {
  TempDir dir;
  StoredTransitionNetwork n;
  for (double e : {1.0, 2.0, 3.0}) {
    StoredNetworkMinimum m;
    m.energy = e;
    m.properties.logProductOfPositiveEigenvalues = 1.0;
    m.properties.pointGroupOrder = 1;
    n.minima.push_back(m);
  }
  StoredTransitionState ts;
  ts.energy = 4.0;
  ts.plusMinimum = 0;
  ts.minusMinimum = 2;
  ts.properties.logProductOfPositiveEigenvalues = 1.0;
  ts.properties.pointGroupOrder = 1;
  n.transitionStates.push_back(ts);
  n.setA = {0};
  n.setB = {2};
  writePathsampleKineticsFiles(dir.path(), n);
  EXPECT_FALSE(fs::exists(fs::path(dir.path()) / "points.min"));
  EXPECT_EQ(readMinData(dir.path() + "/min.data").size(), 3u);
  const std::vector<StoredTransitionState> back = readTsData(dir.path() + "/ts.data", 3);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].minusMinimum, 2);
  EXPECT_EQ(readEndpointSet(dir.path() + "/min.B", 3), std::vector<int>{2});
  // ts.data naming a minimum beyond min.data: file and line.
  try {
    readTsData(dir.path() + "/ts.data", 2);
    ADD_FAILURE() << "minimum 3 of 2 accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("ts.data:1: minimum 3 is beyond min.data's 2 minima"),
              std::string::npos) << e.what();
  }
  n.transitionStates[0].minusMinimum = 5;
  EXPECT_THROW(writePathsampleKineticsFiles(dir.path(), n), std::invalid_argument);
}

}  // namespace
}  // namespace landscape
