// optim's command line for molecules: --prmtop switches to the molecule defaults (kcal/mol and
// Angstrom, Mantell, Pitt and Wales, J. Chem. Theory Comput. 2016, section 3.3), the alignment
// loses inversion, and permutations come only with a perm.allow file; Lennard-Jones runs keep
// all-atom permutations and inversion.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/optim/OptimOptions.h"
#include "tests/TempFile.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

TEST(OptimAmberConfig, LennardJonesKeepsPermutationsAndInversion) {
  const OptimConfig c = parseOptimCommandLine(std::vector<std::string>{});
  EXPECT_FALSE(c.isMolecule());
  EXPECT_TRUE(c.settings.network.alignment.permutations);
  EXPECT_TRUE(c.settings.network.alignment.inversion);
  EXPECT_TRUE(c.settings.connect.dneb.alignment.permutations);
  EXPECT_TRUE(c.settings.connect.dneb.alignment.inversion);
  EXPECT_TRUE(c.settings.network.alignment.permutationGroups.empty());
  EXPECT_TRUE(std::isinf(c.settings.connect.dneb.coldFusionDrop));  // no cold fusion for LJ
}

TEST(OptimAmberConfig, MoleculeDefaultsNoInversionAndPermutationsOnlyWithPermAllow) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  const std::vector<std::string> base = {"--prmtop", *prmtop, "--inpcrd", *rst7, "--finish", *rst7};
  const OptimConfig c = parseOptimCommandLine(base);
  ASSERT_TRUE(c.isMolecule());
  EXPECT_FALSE(c.builtInExample());
  EXPECT_EQ(c.amber.igb, 2);
  for (const AlignmentParams* a :
       {&c.settings.network.alignment, &c.settings.connect.dneb.alignment}) {
    EXPECT_FALSE(a->inversion);
    EXPECT_FALSE(a->permutations);
  }
  const OptimSettings molecule = optimAmberDefaultSettings();
  EXPECT_EQ(c.settings.connect.firstImages, 10);  // Mantell et al. 2016, section 3.3
  EXPECT_EQ(c.settings.connect.firstIterations, 300);
  EXPECT_DOUBLE_EQ(c.settings.connect.dneb.rmsTolerance, 0.01);
  EXPECT_DOUBLE_EQ(c.settings.network.geometryTolerance, molecule.network.geometryTolerance);
  EXPECT_DOUBLE_EQ(c.settings.connect.transitionStateSearch.rmsTolerance, 1e-5);
  EXPECT_TRUE(c.settings.reoptimiseEndpoints);
  EXPECT_DOUBLE_EQ(c.settings.connect.dneb.coldFusionDrop, 100.0);  // kcal/mol
  std::vector<std::string> off = base;
  off.insert(off.end(), {"--cold-fusion", "0"});
  EXPECT_TRUE(std::isinf(parseOptimCommandLine(off).settings.connect.dneb.coldFusionDrop));

  const TempFile allow("1\n3 0\n1 3 4\n", ".allow");
  std::vector<std::string> withGroups = base;
  withGroups.insert(withGroups.end(),
                    {"--perm-allow", allow.path(), "--igb", "5", "--saltcon", "0.1", "--rgbmax",
                     "20", "--backend", "cpu", "--precision", "mixed"});
  const OptimConfig g = parseOptimCommandLine(withGroups);
  EXPECT_EQ(g.permAllowFile, allow.path());
  EXPECT_TRUE(g.settings.network.alignment.permutations);
  EXPECT_TRUE(g.settings.connect.dneb.alignment.permutations);
  EXPECT_FALSE(g.settings.network.alignment.inversion);
  EXPECT_EQ(g.amber.igb, 5);
  EXPECT_DOUBLE_EQ(g.amber.saltcon, 0.1);
  EXPECT_DOUBLE_EQ(g.amber.rgbmax, 20.0);
  EXPECT_EQ(g.precision, Precision::Mixed);
  withGroups.insert(withGroups.end(), {"--permutations", "no"});
  EXPECT_FALSE(parseOptimCommandLine(withGroups).settings.network.alignment.permutations);

  // An odata file with PERMDIST: its keywords, still without inversion, and PERMDIST needs the
  // groups.
  const TempFile odata("NEBK 5.0\nPERMDIST\n", ".odata");
  std::vector<std::string> withOdata = base;
  withOdata.insert(withOdata.end(), {"--odata", odata.path()});
  try {
    parseOptimCommandLine(withOdata);
    ADD_FAILURE() << "PERMDIST without perm.allow accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("PERMDIST: permutations of a molecule's atoms need"),
              std::string::npos)
        << e.what();
  }
  withOdata.insert(withOdata.end(), {"--perm-allow", allow.path()});
  const OptimConfig o = parseOptimCommandLine(withOdata);
  EXPECT_DOUBLE_EQ(o.settings.connect.dneb.springConstant, 5.0);
  EXPECT_TRUE(o.settings.network.alignment.permutations);
  EXPECT_FALSE(o.settings.network.alignment.inversion);
  EXPECT_FALSE(o.settings.connect.dneb.alignment.inversion);
}

}  // namespace
}  // namespace landscape
