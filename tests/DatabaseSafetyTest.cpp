// The transition network is the user's most valuable file: one writer per database and output
// folder, a database only extended with its own system, and damaged files refused with the file
// and the record named (docs/database.md, docs/reliability.md). The loss cases compare the file's
// bytes (an FNV-1a checksum) before and after the refused run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "landscape/network/DatabaseCompatibility.h"
#include "src/common/OutputLock.h"
#include "tests/BackgroundProgram.h"
#include "tests/Lj7Structures.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;
using namespace cli_test;

std::string bytesOf(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// FNV-1a, 64 bits (Fowler, Noll and Vo): any changed byte changes it.
std::uint64_t checksum(const fs::path& p) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytesOf(p)) h = (h ^ c) * 1099511628211ull;
  return h;
}

void writeBytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

DatabaseMetadata ljMetadata(std::size_t atoms) {
  DatabaseMetadata m;
  m.potential = "Lennard-Jones " + std::to_string(atoms) + " atoms (cpu)";
  m.energyUnit = "reduced (epsilon)";
  m.lengthUnit = "reduced (sigma)";
  m.atoms = atoms;
  m.program = "gmin";
  return m;
}

// Two LJ7 minima and the transition state between them (energies of the test network, not
// physics: the readers check shapes, indices and checksums).
StoredTransitionNetwork lj7Network() {
  StoredTransitionNetwork n;
  n.minima.resize(2);
  n.minima[0].energy = -16.505384;
  n.minima[0].coordinates = lj7PentagonalBipyramid();
  n.minima[1].energy = -15.935043;
  n.minima[1].coordinates = lj7CappedOctahedron();
  StoredTransitionState ts;
  ts.energy = -15.4447338;
  ts.coordinates = lj7CappedOctahedron();
  ts.coordinates[0] += 0.1;
  ts.plusMinimum = 0;
  ts.minusMinimum = 1;
  n.transitionStates.push_back(ts);
  n.setA = {0};
  n.setB = {1};
  return n;
}

class DatabaseSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("landscape-dbsafe-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  static std::string gmin() {
    return program("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE);
  }
  static std::string optim() {
    return program("LANDSCAPE_OPTIM_EXECUTABLE", LANDSCAPE_OPTIM_EXECUTABLE);
  }
  static std::string pathsample() {
    return program("LANDSCAPE_PATHSAMPLE_EXECUTABLE", LANDSCAPE_PATHSAMPLE_EXECUTABLE);
  }
  ProgramRun run(const std::string& executable, const std::string& args) {
    return runProgram(m_dir, executable, args);
  }
  std::string at(const std::string& name) const { return (m_dir / name).string(); }
  // A refused run: exit status 1 and `piece` in its one-line error.
  static void expectRefused(const ProgramRun& r, const std::string& piece) {
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find(piece), std::string::npos) << "'" << piece << "' not in: " << r.err;
  }
  std::string holder(const std::string& program) const {
    return program + " (process " + std::to_string(::getpid()) + " on host ";
  }
  fs::path m_dir;
};

// ---- one writer ------------------------------------------------------------------------------

TEST_F(DatabaseSafety, ASecondWriterOfADatabaseIsRefusedNamingTheHolder) {
  const std::string path = at("net.h5");
  {
    const DatabaseLock first(path, "optim");
    EXPECT_TRUE(fs::exists(DatabaseLock::lockFileOf(path)));
    EXPECT_EQ(DatabaseLock::lockFileOf(path), fs::weakly_canonical(at(".net.h5.lock")).string());
    // The same file by a symbolic link from another folder: the same lock.
    writeBytes(path, "a network");
    fs::create_directories(m_dir / "elsewhere");
    fs::create_symlink(path, m_dir / "elsewhere/link.h5");
    EXPECT_THROW(DatabaseLock(at("elsewhere/link.h5"), "optim"), std::runtime_error);
    try {
      const DatabaseLock second(path, "pathsample import");
      ADD_FAILURE() << "two writers of one database";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("database " + path + " is in use by " + holder("optim")),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_NO_THROW(DatabaseLock(path, "gmin"));  // released with its holder
}

// Two optim runs with one --database and different --output: the second is refused at the start
// and the first run's network is untouched (it used to keep only the later writer's network).
TEST_F(DatabaseSafety, TwoOptimRunsOnOneDatabaseTheSecondIsRefused) {
  ASSERT_EQ(run(optim(), "--database net.h5 --output one --quiet").exitCode, 0);
  const std::uint64_t before = checksum(m_dir / "net.h5");
  {
    const DatabaseLock running(at("net.h5"), "optim");  // the first run, still writing
    expectRefused(run(optim(), "--database net.h5 --output two --quiet"),
                  "database net.h5 is in use by " + holder("optim"));
  }
  EXPECT_EQ(checksum(m_dir / "net.h5"), before);
  EXPECT_FALSE(fs::exists(m_dir / "two/path.info")) << "refused before any work";
}

// A real second process: optim --database on the minima.h5 of a gmin run still under way is
// refused naming gmin's process, and writes nothing there.
TEST_F(DatabaseSafety, OptimCannotWriteTheMinimaDatabaseOfARunningGmin) {
  Background job(m_dir, gmin(), {"--lj", "3000", "--steps", "5", "--output", "g"}, "gmin");
  ASSERT_TRUE(job.waitForOutput("gmin: Lennard-Jones 3000 atoms")) << job.err();
  const ProgramRun r = run(optim(), "--database g/minima.h5 --output o --quiet");
  expectRefused(r, "database g/minima.h5 is in use by gmin (process " + std::to_string(job.pid()) +
                       " on host ");
  EXPECT_FALSE(fs::exists(m_dir / "g/minima.h5"));
  job.stopWith(SIGKILL);
}

TEST_F(DatabaseSafety, PathsampleGrowAndImportTakeTheirLocks) {
  ASSERT_EQ(run(optim(), "--output o --quiet").exitCode, 0);
  const std::string grow = "grow --database o/network.h5 --temperature 0.1 --cycles 1 "
                           "--pair-selection dijkstra --output ";
  {
    const OutputLock running(at("busy"), "pathsample grow");
    expectRefused(run(pathsample(), grow + "busy"),
                  "busy is in use by " + holder("pathsample grow"));
  }
  EXPECT_FALSE(fs::exists(m_dir / "busy/network.h5"));
  // Another run's network in the output folder is not replaced by this growth.
  fs::create_directories(m_dir / "other");
  fs::copy_file(m_dir / "o/network.h5", m_dir / "other/network.h5");
  const std::uint64_t before = checksum(m_dir / "other/network.h5");
  expectRefused(run(pathsample(), grow + "other"), "other/network.h5 exists");
  EXPECT_EQ(checksum(m_dir / "other/network.h5"), before);
  // import writes --database: one writer.
  const std::optional<std::string> minData = testDataPath("lj38/pathsample/min.data");
  if (!minData) GTEST_SKIP() << "tests/data/lj38/pathsample not available";
  {
    const DatabaseLock running(at("imported.h5"), "optim");
    const std::string directory = fs::path(*minData).parent_path().string();
    expectRefused(run(pathsample(), "import --directory " + directory + " --database imported.h5"),
                  "database imported.h5 is in use by " + holder("optim"));
  }
  EXPECT_FALSE(fs::exists(m_dir / "imported.h5"));
}

// ---- only extended with its own system -------------------------------------------------------

// gmin's minima.h5, extended by optim --database, then gmin --resume: the transition states,
// endpoint sets and characterised minima optim added stay, row for row (gmin used to rewrite the
// file with its lowest minima alone).
TEST_F(DatabaseSafety, GminResumeKeepsTheTransitionStatesOptimAdded) {
  ASSERT_EQ(run(gmin(), "--lj 7 --steps 30 --seed 2 --quiet --output g").exitCode, 0);
  const ProgramRun o = run(optim(), "--database g/minima.h5 --output o --quiet");
  ASSERT_EQ(o.exitCode, 0) << o.err;
  const StoredTransitionNetwork extended = TransitionNetworkDatabase::read(at("g/minima.h5"));
  ASSERT_GE(extended.transitionStates.size(), 1u);
  const ProgramRun resumed = run(gmin(), "--lj 7 --steps 80 --seed 2 --quiet --resume g");
  ASSERT_EQ(resumed.exitCode, 0) << resumed.err;
  const StoredTransitionNetwork after = TransitionNetworkDatabase::read(at("g/minima.h5"));
  ASSERT_EQ(after.transitionStates.size(), extended.transitionStates.size());
  ASSERT_GE(after.minima.size(), extended.minima.size());
  for (std::size_t i = 0; i < extended.minima.size(); ++i) {
    EXPECT_EQ(after.minima[i].energy, extended.minima[i].energy) << "minimum " << i + 1;
    EXPECT_EQ(after.minima[i].coordinates, extended.minima[i].coordinates) << "minimum " << i + 1;
    EXPECT_EQ(after.minima[i].properties.pointGroupOrder,
              extended.minima[i].properties.pointGroupOrder);
  }
  for (std::size_t t = 0; t < extended.transitionStates.size(); ++t) {
    EXPECT_EQ(after.transitionStates[t].energy, extended.transitionStates[t].energy);
    EXPECT_EQ(after.transitionStates[t].coordinates, extended.transitionStates[t].coordinates);
    EXPECT_EQ(after.transitionStates[t].plusMinimum, extended.transitionStates[t].plusMinimum);
    EXPECT_EQ(after.transitionStates[t].minusMinimum, extended.transitionStates[t].minusMinimum);
  }
  EXPECT_EQ(after.setA, extended.setA);
  EXPECT_EQ(after.setB, extended.setB);
  // Every minimum of gmin's lowest list is in the file.
  EXPECT_EQ(MinimaDatabase::count(at("g/minima.h5")), after.minima.size());
}

// gmin into a folder whose minima.h5 holds another system's network (transition states added by
// optim): refused before the run, the file untouched.
TEST_F(DatabaseSafety, GminRefusesToReplaceAnotherSystemsNetwork) {
  fs::create_directories(m_dir / "g");
  DatabaseMetadata m = ljMetadata(7);
  TransitionNetworkDatabase::write(at("g/minima.h5"), m, lj7Network());
  const std::uint64_t before = checksum(m_dir / "g/minima.h5");
  expectRefused(run(gmin(), "--lj 13 --steps 5 --quiet --output g"), "another system's network");
  EXPECT_EQ(checksum(m_dir / "g/minima.h5"), before);
  EXPECT_FALSE(fs::exists(m_dir / "g/lowest")) << "refused before any work";
}

// optim into a folder that holds another system's network.h5: refused, the file untouched. The
// same system's network there is extended, never replaced.
TEST_F(DatabaseSafety, OptimRefusesAnotherSystemsNetworkInItsOutputFolder) {
  fs::create_directories(m_dir / "o");
  StoredMinimum lj13;
  lj13.energy = -44.326801;
  lj13.coordinates.assign(39, 0.0);
  for (std::size_t k = 0; k < 39; ++k) lj13.coordinates[k] = 0.37 * static_cast<double>(k % 7);
  MinimaDatabase::write(at("o/network.h5"), ljMetadata(13), {lj13});
  const std::uint64_t before = checksum(m_dir / "o/network.h5");
  expectRefused(run(optim(), "--output o --quiet"), "13-atom structures");
  EXPECT_EQ(checksum(m_dir / "o/network.h5"), before);

  ASSERT_EQ(run(optim(), "--output same --quiet").exitCode, 0);
  const StoredTransitionNetwork first = TransitionNetworkDatabase::read(at("same/network.h5"));
  ASSERT_EQ(run(optim(), "--output same --quiet").exitCode, 0);
  const StoredTransitionNetwork second = TransitionNetworkDatabase::read(at("same/network.h5"));
  ASSERT_GE(second.minima.size(), first.minima.size());
  for (std::size_t i = 0; i < first.minima.size(); ++i)
    EXPECT_EQ(second.minima[i].coordinates, first.minima[i].coordinates);
  EXPECT_EQ(second.transitionStates.size(), first.transitionStates.size());
}

TEST(DatabaseCompatibility, TheSameSystemOnlyWithItsAtomsUnitsAndPotential) {
  DatabaseMetadata stored = ljMetadata(7), run = ljMetadata(7);
  run.potential = "Lennard-Jones 7 atoms (cuda) with 1 rigid body";  // backend and rigid bodies
  EXPECT_EQ(databaseIncompatibility(stored, run), "");
  EXPECT_EQ(potentialIdentity(run.potential), "Lennard-Jones 7 atoms");
  stored.potential = "imported from PATHSAMPLE files in lj38";  // not one of ours: not compared
  EXPECT_EQ(databaseIncompatibility(stored, run), "");
  run.potential = "SOP 46 beads, 1 chains, 100 native contacts (cpu)";
  stored.potential = "AMBER GB igb=5 22 atoms (cpu)";
  EXPECT_NE(databaseIncompatibility(stored, run).find("potential"), std::string::npos);
  EXPECT_NE(databaseIncompatibility(ljMetadata(7), ljMetadata(13)).find("7-atom"),
            std::string::npos);
  DatabaseMetadata molecule = ljMetadata(7);
  molecule.energyUnit = "kcal/mol";
  EXPECT_NE(databaseIncompatibility(ljMetadata(7), molecule).find("kcal/mol"), std::string::npos);
}

// optim --resume o where o/network.h5 was replaced after the checkpoint by a grown network whose
// endpoint sets and growth pairs name minima beyond the checkpoint's count: refused with the file
// named (it used to read through an index cut to that count: heap-use-after-free under ASan).
TEST_F(DatabaseSafety, OptimResumeRefusesANetworkReplacedAfterItsCheckpoint) {
  ASSERT_EQ(run(optim(), "--output o --quiet").exitCode, 0);
  ASSERT_TRUE(fs::exists(m_dir / "o/connect.checkpoint"));
  DatabaseMetadata metadata;
  StoredTransitionNetwork grown = TransitionNetworkDatabase::read(at("o/network.h5"), &metadata);
  const int saved = static_cast<int>(grown.minima.size());
  for (int k = 0; k < 3; ++k) {  // three more minima, as a growth run adds them
    StoredNetworkMinimum m = grown.minima[0];
    m.energy += 0.5 + k;
    for (double& x : m.coordinates) x += 0.05 * (k + 1);
    grown.minima.push_back(m);
  }
  grown.setB.push_back(saved + 2);
  grown.growth.cycles = 2;
  grown.growth.settings = "pair-selection=dijkstra";
  grown.growth.triedPairs = {{0, saved + 1}, {saved, saved + 2}};
  TransitionNetworkDatabase::write(at("o/network.h5"), metadata, grown);
  const std::uint64_t before = checksum(m_dir / "o/network.h5");
  const ProgramRun r = run(optim(), "--resume o --quiet");
  expectRefused(r, "database 'o/network.h5'");
  EXPECT_NE(r.err.find("replaced after the checkpoint"), std::string::npos) << r.err;
  EXPECT_EQ(checksum(m_dir / "o/network.h5"), before);
}

// A stored coordinate of 1e300 (finite, but its squared distances are not): refused with the
// database, the minimum (1-based) and the coordinate, before the alignment meets it.
TEST_F(DatabaseSafety, AnAbsurdCoordinateIsReportedWithTheDatabase) {
  StoredTransitionNetwork n = lj7Network();
  n.minima[1].coordinates[0] = 1e300;
  DatabaseMetadata m = ljMetadata(7);
  m.program = "optim";
  TransitionNetworkDatabase::write(at("net.h5"), m, n);
  const std::uint64_t before = checksum(m_dir / "net.h5");
  const ProgramRun r = run(optim(), "--database net.h5 --output o --quiet");
  expectRefused(r, "database 'net.h5': minimum 2 has coordinate 1 = ");
  EXPECT_NE(r.err.find("a damaged file?"), std::string::npos) << r.err;
  EXPECT_EQ(checksum(m_dir / "net.h5"), before);
}

// ---- damaged files ---------------------------------------------------------------------------

// The position of the 8 bytes of `value` (little-endian float64) in `bytes`.
std::size_t findDouble(const std::string& bytes, double value) {
  std::string pattern(sizeof value, '\0');
  std::memcpy(pattern.data(), &value, sizeof value);
  return bytes.find(pattern);
}

std::string readError(const std::string& path) {
  try {
    TransitionNetworkDatabase::read(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST_F(DatabaseSafety, AChangedDigitInARecordIsAChecksumMismatchNamingTheDataset) {
  DatabaseMetadata m = ljMetadata(7);
  TransitionNetworkDatabase::write(at("net.h5"), m, lj7Network());
  const std::string intact = bytesOf(m_dir / "net.h5");
  ASSERT_NO_THROW(TransitionNetworkDatabase::read(at("net.h5")));
  struct Case {
    double value;
    const char* dataset;
  };
  for (const Case& c : {Case{-15.935043, "/minima/energy"},
                        Case{-15.4447338, "/transition_states/energy"},
                        Case{lj7PentagonalBipyramid()[3], "/minima/coordinates"}}) {
    const std::size_t at = findDouble(intact, c.value);
    ASSERT_NE(at, std::string::npos) << c.dataset;
    std::string damaged = intact;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x01);  // the last digit of the mantissa
    writeBytes(m_dir / "damaged.h5", damaged);
    const std::string error = readError((m_dir / "damaged.h5").string());
    EXPECT_NE(error.find("minima database '" + (m_dir / "damaged.h5").string() + "'"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find(std::string("dataset ") + c.dataset), std::string::npos) << error;
    EXPECT_NE(error.find("checksum mismatch"), std::string::npos) << error;
  }
}

TEST_F(DatabaseSafety, DamagedMetadataAndTruncationsAreRefusedNamingTheFile) {
  TransitionNetworkDatabase::write(at("net.h5"), ljMetadata(7), lj7Network());
  const std::string intact = bytesOf(m_dir / "net.h5");
  const std::string damagedPath = (m_dir / "damaged.h5").string();
  // An attribute's name inside a checksummed object header.
  const std::size_t name = intact.find("energy_unit");
  ASSERT_NE(name, std::string::npos);
  std::string damaged = intact;
  damaged[name + 2] = static_cast<char>(damaged[name + 2] ^ 0x20);
  writeBytes(damagedPath, damaged);
  std::string error = readError(damagedPath);
  EXPECT_NE(error.find("minima database '" + damagedPath + "'"), std::string::npos) << error;
  EXPECT_NE(error.find("checksum mismatch"), std::string::npos) << error;
  // Truncated anywhere: refused, naming the file.
  for (std::size_t length : {intact.size() - 1, intact.size() / 2, std::size_t{100}}) {
    writeBytes(damagedPath, intact.substr(0, length));
    error = readError(damagedPath);
    EXPECT_NE(error.find("minima database '" + damagedPath + "'"), std::string::npos)
        << length << ": " << error;
  }
}

// Files written before the checksums (HDF5's original format, no Fletcher32 filter) still read.
TEST(DatabaseOldFormat, AFileWithoutChecksumsStillReads) {
  const std::optional<std::string> path = testDataPath("database/lj7-network-unchecksummed.h5");
  if (!path) GTEST_SKIP() << "tests/data/database not available";
  DatabaseMetadata metadata;
  const StoredTransitionNetwork n = TransitionNetworkDatabase::read(*path, &metadata);
  EXPECT_EQ(metadata.atoms, 7u);
  ASSERT_EQ(n.minima.size(), 2u);
  ASSERT_EQ(n.transitionStates.size(), 1u);
  // The LJ7 pentagonal bipyramid, -16.505384 epsilon (Wales and Doye, J. Phys. Chem. A 1997).
  EXPECT_NEAR(n.minima[0].energy, -16.505384, 1e-6);
  EXPECT_EQ(n.transitionStates[0].plusMinimum, 0);
  EXPECT_EQ(n.transitionStates[0].minusMinimum, 1);
}

// Extending such a file rewrites it with the checksums: optim --database on it, then a changed
// digit in one of its first minimum's energy is a checksum mismatch.
TEST_F(DatabaseSafety, ExtendingAFileWithoutChecksumsWritesThem) {
  const std::optional<std::string> old = testDataPath("database/lj7-network-unchecksummed.h5");
  if (!old) GTEST_SKIP() << "tests/data/database not available";
  fs::copy_file(*old, m_dir / "net.h5");
  const ProgramRun r = run(optim(), "--database net.h5 --output o --quiet");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string bytes = bytesOf(m_dir / "net.h5");
  const std::size_t at = findDouble(bytes, -15.935043);
  ASSERT_NE(at, std::string::npos);
  std::string damaged = bytes;
  damaged[at] = static_cast<char>(damaged[at] ^ 0x01);
  writeBytes(m_dir / "damaged.h5", damaged);
  const std::string error = readError((m_dir / "damaged.h5").string());
  EXPECT_NE(error.find("checksum mismatch"), std::string::npos) << error;
}

}  // namespace
}  // namespace landscape
