// The gmin executable end to end: output files, reproducibility, and clear one-line errors with a
// non-zero exit on bad input.
#include <gtest/gtest.h>

#include <atomic>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/GpuDevice.h"
#include "landscape/formats/LowestFile.h"
#include "landscape/network/Database.h"
#include "potentials/LennardJones.h"
#include "src/gmin/GminSystem.h"
#include "src/gmin/GminOptions.h"
#include "tests/SameMinima.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;

struct GminRun {
  int exitCode;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class GminCli : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    m_dir = fs::temp_directory_path() /
            ("landscape-gmin-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  // The executable built beside the tests; $LANDSCAPE_GMIN_EXECUTABLE overrides it when the build
  // tree has moved (e.g. a copy run on the GPU machine).
  static std::string executable() {
    const char* env = std::getenv("LANDSCAPE_GMIN_EXECUTABLE");
    return env && *env ? env : LANDSCAPE_GMIN_EXECUTABLE;
  }
  void expectDefaultJobReachesTheGlobalMinimum(int seed);
  void expectKilledRunResumesToTheSameResults(const std::string& args);
  GminRun gmin(const std::string& args, const std::string& launcher = "") {
    const fs::path out = m_dir / "stdout.txt", err = m_dir / "stderr.txt";
    const std::string command = "cd '" + m_dir.string() + "' && " + launcher + "'" + executable() + "' " +
                                args + " > '" + out.string() + "' 2> '" + err.string() + "'";
    const int status = std::system(command.c_str());
    return {WEXITSTATUS(status), slurp(out), slurp(err)};
  }
  fs::path file(const std::string& name, const std::string& content) {
    const fs::path p = m_dir / name;
    std::ofstream(p) << content;
    return p;
  }
  fs::path m_dir;
};

std::string lastLine(const std::string& text) {
  std::string s = text;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s.substr(s.rfind('\n') + 1);
}

TEST_F(GminCli, WritesLowestAndMinimaDatabaseAndEndsWithTheLowestEnergy) {
  const GminRun r = gmin("--lj 13 --walkers 1 --steps 200 --seed 3 --output res");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out).rfind("lowest energy: -44.32", 0), 0u) << lastLine(r.out);
  const std::vector<StoredMinimum> lowest = readLowestFile((m_dir / "res/lowest").string());
  DatabaseMetadata meta;
  const std::vector<StoredMinimum> db = MinimaDatabase::read((m_dir / "res/minima.h5").string(), &meta);
  ASSERT_EQ(lowest.size(), 2u);  // SAVE 2 of the LJ38 example defaults
  ASSERT_EQ(db.size(), lowest.size());
  EXPECT_EQ(meta.atoms, 13u);
  EXPECT_EQ(meta.program, "gmin");
  EXPECT_NEAR(db[0].energy, -44.326801, 1e-5);
  EXPECT_NEAR(lowest[0].energy, db[0].energy, 1e-7);  // `lowest` prints 10 significant digits
  EXPECT_LT(db[0].energy, db[1].energy);
  EXPECT_GT(db[0].functionCalls, 0);
  // One progress line per quench: quenches 0..200.
  EXPECT_NE(r.out.find("Qu      200 E="), std::string::npos);
}

TEST_F(GminCli, Lj13GlobalMinimumWithin300StepsForTenSeeds) {
  for (int seed = 1; seed <= 10; ++seed) {
    const GminRun r = gmin("--lj 13 --steps 300 --tight-rms 1e-6 --quiet --seed " + std::to_string(seed));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string line = lastLine(r.out);
    ASSERT_EQ(line.rfind("lowest energy: ", 0), 0u) << line;
    EXPECT_NEAR(std::stod(line.substr(15)), -44.326801, 1e-5) << "seed " << seed;
  }
}

TEST_F(GminCli, SameSeedTwiceGivesIdenticalLowestFiles) {
  ASSERT_EQ(gmin("--lj 19 --steps 150 --seed 11 --quiet --output a").exitCode, 0);
  ASSERT_EQ(gmin("--lj 19 --steps 150 --seed 11 --quiet --output b").exitCode, 0);
  ASSERT_EQ(gmin("--lj 19 --steps 150 --seed 12 --quiet --output c").exitCode, 0);
  const std::string a = slurp(m_dir / "a/lowest"), b = slurp(m_dir / "b/lowest");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, slurp(m_dir / "c/lowest")) << "a different seed should give a different run";
}

// The Langevin move is selectable and reproducible (same seed, same lowest file).
TEST_F(GminCli, LangevinMoveRunsAndIsReproducible) {
  const std::string args = "--lj 13 --steps 30 --step-size 0 --angular-threshold 0 --langevin-steps 200 "
                           "--langevin-kt 0.5 --langevin-dt 0.001 --quiet --seed 3 --output ";
  const GminRun a = gmin(args + "la");
  ASSERT_EQ(a.exitCode, 0) << a.err;
  ASSERT_EQ(gmin(args + "lb").exitCode, 0);
  EXPECT_EQ(slurp(m_dir / "la/lowest"), slurp(m_dir / "lb/lowest"));
  EXPECT_EQ(lastLine(a.out).rfind("lowest energy: -4", 0), 0u) << a.out;
  const GminRun bad = gmin("--langevin-steps 10 --langevin-generator mt");
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_NE(bad.err.find("langevin-generator"), std::string::npos) << bad.err;
}

TEST_F(GminCli, StartsFromACoordinatesFile) {
  // Four atoms on a square with side 1.2 quench to the regular tetrahedron, E = -6.
  file("square.xyz", "4\nsquare\nLA 0 0 0\nLA 1.2 0 0\nLA 0 1.2 0\nLA 1.2 1.2 0\n");
  const GminRun r = gmin("--coords square.xyz --steps 5 --tight-rms 1e-7 --quiet");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "lowest energy: -6.0000000000");
}

// Basin-hopping in rigid coordinates. Atoms 1-3 form a rigid right triangle (legs 1.2
// sigma) that keeps its shape in every saved minimum; a bad rigid-body file is a one-line error
// naming the file and line.
// Atoms 1-3 of every saved minimum still form the rigid right triangle of legs 1.2 sigma, and the
// saved energy is the energy of the saved atoms (CENTRE moved bodies and atoms together).
void expectTriangleKept(const std::vector<StoredMinimum>& lowest) {
  ASSERT_FALSE(lowest.empty());
  for (const StoredMinimum& m : lowest) {
    ASSERT_EQ(m.coordinates.size(), 15u);  // atoms, not rigid coordinates
    auto d = [&](int i, int j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k)
        s += std::pow(m.coordinates[3 * i + k] - m.coordinates[3 * j + k], 2);
      return std::sqrt(s);
    };
    EXPECT_NEAR(d(0, 1), 1.2, 1e-6);
    EXPECT_NEAR(d(0, 2), 1.2, 1e-6);
    EXPECT_NEAR(d(1, 2), 1.2 * std::sqrt(2.0), 1e-6);
    LennardJones lj(5);
    EXPECT_NEAR(lj.energy(m.coordinates.data()), m.energy, 1e-7);
  }
}

TEST_F(GminCli, RigidBodiesKeepTheirShapeAndBadFilesAreReported) {
  file("square.xyz", "5\nsquare\nLA 0 0 0\nLA 1.2 0 0\nLA 0 1.2 0\nLA 1.2 1.2 0\nLA 0.6 0.6 0.9\n");
  file("triangle.rigid", "GROUP 3\n1 2 3\n");
  const GminRun r = gmin("--coords square.xyz --rigid triangle.rigid --steps 20 --step-size 0.2 "
                         "--rigid-rotation 30 --rigid-translation 0.2 --quiet --output rig");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectTriangleKept(readLowestFile((m_dir / "rig/lowest").string()));
  // GMIN's keyword: RIGIDINIT reads rbodyconfig from the working directory.
  file("rbodyconfig", "GROUP 3\n1\n2\n3\n");
  file("data", "RIGIDINIT\nSTEPS 5\nSTEP 0.2 0.0\n");
  const GminRun kw = gmin("--gmin-data data --coords square.xyz --quiet --output kw");
  ASSERT_EQ(kw.exitCode, 0) << kw.err;
  const std::vector<StoredMinimum> kwLowest = readLowestFile((m_dir / "kw/lowest").string());
  ASSERT_FALSE(kwLowest.empty());
  const std::vector<double>& y = kwLowest[0].coordinates;
  EXPECT_NEAR(std::hypot(y[0] - y[3], y[1] - y[4], y[2] - y[5]), 1.2, 1e-6);
  file("bad.rigid", "GROUP 3\n1 2\n9\n");
  const GminRun bad = gmin("--coords square.xyz --rigid bad.rigid --steps 2");
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_NE(bad.err.find("bad.rigid:3: atom index 9 is out of range 1..5"), std::string::npos)
      << bad.err;
  const GminRun noShape = gmin("--lj 5 --rigid triangle.rigid --steps 2");
  EXPECT_NE(noShape.exitCode, 0);
  EXPECT_NE(noShape.err.find("--rigid needs a starting structure"), std::string::npos)
      << noShape.err;
}

// Rigid bodies on the CPU walkers' threads: each thread quenches with its own
// copy of the rigid potential (walkerPotentialCopy), so 3 walkers use min(3, cores) threads, the
// bodies keep their shape, and a rerun gives the same lowest file whatever the threads did.
TEST_F(GminCli, RigidWalkersQuenchOnSeveralCpuThreads) {
  file("square.xyz", "5\nsquare\nLA 0 0 0\nLA 1.2 0 0\nLA 0 1.2 0\nLA 1.2 1.2 0\nLA 0.6 0.6 0.9\n");
  file("triangle.rigid", "GROUP 3\n1 2 3\n");
  const std::string args =
      "--coords square.xyz --rigid triangle.rigid --walkers 3 --steps 15 --step-size 0.2 "
      "--rigid-rotation 30 --rigid-translation 0.2 --seed 4 --output ";
  const GminRun a = gmin(args + "wa"), b = gmin(args + "wb");
  ASSERT_EQ(a.exitCode, 0) << a.err;
  ASSERT_EQ(b.exitCode, 0) << b.err;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  const int threads = std::min(3, CPU_COUNT(&mask));
  EXPECT_NE(a.out.find("gmin: 3 walkers, " + std::to_string(threads) + " CPU thread"),
            std::string::npos)
      << a.out;
  expectTriangleKept(readLowestFile((m_dir / "wa/lowest").string()));
  EXPECT_EQ(slurp(m_dir / "wa/lowest"), slurp(m_dir / "wb/lowest"));
  // The walkers' tight re-quench prints GMIN's Final Quench lines, as a single chain's does.
  EXPECT_NE(a.out.find("Final Quench     1 of "), std::string::npos) << a.out;
}

TEST_F(GminCli, InterruptedRunStillWritesItsResults) {
  // One SIGINT once the first checkpoint exists (so quenches have run, however loaded the
  // machine), to gmin alone (a second SIGINT makes gmin exit at once, by design).
  const fs::path launcher = file("interrupt_after_checkpoint.sh",
                                 "\"$@\" & pid=$!\n"
                                 "for i in $(seq 1 6000); do\n"
                                 "  [ -f res/checkpoint ] && break\n"
                                 "  kill -0 $pid 2>/dev/null || break\n"
                                 "  sleep 0.02\n"
                                 "done\n"
                                 "kill -INT $pid 2>/dev/null\n"
                                 "wait $pid\n");
  const GminRun r = gmin("--steps 100000000 --target -1000 --dump-interval 20 --quiet --output res",
                         "sh '" + launcher.string() + "' ");
  EXPECT_EQ(r.exitCode, 130) << r.err;  // interrupted, but with its results on disk
  EXPECT_NE(r.err.find("stopped by a signal"), std::string::npos) << r.err;
  EXPECT_EQ(lastLine(r.out).rfind("lowest energy: -1", 0), 0u) << r.out;
  EXPECT_EQ(readLowestFile((m_dir / "res/lowest").string()).size(), 2u);
  EXPECT_EQ(MinimaDatabase::count((m_dir / "res/minima.h5").string()), 2u);
}

// The progress lines of a run without their timings ("t= ..."), which differ between runs.
std::vector<std::string> progressLines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Qu ", 0) == 0) line = line.substr(0, line.find(" t="));
    if (line.rfind("Qu ", 0) == 0 || line.rfind("Acceptance", 0) == 0 || line.rfind("newres>", 0) == 0)
      lines.push_back(line);
  }
  return lines;
}


// Settings that use every piece of the saved state: ASTEP, step adaptation every 7 quenches,
// NEWRESTART reseeds and a 3-entry AVOID taboo list that wraps around.
const std::string kLj13Moves =
    "--lj 13 --save 4 --step-adjust-interval 7 --new-restart 6 --avoid-distance 1 "
    "--avoid-max 3 --avoid-reseed yes ";
const std::string kResumeSystem = kLj13Moves + "--walkers 1 ";
const std::string kResumeArgs = kResumeSystem + "--seed 4 ";

// `gmin --steps 53` then `gmin --resume DIR --steps 150` equals `gmin --steps 150`: the same
// progress lines (quench numbering continued) and the same minima, bit for bit.
TEST_F(GminCli, ResumedRunEqualsTheUninterruptedRun) {
  const GminRun full = gmin(kResumeArgs + "--steps 150 --output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  const GminRun first = gmin(kResumeArgs + "--steps 53 --output part");
  ASSERT_EQ(first.exitCode, 0) << first.err;
  const GminRun second = gmin(kResumeArgs + "--steps 150 --resume part");
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_NE(second.out.find("resuming from part/checkpoint after quench 53 of 150"),
            std::string::npos) << second.out;
  EXPECT_NE(second.out.find("\nQu       54 E="), std::string::npos) << second.out;
  std::vector<std::string> pieced = progressLines(first.out);
  for (const std::string& line : progressLines(second.out)) pieced.push_back(line);
  const std::vector<std::string> reference = progressLines(full.out);
  EXPECT_NE(full.out.find("newres>"), std::string::npos) << "the settings should reseed";
  EXPECT_EQ(pieced, reference);
  EXPECT_EQ(slurp(m_dir / "part/lowest"), slurp(m_dir / "full/lowest"));
  expectSameMinimaDatabases(m_dir / "part/minima.h5", m_dir / "full/minima.h5");
  EXPECT_EQ(lastLine(second.out), lastLine(full.out));
  // Resuming a finished run only re-quenches and rewrites the same results.
  const GminRun again = gmin(kResumeArgs + "--steps 150 --quiet --resume part");
  ASSERT_EQ(again.exitCode, 0) << again.err;
  EXPECT_EQ(slurp(m_dir / "part/lowest"), slurp(m_dir / "full/lowest"));
}

// Ctrl-C at an arbitrary quench, then --resume: the same minima as the run never interrupted.
TEST_F(GminCli, RunInterruptedBySigintResumesToTheSameResults) {
  const std::string args = kResumeArgs + "--steps 4000 --dump-interval 100 --quiet ";
  const GminRun full = gmin(args + "--output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  // SIGINT once the first checkpoint exists (polled, not timed), so that a loaded machine cannot
  // interrupt the run before it has anything to resume from.
  const fs::path launcher = file("interrupt_after_checkpoint.sh",
                                 "\"$@\" & pid=$!\n"
                                 "for i in $(seq 1 1200); do\n"
                                 "  [ -f part/checkpoint ] && break\n"
                                 "  kill -0 $pid 2>/dev/null || break\n"
                                 "  sleep 0.05\n"
                                 "done\n"
                                 "kill -INT $pid 2>/dev/null\n"
                                 "wait $pid\n");
  const GminRun first = gmin(args + "--output part", "sh '" + launcher.string() + "' ");
  ASSERT_TRUE(first.exitCode == 130 || first.exitCode == 0) << first.err;
  const GminRun second = gmin(args + "--resume part");
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(slurp(m_dir / "part/lowest"), slurp(m_dir / "full/lowest"));
  expectSameMinimaDatabases(m_dir / "part/minima.h5", m_dir / "full/minima.h5");
  EXPECT_EQ(lastLine(second.out), lastLine(full.out));
}

// The Langevin move's noise stream is numbered by quench, so it continues after a resume.
TEST_F(GminCli, ResumedLangevinRunEqualsTheUninterruptedRun) {
  const std::string args = "--lj 13 --langevin-steps 100 --langevin-kt 0.5 --seed 3 --walkers 1 ";
  const GminRun full = gmin(args + "--steps 30 --output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  const GminRun first = gmin(args + "--steps 12 --output part");
  ASSERT_EQ(first.exitCode, 0) << first.err;
  const GminRun second = gmin(args + "--steps 30 --resume part");
  ASSERT_EQ(second.exitCode, 0) << second.err;
  std::vector<std::string> pieced = progressLines(first.out);
  for (const std::string& line : progressLines(second.out)) pieced.push_back(line);
  EXPECT_EQ(pieced, progressLines(full.out));
  EXPECT_EQ(slurp(m_dir / "part/lowest"), slurp(m_dir / "full/lowest"));
}

// An AMBER molecule: side-chain rotations draw from the same generator and the stereochemistry
// checks reject structures; the resumed run still matches the uninterrupted one.
TEST_F(GminCli, ResumedAmberRunEqualsTheUninterruptedRun) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  const std::string args =
      "--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 + "' --seed 3 --walkers 1 ";
  const GminRun full = gmin(args + "--steps 20 --output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  const GminRun first = gmin(args + "--steps 8 --output part");
  ASSERT_EQ(first.exitCode, 0) << first.err;
  const GminRun second = gmin(args + "--steps 20 --resume part");
  ASSERT_EQ(second.exitCode, 0) << second.err;
  std::vector<std::string> pieced = progressLines(first.out);
  for (const std::string& line : progressLines(second.out)) pieced.push_back(line);
  EXPECT_EQ(pieced, progressLines(full.out));
  EXPECT_EQ(slurp(m_dir / "part/lowest"), slurp(m_dir / "full/lowest"));
  EXPECT_EQ(slurp(m_dir / "part/minimum_001.pdb"), slurp(m_dir / "full/minimum_001.pdb"));
  expectSameMinimaDatabases(m_dir / "part/minima.h5", m_dir / "full/minima.h5");
}

TEST_F(GminCli, ResumeErrorsNameTheCheckpointAndTheProblem) {
  ASSERT_EQ(gmin(kResumeArgs + "--steps 10 --quiet --output part").exitCode, 0);
  struct Case {
    std::string args, expected;
  };
  const fs::path checkpoint = m_dir / "part/checkpoint";
  const std::string text = slurp(checkpoint);
  for (const Case& c : std::vector<Case>{
           {"--lj 14 --resume part", "part/checkpoint: the checkpoint was made with atoms = '13'"},
           {kResumeSystem + "--seed 5 --resume part", "seed = '4', this run has seed = '5'"},
           {kResumeArgs + "--temperature 0.8 --resume part", "temperature"},
           {kResumeArgs + "--resume nowhere", "nowhere/checkpoint: no basin-hopping checkpoint"},
       }) {
    const GminRun r = gmin(c.args);
    EXPECT_EQ(r.exitCode, 1) << c.args;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // A truncated and a foreign file are errors with the file and line, never a crash.
  file("part/checkpoint", text.substr(0, text.size() / 2));
  GminRun r = gmin(kResumeArgs + "--resume part");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("part/checkpoint:"), std::string::npos) << r.err;
  // One changed digit (a hand edit, a flipped bit) is refused by the checksum line.
  std::string changed = text;
  const std::size_t digit = changed.find("\nstep-size 0x") + 13;
  changed[digit] = changed[digit] == '1' ? '2' : '1';
  file("part/checkpoint", changed);
  r = gmin(kResumeArgs + "--resume part");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("part/checkpoint:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("checksum mismatch"), std::string::npos) << r.err;
  file("part/checkpoint", "not a checkpoint\n");
  r = gmin(kResumeArgs + "--resume part");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("part/checkpoint:1: expected 'landscape-basin-hopping-checkpoint'"),
            std::string::npos) << r.err;
  file("part/checkpoint", "");
  r = gmin(kResumeArgs + "--resume part");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("part/checkpoint:0: the file ends before"), std::string::npos) << r.err;
}

TEST_F(GminCli, HelpListsOptionsWithUnitsAndVersionPrints) {
  const GminRun help = gmin("--help");
  EXPECT_EQ(help.exitCode, 0);
  for (const char* option : {"--lj", "--coords", "--steps", "--temperature", "--step-size", "--save",
                             "--target", "--seed", "--output", "--backend", "--lbfgs-m",
                             "--max-step", "--max-rise", "--quiet", "--config", "--gmin-data"})
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
  EXPECT_NE(help.out.find("epsilon"), std::string::npos);
  const GminRun version = gmin("--version");
  EXPECT_EQ(version.exitCode, 0);
  EXPECT_NE(version.out.find("gmin"), std::string::npos);
}

// Every bad input: non-zero exit, nothing on stdout, exactly one line on stderr naming the culprit.
void expectOneLineError(const GminRun& r, const std::string& mustContain) {
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_NE(r.err.find(mustContain), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("gmin: error: ", 0), 0u) << r.err;
}

TEST_F(GminCli, BadInputGivesOneLineErrorAndNonZeroExit) {
  expectOneLineError(gmin("--steps abc"), "--steps");
  expectOneLineError(gmin("--temperature -1"), "temperature");
  expectOneLineError(gmin("--backend gpu"), "backend");
  expectOneLineError(gmin("--no-such-option"), "no-such-option");
  expectOneLineError(gmin("--coords missing.xyz"), "missing.xyz");

  file("bad.xyz", "3\ncomment\nLA 0 0 0\nLA 1 0\nLA 0 1 0\n");
  expectOneLineError(gmin("--coords bad.xyz"), "bad.xyz:4");
  file("square.xyz", "4\nsquare\nLA 0 0 0\nLA 1.2 0 0\nLA 0 1.2 0\nLA 1.2 1.2 0\n");
  expectOneLineError(gmin("--coords square.xyz --lj 5"), "4 atoms");

  file("bad.cfg", "steps = 10\ntemperature = hot\n");
  expectOneLineError(gmin("--config bad.cfg"), "bad.cfg:2");

  file("data", "TEMPERATURE 1.0\nSTEPS 10 1.0\nFROBNICATE 3\n");
  expectOneLineError(gmin("--gmin-data data"), "data:3: unknown GMIN keyword 'FROBNICATE'");
}

TEST_F(GminCli, ReadsGminsLj38ExampleDataFile) {
  const auto data = testDataPath("lj38/gmin/data");
  if (!data) GTEST_SKIP() << "test data not found (set LANDSCAPE_TEST_DATA): lj38/gmin/data";
  const GminRun r = gmin("--gmin-data '" + *data + "' --steps 20 --quiet");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("SORT"), std::string::npos) << "ignored keywords are reported";
  EXPECT_EQ(lastLine(r.out).rfind("lowest energy: -1", 0), 0u);
}

// Failed quenches: on ash with 0.6 A steps, quench 52 falls into cold fusion (a hydroxyl hydrogen
// onto an unshielded charge) and ends at -4.6e16 kcal/mol with RMS 5e30 after its line search
// failed. The old code accepted it and reported "lowest energy: -1314225866472064512" after 300
// steps. The quench is rejected and counted; every saved minimum stays physical.
TEST_F(GminCli, ColdFusionQuenchOnAshIsRejectedAndCounted) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  const GminRun r = gmin("--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 +
                         "' --steps 60 --step-size 0.6 --seed 1 --walkers 1 --output res");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string line = lastLine(r.out);
  ASSERT_EQ(line.rfind("lowest energy: ", 0), 0u) << line;
  EXPECT_GT(std::stod(line.substr(15)), -200.0) << line;
  for (const StoredMinimum& m : readLowestFile((m_dir / "res/lowest").string()))
    EXPECT_GT(m.energy, -200.0);
  EXPECT_NE(r.out.find("step rejected: quench failed: energy"), std::string::npos);
  EXPECT_NE(r.out.find("(cold fusion)"), std::string::npos);
  EXPECT_EQ(r.out.find("Markov E= -4"), std::string::npos) << "the Markov chain took the quench";
  EXPECT_NE(r.out.find(" failed quenches rejected"), std::string::npos);
}

// No quench ever ends in a minimum (a start with two identical atoms and no steps): a clear error
// and a non-zero exit, where the old code took the first of an empty list and crashed.
TEST_F(GminCli, NoMinimumFoundIsAnErrorNotACrash) {
  const fs::path coords = file("twins.xyz",
                               "3\ntwo identical atoms\nX 0 0 0\nX 0 0 0\nX 1.1 0 0\n");
  const GminRun r = gmin("--lj 3 --walkers 1 --coords '" + coords.string() + "' --steps 0 --output res");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(r.err.rfind("gmin: error: no minimum found", 0), 0u) << r.err;
  EXPECT_NE(r.out.find("step rejected: quench failed: non-finite energy"), std::string::npos)
      << r.out;
}

// ---- walkers ----

// The default job (LJ38, no arguments but the seed) stops at the LJ38 global minimum and says which
// walker found it, at which quench, after how many seconds.
void GminCli::expectDefaultJobReachesTheGlobalMinimum(int seed) {
  const GminRun r = gmin("--seed " + std::to_string(seed) + " --output s" + std::to_string(seed));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string line = lastLine(r.out);
  ASSERT_EQ(line.rfind("lowest energy: ", 0), 0u) << line;
  EXPECT_NEAR(std::stod(line.substr(15)), -173.928427, 1e-4) << "seed " << seed;
  EXPECT_NE(r.out.find("gmin: target reached by walker "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" s\nlowest energy: "), std::string::npos) << "seconds before the last line";
}

TEST_F(GminCli, DefaultJobReachesTheLj38GlobalMinimumForThreeSeeds) {
  for (int seed = 1; seed <= 3; ++seed) expectDefaultJobReachesTheGlobalMinimum(seed);
}

class SlowGminDefaultJob : public GminCli {};

TEST_F(SlowGminDefaultJob, ReachesTheLj38GlobalMinimumForTenSeeds) {
  for (int seed = 1; seed <= 10; ++seed) expectDefaultJobReachesTheGlobalMinimum(seed);
}

// Walkers print summary lines (no per-quench lines unless --verbose) and share one minima list.
TEST_F(GminCli, WalkersPrintSummariesAndVerbosePerQuenchLines) {
  const GminRun r = gmin("--lj 13 --walkers 3 --steps 40 --seed 2 --output res");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("gmin: 3 walkers, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("walkers: step       40  quenches        120"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Qu "), std::string::npos);
  EXPECT_NE(r.out.find("gmin: 120 quenches"), std::string::npos) << r.out;
  EXPECT_EQ(readLowestFile((m_dir / "res/lowest").string()).size(), 2u);
  EXPECT_EQ(MinimaDatabase::count((m_dir / "res/minima.h5").string()), 2u);
  const GminRun v = gmin("--lj 13 --walkers 3 --steps 40 --seed 2 --verbose --output v");
  ASSERT_EQ(v.exitCode, 0) << v.err;
  for (const char* w : {"W     0 Qu       40 E=", "W     2 Qu       40 E="})
    EXPECT_NE(v.out.find(w), std::string::npos) << w;
  EXPECT_EQ(slurp(m_dir / "v/lowest"), slurp(m_dir / "res/lowest"));
  EXPECT_EQ(lastLine(v.out), lastLine(r.out));
}

// kill -9 once the first checkpoint exists (polled), then --resume: the minima of the run never
// killed, bit for bit.
void GminCli::expectKilledRunResumesToTheSameResults(const std::string& args) {
  const GminRun full = gmin(args + "--output full");
  ASSERT_EQ(full.exitCode, 0) << full.err;
  const fs::path launcher = file("kill_after_checkpoint.sh",
                                 "\"$@\" & pid=$!\n"
                                 "for i in $(seq 1 1200); do\n"
                                 "  [ -f part/checkpoint ] && break\n"
                                 "  kill -0 $pid 2>/dev/null || break\n"
                                 "  sleep 0.02\n"
                                 "done\n"
                                 "kill -9 $pid 2>/dev/null\n"
                                 "wait $pid\n");
  const GminRun first = gmin(args + "--output part", "sh '" + launcher.string() + "' ");
  ASSERT_TRUE(fs::exists(m_dir / "part/checkpoint")) << first.err;
  const GminRun second = gmin(args + "--resume part");
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(slurp(m_dir / "part/lowest"), slurp(m_dir / "full/lowest"));
  expectSameMinimaDatabases(m_dir / "part/minima.h5", m_dir / "full/minima.h5");
  EXPECT_EQ(lastLine(second.out), lastLine(full.out));
}

// 8 walkers on the CPU, NEWRESTART reseeds and AVOID in play.
TEST_F(GminCli, KilledWalkerRunResumesToTheSameResults) {
  const std::string args = kLj13Moves + "--seed 6 --walkers 8 --steps 300 --dump-interval 25 "
                           "--quiet ";
  expectKilledRunResumesToTheSameResults(args);
  // The walker count is the checkpoint's: another one is an error naming both.
  const GminRun other = gmin(kLj13Moves + "--seed 6 --walkers 4 --steps 300 --resume part");
  EXPECT_EQ(other.exitCode, 1);
  EXPECT_NE(other.err.find("holds 8 walkers, this run asks for 4"), std::string::npos) << other.err;
}

// The same on the GPU: 256 walkers quenched together by the batched engine.
TEST_F(GminCli, KilledGpuWalkerRunResumesToTheSameResults) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  expectKilledRunResumesToTheSameResults(kLj13Moves + "--backend cuda --seed 6 --walkers 256 "
                                         "--steps 300 --dump-interval 25 --quiet ");
}

// AMBER-GB walkers: every saved minimum is a minimum of the CPU reference AmberGb
// (energy within 1e-6 relative in double, RMS gradient below 2 x the tight RMS of 1e-4
// kcal/mol/A). On the GPU the quenches run on the round-based engine over the batched device
// potential, in mixed precision (gmin's default --quench-precision) with the tight re-quench in
// double, and 3 resident slots for 8 walkers (the rest refill from the queue) must give the
// same files bit for bit.
class GbWalkers : public GminCli {
 protected:
  void expectMinimaOfTheCpuPotential(const std::string& backend) {
    const auto prmtop = testDataPath("gb/ash/ash.parm7");
    const auto rst7 = testDataPath("gb/ash/ash.rst7");
    if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
    const std::string args = "--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 + "' --backend " +
                             backend + " --precision double --walkers 8 --steps 15 "
                             "--step-size 0.9 --seed 5 ";
    const GminRun r = gmin(args + "--output res");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("gmin: 8 walkers, "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(backend == "cuda" ? "round-based L-BFGS" : "ParallelLbfgs"),
              std::string::npos)
        << r.out;
    if (backend == "cuda") {
      EXPECT_NE(r.out.find("(cuda, mixed, "), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("; the tight re-quench over batched AMBER GB"), std::string::npos)
          << r.out;
      EXPECT_NE(r.out.find("(cuda, double, "), std::string::npos) << r.out;
    }

    const std::vector<StoredMinimum> db =
        MinimaDatabase::read((m_dir / "res/minima.h5").string());
    ASSERT_GE(db.size(), 2u);
    const GminConfig cpuConfig =
        parseGminCommandLine({"--prmtop", *prmtop, "--inpcrd", *rst7, "--backend", "cpu"});
    const GminSystem cpu = loadGminSystem(cpuConfig);
    ASSERT_EQ(cpuConfig.basinHopping.tightRms, 1e-4);
    for (const StoredMinimum& m : db) {
      std::vector<double> g(m.coordinates.size());
      const double e = cpu.atomistic->energyGradient(m.coordinates.data(), g.data());
      double g2 = 0.0;
      for (double v : g) g2 += v * v;
      EXPECT_NEAR(e, m.energy, 1e-6 * std::abs(m.energy)) << "minimum at " << m.energy;
      EXPECT_LT(std::sqrt(g2 / g.size()), 2.0 * cpuConfig.basinHopping.tightRms)
          << "minimum at " << m.energy;
    }
    if (backend != "cuda") return;
    const GminRun refill = gmin(args + "--walker-resident 3 --output refill");
    ASSERT_EQ(refill.exitCode, 0) << refill.err;
    EXPECT_NE(refill.out.find("3 walkers resident"), std::string::npos) << refill.out;
    EXPECT_EQ(slurp(m_dir / "refill/lowest"), slurp(m_dir / "res/lowest"));
    expectSameMinimaDatabases(m_dir / "refill/minima.h5", m_dir / "res/minima.h5");
    EXPECT_EQ(lastLine(refill.out), lastLine(r.out));
  }
};

TEST_F(GbWalkers, OnTheCpuSaveMinimaOfTheCpuPotential) { expectMinimaOfTheCpuPotential("cpu"); }

TEST_F(GbWalkers, OnTheGpuSaveMinimaOfTheCpuPotentialWhateverTheResidentSlots) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  expectMinimaOfTheCpuPotential("cuda");
}

// kill -9 and --resume of an AMBER-GB walker run on the GPU: the uninterrupted run bit for bit.
TEST_F(GminCli, KilledGpuGbWalkerRunResumesToTheSameResults) {
  if (!gpuAvailable()) GTEST_SKIP() << "no usable CUDA device: " << gpuDescription();
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  expectKilledRunResumesToTheSameResults("--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 +
                                         "' --backend cuda --precision double --walkers 8 "
                                         "--steps 60 --step-size 0.9 --dump-interval 5 --seed 6 "
                                         "--quiet ");
}

// BHPT: 4 replicas, exchanges every 5 steps alternating even pairs (0-1, 2-3) and the odd pair
// (1-2): 100 steps are 20 exchange rounds, 10 of each parity.
TEST_F(GminCli, BhptReportsExchangeAcceptancePerTemperaturePair) {
  const GminRun r = gmin("--lj 13 --walkers 4 --bhpt --bhpt-interval 5 --bhpt-min-temperature 0.5 "
                         "--bhpt-max-temperature 4 --steps 100 --seed 3 --output res");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* pair : {"bhpt: pair 0-1 kT 0.5-1 ", "bhpt: pair 1-2 kT 1-2 ",
                           "bhpt: pair 2-3 kT 2-4 "}) {
    const std::size_t at = r.out.find(pair);
    ASSERT_NE(at, std::string::npos) << pair << "\n" << r.out;
    EXPECT_NE(r.out.substr(at, r.out.find('\n', at) - at).find(" of 10 ("), std::string::npos)
        << r.out.substr(at, 80);
  }
}

// --max-time stops a run that would not end otherwise; its results are written, exit status 0.
TEST_F(GminCli, MaxTimeEndsTheRunWithItsResults) {
  const GminRun r = gmin("--lj 13 --walkers 2 --steps 100000000 --max-time 0.5 --output res");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("gmin: --max-time 0.5 s reached; results written"), std::string::npos)
      << r.out;
  EXPECT_EQ(lastLine(r.out).rfind("lowest energy: -44.3", 0), 0u) << lastLine(r.out);
  EXPECT_TRUE(fs::exists(m_dir / "res/checkpoint"));
}

// The progress lines of walker `w` in a --verbose walker run, without the "W     w " prefix and
// the timings: comparable with a single chain's progressLines().
std::vector<std::string> walkerLines(const std::string& out, int w) {
  char prefix[16];
  std::snprintf(prefix, sizeof prefix, "W %5d ", w);
  std::string own;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0 && line.find("newres>") == std::string::npos)
      own += line.substr(std::strlen(prefix)) + "\n";
  std::vector<std::string> lines;
  for (const std::string& l : progressLines(own))
    if (l.rfind("newres>", 0) != 0) lines.push_back(l);
  return lines;
}

// Molecules: walker 0 of three is the single chain of the same seed quench for quench, with the
// side-chain rotations drawn from its own stream and the chirality and cis/trans checks applied to
// its own structures (AMBER-GB ash, per-thread copies of the potential); the same for SOP.
TEST_F(GminCli, MoleculeWalkerZeroIsTheSingleChain) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!prmtop || !rst7 || !pdb) GTEST_SKIP() << "gb/ash or sop/1TIT.pdb not found";
  for (const std::string system :
       {"--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 + "' --step-size 0.5 --steps 12 ",
        "--sop-pdb '" + *pdb + "' --steps 8 "}) {
    const GminRun one = gmin(system + "--seed 4 --walkers 1 --output one");
    ASSERT_EQ(one.exitCode, 0) << one.err;
    const GminRun three = gmin(system + "--seed 4 --walkers 3 --verbose --output three");
    ASSERT_EQ(three.exitCode, 0) << three.err;
    std::vector<std::string> chain;
    for (const std::string& l : progressLines(one.out))
      if (l.rfind("newres>", 0) != 0) chain.push_back(l);
    ASSERT_FALSE(chain.empty());
    EXPECT_EQ(walkerLines(three.out, 0), chain) << system;
    EXPECT_NE(walkerLines(three.out, 2), chain) << "walker 2 has a stream of its own";
  }
}

}  // namespace
}  // namespace landscape
