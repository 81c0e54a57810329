// AMBER protein moves and checks (landscape/ProteinMoves) on trp-cage, and `gmin` on AMBER input.
#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "landscape/search/ProteinMoves.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

struct Trpcage {
  AmberTopology topology;
  std::vector<double> x;
};

std::optional<Trpcage> loadTrpcage() {
  const auto prmtop = testDataPath("gb/trpcage/prmtop");
  const auto inpcrd = testDataPath("gb/trpcage/inpcrd");
  if (!prmtop || !inpcrd) return std::nullopt;
  Trpcage t{readAmberTopology(*prmtop), {}};
  t.x = readAmberCoordinates(*inpcrd, t.topology).positions;
  return t;
}

#define LOAD_TRPCAGE(name)                                                               \
  const std::optional<Trpcage> name = loadTrpcage();                                     \
  if (!name) GTEST_SKIP() << "gb/trpcage not found under " << testDataRoot()             \
                          << " (set LANDSCAPE_TEST_DATA)"

double distance(const std::vector<double>& x, int a, int b) {
  return std::hypot(x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]);
}

TEST(ProteinMoves, SideChainGroupsOfTrpcage) {
  LOAD_TRPCAGE(t);
  const std::vector<RotatableGroup> groups = findSideChainGroups(t->topology);
  EXPECT_EQ(groups.size(), 29u);
  const std::set<std::string> backbone = {"N", "CA", "C", "O", "H", "HA", "OXT"};
  for (const RotatableGroup& g : groups) {
    for (int a : g.atoms) {
      EXPECT_EQ(t->topology.residueOfAtom[a], g.residue);
      EXPECT_EQ(backbone.count(t->topology.atomNames[a]), 0u) << t->topology.atomNames[a];
    }
    // Proline's CA-CB bond is in its ring: never a group.
    if (t->topology.residueLabels[g.residue] == "PRO")
      EXPECT_NE(t->topology.atomNames[g.axisFrom] + t->topology.atomNames[g.axisTo], "CACB");
  }
}

TEST(ProteinMoves, GroupRotationKeepsEveryBondLength) {
  LOAD_TRPCAGE(t);
  const std::vector<RotatableGroup> groups = findSideChainGroups(t->topology);
  std::vector<double> x = t->x;
  Random random(4);
  EXPECT_EQ(rotateGroups(groups, x, 1.0, 3.0, random), static_cast<int>(groups.size()));
  double worst = 0.0, moved = 0.0;
  for (const AmberBond& b : t->topology.bonds)
    worst = std::max(worst, std::abs(distance(x, b.i, b.j) - distance(t->x, b.i, b.j)));
  for (std::size_t i = 0; i < x.size(); ++i) moved = std::max(moved, std::abs(x[i] - t->x[i]));
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(moved, 1.0);  // side chains really moved
  // Rotating one group moves only its atoms; the axis atoms stay (groups nest, so check singly).
  for (const RotatableGroup& g : groups) {
    std::vector<double> y = t->x;
    rotateGroups({g}, y, 1.0, 3.0, random);
    std::set<int> members(g.atoms.begin(), g.atoms.end());
    for (int a = 0; a < t->topology.atomCount; ++a)
      if (!members.count(a))
        for (int k = 0; k < 3; ++k) ASSERT_EQ(y[3 * a + k], t->x[3 * a + k]) << a;
  }
}

TEST(ProteinMoves, StereoChecksCatchInversionAndCisPeptides) {
  LOAD_TRPCAGE(t);
  const StereoChecks checks(t->topology, t->x);
  EXPECT_EQ(checks.stereocentreCount(), 18u);  // 17 non-glycine CA + Ile CB
  EXPECT_EQ(checks.peptideBondCount(), 19u);   // 20 residues
  EXPECT_EQ(checks.violation(t->x), "");
  // The mirror image inverts every stereocentre.
  std::vector<double> mirror = t->x;
  for (std::size_t i = 0; i < mirror.size(); i += 3) mirror[i] = -mirror[i];
  EXPECT_NE(checks.violation(mirror).find("chirality"), std::string::npos);
  // Rotating everything after the first peptide bond by 180 degrees about it makes it cis.
  const std::vector<std::vector<int>> nb = t->topology.bondedNeighbours();
  int c = -1, n = -1;
  for (const AmberBond& b : t->topology.bonds)
    if (t->topology.atomNames[b.i] == "C" && t->topology.atomNames[b.j] == "N" &&
        t->topology.residueOfAtom[b.j] == 1) {
      c = b.i;
      n = b.j;
    }
  ASSERT_GE(c, 0);
  RotatableGroup tail{c, n, {}, 1};
  for (int a = 0; a < t->topology.atomCount; ++a)
    if (t->topology.residueOfAtom[a] >= 1 && a != n) tail.atoms.push_back(a);
  std::vector<double> cis = t->x;
  const double k[3] = {cis[3 * n] - cis[3 * c], cis[3 * n + 1] - cis[3 * c + 1], cis[3 * n + 2] - cis[3 * c + 2]};
  const double len = std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
  for (int a : tail.atoms) {  // 180 degrees: v -> 2 (k.v) k - v about the axis through N
    double v[3], kv = 0.0;
    for (int q = 0; q < 3; ++q) v[q] = cis[3 * a + q] - cis[3 * n + q];
    for (int q = 0; q < 3; ++q) kv += v[q] * k[q] / len;
    for (int q = 0; q < 3; ++q) cis[3 * a + q] = cis[3 * n + q] + 2.0 * kv * k[q] / len - v[q];
  }
  EXPECT_NE(checks.violation(cis).find("turned cis"), std::string::npos) << checks.violation(cis);
}

// A folder of this process's own, so that test runs side by side do not share output.
std::filesystem::path gminAmberDir() {
  return std::filesystem::temp_directory_path() /
         ("landscape-gmin-amber-" + std::to_string(::getpid()));
}

// `gmin` on an AMBER system: the single point of REFERENCE.md and a short run with PDB output.
int runGmin(const std::string& args, std::string& out) {
  const std::string dir = gminAmberDir().string();
  std::filesystem::create_directories(dir);
  const char* env = std::getenv("LANDSCAPE_GMIN_EXECUTABLE");
  const std::string exe = env && *env ? env : LANDSCAPE_GMIN_EXECUTABLE;
  const std::string cmd = "cd '" + dir + "' && '" + exe + "' " + args + " > out.txt 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(dir + "/out.txt");
  std::stringstream text;
  text << in.rdbuf();
  out = text.str();
  return WEXITSTATUS(status);
}

TEST(GminAmber, EnergyOnlyReproducesTheReference) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found under " << testDataRoot();
  std::string out;
  ASSERT_EQ(runGmin("--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 +
                        "' --energy-only --saltcon 0 --rgbmax 25",
                    out),
            0)
      << out;
  // REFERENCE.md, ash_0.0, amber_igb2_rgbmax25 (sander: EGB -28.1689).
  EXPECT_NE(out.find("EGB -28.1689"), std::string::npos) << out;
  EXPECT_NE(out.find("TOTAL -25.714"), std::string::npos) << out;
  EXPECT_NE(out.find("RMS_GRADIENT 42.760"), std::string::npos) << out;
}

TEST(GminAmber, ShortRunWritesPdbAndRst7AndBadInputsFail) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  const auto trp = testDataPath("gb/trpcage/prmtop");
  if (!prmtop || !rst7 || !trp) GTEST_SKIP() << "gb data not found under " << testDataRoot();
  std::string out;
  ASSERT_EQ(runGmin("--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 +
                        "' --steps 5 --quiet --output amber-out",
                    out),
            0)
      << out;
  const auto dir = gminAmberDir() / "amber-out";
  EXPECT_TRUE(std::filesystem::exists(dir / "minimum_001.pdb"));
  EXPECT_TRUE(std::filesystem::exists(dir / "minimum_001.rst7"));
  EXPECT_TRUE(std::filesystem::exists(dir / "minima.h5"));
  EXPECT_NE(runGmin("--prmtop '" + *prmtop + "'", out), 0);
  EXPECT_NE(out.find("--inpcrd"), std::string::npos) << out;
  EXPECT_NE(runGmin("--prmtop '" + *trp + "' --inpcrd '" + *rst7 + "' --energy-only", out), 0);
  EXPECT_NE(out.find("304"), std::string::npos) << out;  // names both atom counts
  std::filesystem::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace landscape
