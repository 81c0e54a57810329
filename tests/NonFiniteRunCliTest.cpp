// Non-finite values end a run with a clear error at once, never a NaN trajectory with exit 0
// (docs/reliability.md): sop's --dt is bounded by the Euler stability limit, a blow-up under the
// bound is caught at the next output interval, a NaN CA is refused by the PDB reader, and a 1e308
// coordinate in an inpcrd stops gmin before its first quench, not when `lowest` is written.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/BackgroundProgram.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

namespace fs = std::filesystem;
using cli_test::program;
using cli_test::runProgram;
using cli_test::slurp;
using Result = cli_test::ProgramRun;

class NonFiniteRunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("landscape-nonfinite-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  Result run(const char* variable, const char* built, const std::string& args) {
    return runProgram(m_dir, program(variable, built), args);
  }
  fs::path m_dir;
};

#ifdef LANDSCAPE_SOP_EXECUTABLE
#define SOP "LANDSCAPE_SOP_EXECUTABLE", LANDSCAPE_SOP_EXECUTABLE

TEST_F(NonFiniteRunCli, SopRefusesATimeStepAboveTheStabilityLimit) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) GTEST_SKIP() << "sop/1TIT.pdb not found";
  const Result r = run(SOP, "--pdb '" + *pdb + "' --dt 1e10 --steps 10 --output s");
  EXPECT_EQ(r.exitCode, 1);
  // xi / (2 k_FENE) = 7.1963 / 40 ps with the default friction and FENE spring.
  EXPECT_NE(r.err.find("--dt 1e+10 ps is at or above the Euler stability limit xi / (2 k_FENE) = "
                       "0.179907 ps"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(m_dir / "s/force_curve_0.dat")) << "refused before any output";
}

// 0.17 ps passes the linear bound, but stretched FENE bonds are stiffer: the run blows up within
// a few hundred steps, and the error comes at the first output interval after it.
TEST_F(NonFiniteRunCli, SopBlowUpUnderTheBoundIsAnErrorNotANanTrajectory) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) GTEST_SKIP() << "sop/1TIT.pdb not found";
  const Result r = run(SOP, "--pdb '" + *pdb +
                                "' --dt 0.17 --steps 20000 --output-interval 100 "
                                "--frame-interval 100 --output s");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("replica 0: non-finite coordinates at step"), std::string::npos) << r.err;
  const std::string curve = slurp(m_dir / "s/force_curve_0.dat");
  const std::string frames = slurp(m_dir / "s/trajectory_0.pdb");
  EXPECT_FALSE(curve.empty());
  EXPECT_EQ(curve.find("nan"), std::string::npos) << curve;
  EXPECT_EQ(frames.find("nan"), std::string::npos);
}

TEST_F(NonFiniteRunCli, SopRefusesANanCoordinateInThePdb) {
  const auto pdb = testDataPath("sop/1TIT.pdb");
  if (!pdb) GTEST_SKIP() << "sop/1TIT.pdb not found";
  std::string text = slurp(*pdb);
  const std::size_t atom = text.find("\nATOM");
  ASSERT_NE(atom, std::string::npos);
  text.replace(atom + 1 + 30, 8, "     nan");  // the x field, columns 31-38
  std::ofstream(m_dir / "nan.pdb") << text;
  const Result r = run(SOP, "--pdb nan.pdb --steps 10 --output s");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("nan.pdb:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("x coordinate"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(m_dir / "s/force_curve_0.dat"));
}
#endif

TEST_F(NonFiniteRunCli, GminRefusesA1e308InpcrdCoordinateBeforeTheFirstQuench) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  std::string text = slurp(*rst7);
  const std::size_t line3 = text.find('\n', text.find('\n') + 1) + 1;  // first coordinate line
  text.replace(line3, 12, " 1.00000e308");
  std::ofstream(m_dir / "big.rst7") << text;
  const Result r = run("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE,
                       "--prmtop '" + *prmtop + "' --inpcrd big.rst7 --steps 50 --output g");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("big.rst7:3"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("Qu "), std::string::npos) << "no quench ran";
  EXPECT_FALSE(fs::exists(m_dir / "g/lowest"));
}


// --energy-only printed ANGLE inf, TOTAL inf and RMS_GRADIENT -nan with exit status 0 for an
// angle equilibrium value of -1e308, and RMS_GRADIENT -nan for two atoms at one position.
TEST_F(NonFiniteRunCli, GminEnergyOnlyRefusesANonFiniteEnergy) {
  const auto prmtop = testDataPath("gb/ash/ash.parm7");
  const auto rst7 = testDataPath("gb/ash/ash.rst7");
  if (!prmtop || !rst7) GTEST_SKIP() << "gb/ash not found";
  const Result good = run("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE,
                          "--prmtop '" + *prmtop + "' --inpcrd '" + *rst7 + "' --energy-only");
  ASSERT_EQ(good.exitCode, 0) << good.err;

  std::string topology = slurp(*prmtop);
  const std::size_t angles = topology.find("%FLAG ANGLE_EQUIL_VALUE");
  const std::size_t first = topology.find('\n', topology.find("%FORMAT", angles)) + 1;
  topology.replace(first, 16, "-1.00000000E+308");
  std::ofstream(m_dir / "huge.parm7") << topology;
  Result r = run("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE,
                 "--prmtop huge.parm7 --inpcrd '" + *rst7 + "' --energy-only");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("huge.parm7: the energy or its gradient is not finite at these coordinates: "
                       "ANGLE = inf"),
            std::string::npos)
      << r.err;

  std::string coordinates = slurp(*rst7);
  const std::size_t line3 = coordinates.find('\n', coordinates.find('\n') + 1) + 1;
  coordinates.replace(line3 + 36, 36, coordinates.substr(line3, 36));  // atom 2 onto atom 1
  std::ofstream(m_dir / "clash.rst7") << coordinates;
  r = run("LANDSCAPE_GMIN_EXECUTABLE", LANDSCAPE_GMIN_EXECUTABLE,
          "--prmtop '" + *prmtop + "' --inpcrd clash.rst7 --energy-only");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("clash.rst7 with "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("atoms 1 and 2 lie within"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace landscape
