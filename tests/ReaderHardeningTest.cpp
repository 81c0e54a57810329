// Regression tests of the readers' input hardening (docs/reliability.md): every reader refuses
// non-finite and overflowing numbers with the file, line and field in a one-line message, never
// quotes raw bytes, and refuses counts that would size absurd allocations before allocating. Each
// input that crashed a reader, tripped a sanitizer or was accepted wrongly (by review, the fuzz
// targets of fuzz/ or the sanitizer pass of tools/run_tests.sh) is here, inline.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "CheckpointTexts.h"
#include "landscape/dynamics/SopDynamics.h"
#include "landscape/formats/CheckpointFile.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/DcdFile.h"
#include "landscape/formats/LowestFile.h"
#include "landscape/formats/PathsampleExport.h"
#include "landscape/formats/PermAllowFile.h"
#include "landscape/network/Database.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberGb.h"
#include "potentials/AmberTopology.h"
#include "landscape/core/InputChecks.h"
#include "potentials/LennardJones.h"
#include "landscape/core/Precision.h"
#include "potentials/RigidBodySet.h"
#include "landscape/dynamics/RngKind.h"
#include "potentials/Sop.h"
#include "potentials/SopTopology.h"
#include "src/gmin/GminDataFile.h"
#include "src/optim/OptimOdataFile.h"
#include "src/gmin/GminOptions.h"
#include "src/sop/SopOptions.h"
#include "tests/TempFile.h"

namespace landscape {
namespace {

/// The message of the std::runtime_error that read throws; fails the test when it throws nothing
/// or something else.
std::string errorOf(const std::function<void()>& read) {
  try {
    read();
  } catch (const std::runtime_error& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a std::runtime_error: " << e.what();
    return "";
  }
  ADD_FAILURE() << "no error";
  return "";
}

/// The checks every message of a reader passes: one line of printable ASCII, short.
void expectCleanMessage(const std::string& message) {
  EXPECT_LE(message.size(), 1500u) << message;
  for (char c : message)
    EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f)
        << "raw byte " << static_cast<int>(static_cast<unsigned char>(c)) << " in: " << message;
}

void expectMentions(const std::string& message, const std::vector<std::string>& parts) {
  EXPECT_FALSE(message.empty());
  expectCleanMessage(message);
  for (const std::string& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("test fixture: '" + from + "' not found");
  return text.replace(at, from.size(), to);
}

// Terminal escape sequences and a NUL, as binary garbage in a file would bring them.
const std::string kGarbage = std::string("\x1b[2J\x07\xff\xfe", 7) + std::string(1, '\0') + "x";

// ---- shared helpers -----------------------------------------------------------------------------

TEST(InputChecks, PrintableInputEscapesAndCuts) {
  EXPECT_EQ(printableInput("plain text"), "plain text");
  EXPECT_EQ(printableInput(std::string("a\tb\nc\rd\x1b\x7f\xff", 10)),
            "a\\tb\\nc\\rd\\x1B\\x7F\\xFF");
  EXPECT_EQ(printableInput(std::string(1, '\0')), "\\x00");
  EXPECT_EQ(printableInput(std::string(100, 'x'), 10), std::string(10, 'x') + "... (100 bytes)");
  EXPECT_EQ(quoteInput("x"), "'x'");
}

TEST(InputChecks, FortranNumbersRefuseNonFiniteAndOverflow) {
  for (const char* bad :
       {"nan", "NaN", "inf", "-Infinity", "1e999", "1D999", "0x1p3", "", "1e", "--1", "1.0.0"})
    EXPECT_FALSE(parseFortranReal(bad).has_value()) << bad;
  EXPECT_EQ(*parseFortranReal("1.5D-2"), 1.5e-2);
  EXPECT_FALSE(parseFortranInteger("9223372036854775808").has_value());
  EXPECT_EQ(*parseFortranInteger("-9223372036854775808"), std::numeric_limits<long long>::min());
  EXPECT_EQ(describeBadReal("1e999"), "non-finite number '1e999' (overflow)");
  EXPECT_EQ(describeBadReal("nan"), "non-finite number 'nan'");
  EXPECT_EQ(describeBadReal("x"), "'x', which is not a number");
}

TEST(InputChecks, RequireMemoryRefusesAbsurdRequestsWithASentence) {
  EXPECT_NO_THROW(requireMemory("a small table", 1000, 8));
  const std::string message = errorOf([] { requireMemory("a huge table", 1e18, 8); });
  expectMentions(message, {"a huge table", "would need", "GB"});
  setInputMemoryLimit(1000);
  EXPECT_THROW(requireMemory("two kilobytes", 250, 8), std::runtime_error);
  setInputMemoryLimit(0);
  EXPECT_NO_THROW(requireMemory("two kilobytes", 250, 8));
  EXPECT_GT(inputMemoryLimit(), 1000u);
}

// ---- prmtop
// --------------------------------------------------------------------------------------

/// A 4-atom chain C1-C2-C3-C4 with one bond, angle and dihedral term each (every required
/// section, with RADII and SCREEN for GB). %FLAG DIHEDRALS_WITHOUT_HYDROGEN and
/// NUMBER_EXCLUDED_ATOMS use 20-column integers, wide enough for any long long.
const char* kTinyPrmtop =
    "%VERSION  VERSION_STAMP = V0001.000\n"
    "%FLAG TITLE\n%FORMAT(20a4)\ntiny\n"
    "%FLAG POINTERS\n%FORMAT(10I8)\n"
    "       4       1       0       1       0       1       0       1       0       0\n"
    "       4       1       1       1       1       1       1       1       1       0\n"
    "       0       0       0       0       0       0       0       0       4       0\n"
    "       0\n"
    "%FLAG ATOM_NAME\n%FORMAT(20a4)\nC1  C2  C3  C4  \n"
    "%FLAG CHARGE\n%FORMAT(5E16.8)\n"
    "  1.00000000E+00 -1.00000000E+00  1.00000000E+00 -1.00000000E+00\n"
    "%FLAG MASS\n%FORMAT(5E16.8)\n"
    "  1.20100000E+01  1.20100000E+01  1.20100000E+01  1.20100000E+01\n"
    "%FLAG ATOM_TYPE_INDEX\n%FORMAT(10I8)\n       1       1       1       1\n"
    "%FLAG RESIDUE_LABEL\n%FORMAT(20a4)\nMOL \n"
    "%FLAG RESIDUE_POINTER\n%FORMAT(10I8)\n       1\n"
    "%FLAG LENNARD_JONES_ACOEF\n%FORMAT(5E16.8)\n  9.44293233E+05\n"
    "%FLAG LENNARD_JONES_BCOEF\n%FORMAT(5E16.8)\n  8.01323529E+02\n"
    "%FLAG NONBONDED_PARM_INDEX\n%FORMAT(10I8)\n       1\n"
    "%FLAG BOND_FORCE_CONSTANT\n%FORMAT(5E16.8)\n  3.10000000E+02\n"
    "%FLAG BOND_EQUIL_VALUE\n%FORMAT(5E16.8)\n  1.52600000E+00\n"
    "%FLAG ANGLE_FORCE_CONSTANT\n%FORMAT(5E16.8)\n  4.00000000E+01\n"
    "%FLAG ANGLE_EQUIL_VALUE\n%FORMAT(5E16.8)\n  1.91113635E+00\n"
    "%FLAG DIHEDRAL_FORCE_CONSTANT\n%FORMAT(5E16.8)\n  1.55555556E-01\n"
    "%FLAG DIHEDRAL_PERIODICITY\n%FORMAT(5E16.8)\n  3.00000000E+00\n"
    "%FLAG DIHEDRAL_PHASE\n%FORMAT(5E16.8)\n  0.00000000E+00\n"
    "%FLAG BONDS_INC_HYDROGEN\n%FORMAT(10I8)\n\n"
    "%FLAG BONDS_WITHOUT_HYDROGEN\n%FORMAT(10I8)\n       0       3       1\n"
    "%FLAG ANGLES_INC_HYDROGEN\n%FORMAT(10I8)\n\n"
    "%FLAG ANGLES_WITHOUT_HYDROGEN\n%FORMAT(10I8)\n       0       3       6       1\n"
    "%FLAG DIHEDRALS_INC_HYDROGEN\n%FORMAT(10I8)\n\n"
    "%FLAG DIHEDRALS_WITHOUT_HYDROGEN\n%FORMAT(5I20)\n"
    "                   0                   3                   6                   9"
    "                   1\n"
    "%FLAG NUMBER_EXCLUDED_ATOMS\n%FORMAT(5I20)\n"
    "                   1                   1                   1                   1\n"
    "%FLAG EXCLUDED_ATOMS_LIST\n%FORMAT(10I8)\n       0       0       0       0\n"
    "%FLAG RADII\n%FORMAT(5E16.8)\n"
    "  1.70000000E+00  1.70000000E+00  1.70000000E+00  1.70000000E+00\n"
    "%FLAG SCREEN\n%FORMAT(5E16.8)\n"
    "  7.20000000E-01  7.20000000E-01  7.20000000E-01  7.20000000E-01\n";

std::string prmtopError(const std::string& text) {
  const TempFile file(text, ".parm7");
  const std::string message = errorOf([&] { readAmberTopology(file.path()); });
  EXPECT_NE(message.find(file.path()), std::string::npos) << message;
  return message;
}

TEST(ReaderHardening, TinyPrmtopFixtureIsValid) {
  const TempFile file(kTinyPrmtop, ".parm7");
  const AmberTopology top = readAmberTopology(file.path());
  EXPECT_EQ(top.atomCount, 4);
  ASSERT_EQ(top.dihedrals.size(), 1u);
  EXPECT_EQ(top.dihedrals[0].l, 3);
  AmberGb gb(top);
  const std::vector<double> x = {0, 0, 0, 1.5, 0, 0, 2, 1.4, 0, 3.5, 1.4, 0.5};
  EXPECT_TRUE(std::isfinite(gb.energy(x.data())));
}

// UBSan: the repeat count of %FORMAT(4294967316a4) overflowed an int and was read as 20a4.
TEST(ReaderHardening, PrmtopFormatCountThatOverflowsAnIntIsRefused) {
  const std::string text = replaced(kTinyPrmtop, "%FLAG ATOM_NAME\n%FORMAT(20a4)",
                                    "%FLAG ATOM_NAME\n%FORMAT(4294967316a4)");
  expectMentions(prmtopError(text), {"%FLAG ATOM_NAME", "4294967316a4", "repeat count or width"});
  expectMentions(prmtopError(replaced(kTinyPrmtop, "%FORMAT(5E16.8)\n  1.00000000E+00",
                                      "%FORMAT(5E99999999999999999999.8)\n  1.00000000E+00")),
                 {"%FLAG CHARGE", "repeat count or width"});
}

TEST(ReaderHardening, PrmtopRealsMustBeFiniteFortranNumbers) {
  const std::string charge = "  1.00000000E+00 -1.00000000E+00";
  expectMentions(prmtopError(replaced(kTinyPrmtop, charge, "             nan -1.00000000E+00")),
                 {"%FLAG CHARGE", ":16:", "non-finite number 'nan'"});
  expectMentions(prmtopError(replaced(kTinyPrmtop, charge, "        Infinity -1.00000000E+00")),
                 {"%FLAG CHARGE", "non-finite number 'Infinity'"});
  expectMentions(prmtopError(replaced(kTinyPrmtop, charge, "  1.00000000E+99 -1.0000000E+999")),
                 {"%FLAG CHARGE", "'-1.0000000E+999' (overflow)"});
  expectMentions(prmtopError(replaced(kTinyPrmtop, charge, "          0x1p+3 -1.00000000E+00")),
                 {"%FLAG CHARGE", "'0x1p+3', which is not a number"});
}

// UBSan: the negation of a dihedral's signed atom index -9223372036854775808 overflowed.
TEST(ReaderHardening, PrmtopDihedralIndexOfTheSmallestLongLongIsRefused) {
  const std::string text = replaced(kTinyPrmtop, "                   6                   9",
                                    "-9223372036854775808                   9");
  expectMentions(prmtopError(text), {"%FLAG DIHEDRALS_WITHOUT_HYDROGEN", "entry 1", "third"});
}

// UBSan: excluded-atom counts near LLONG_MAX overflowed their sum before it was compared to NNB.
TEST(ReaderHardening, PrmtopExcludedAtomCountsThatOverflowTheirSumAreRefused) {
  const std::string text =
      replaced(kTinyPrmtop,
               "                   1                   1                   1                   1",
               " 9223372036854775807 9223372036854775807                   1                   1");
  expectMentions(prmtopError(text), {"%FLAG NUMBER_EXCLUDED_ATOMS", "atom 1", "0..4"});
}

TEST(ReaderHardening, PrmtopNamesWithRawBytesAreRefusedAndEscaped) {
  const std::string message =
      prmtopError(replaced(kTinyPrmtop, "C1  C2  C3  C4  ", "C1  \x1b[2JC3  C4  "));
  expectMentions(message, {"%FLAG ATOM_NAME", "printable text", "\\x1B[2J"});
  // A %FLAG name of binary garbage.
  expectMentions(prmtopError(std::string(kTinyPrmtop) + "%FLAG " + kGarbage + "\n%FORMAT(a80)\n" +
                             "%FLAG " + kGarbage + "\n%FORMAT(a80)\n"),
                 {"appears twice", "\\x1B"});
  // Not a prmtop at all.
  expectMentions(prmtopError(kGarbage + "\n"), {"expected %VERSION or %FLAG", "\\x1B"});
}

TEST(ReaderHardening, PrmtopCountsBeyondTheFileFailWithoutAllocating) {
  // NATOM = 99999999 with four atoms' data: a count error, not an allocation of the count.
  const std::string text =
      replaced(kTinyPrmtop, "%FORMAT(10I8)\n       4       1", "%FORMAT(10I8)\n99999999       1");
  expectMentions(prmtopError(text), {"%FLAG ATOM_NAME", "expected 99999999 entries"});
}

// ---- inpcrd / rst7 ------------------------------------------------------------------------------

std::string inpcrdError(const std::string& text) {
  const TempFile file(text, ".rst7");
  return errorOf([&] { readAmberCoordinates(file.path()); });
}

// Found on main: 1e308 passed as a coordinate.
TEST(ReaderHardening, InpcrdCoordinatesBeyondAMillionAngstromAreRefused) {
  expectMentions(inpcrdError("t\n    1\n  1.0000e308   2.0000000   3.0000000\n"),
                 {":3:", "atom 1", "coordinate x", "beyond"});
  expectMentions(inpcrdError("t\n1\n0 0 -1e7\n"), {":3:", "atom 1", "coordinate z", "beyond"});
  expectMentions(inpcrdError("t\n1\n0 0 1e999\n"), {":3:", "coordinate z", "not a finite"});
  expectMentions(inpcrdError("t\n1\n0 0 0\n 1e300 10 10 90 90 90\n"), {":4:", "box"});
}

// The atom count (6148914691236517206 = (2^64 + 2) / 3) made 3 x atoms wrap around to 2.
TEST(ReaderHardening, InpcrdAtomCountThatWrapsThreeTimesIsRefused) {
  expectMentions(inpcrdError("t\n6148914691236517206\n   1.0000000   2.0000000\n"),
                 {":2:", "number of atoms", "6148914691236517206"});
  expectMentions(inpcrdError("t\n" + kGarbage + "\n"), {":2:", "number of atoms", "\\x1B"});
  expectMentions(inpcrdError("t\n1\n1 2 " + kGarbage + "\n"), {":3:", "\\x1B"});
}

// ---- SOP PDB -----------------------------------------------------------------------------------

std::string caRecord(int serial, int residue, const std::string& x, const std::string& y,
                     const std::string& z) {
  char line[128];
  std::snprintf(line, sizeof line, "ATOM  %5d  CA  ALA A%4d    %8s%8s%8s  1.00  0.00\n", serial,
                residue, x.c_str(), y.c_str(), z.c_str());
  return line;
}

std::string pdbError(const std::string& text) {
  const TempFile file(text, ".pdb");
  const std::string message = errorOf([&] { readSopTopology(file.path()); });
  EXPECT_NE(message.find(file.path()), std::string::npos) << message;
  return message;
}

// Found on main: std::stod read nan, inf and 1e308 as coordinates; the mutation fuzz crashed sop.
TEST(ReaderHardening, SopPdbNonFiniteAndHugeCoordinatesAreRefused) {
  const std::string first = caRecord(1, 1, "0.000", "0.000", "0.000");
  expectMentions(pdbError(first + caRecord(2, 2, "nan", "0.000", "0.000")),
                 {":2:", "x coordinate", "columns 31-38", "non-finite number 'nan'"});
  expectMentions(pdbError(first + caRecord(2, 2, "0.000", "-inf", "0.000")),
                 {":2:", "y coordinate", "non-finite number '-inf'"});
  expectMentions(pdbError(first + caRecord(2, 2, "0.000", "0.000", "1e308")),
                 {":2:", "z coordinate", "'1e308'", "beyond"});
  expectMentions(pdbError(first + caRecord(2, 2, "0.000", "0.000", "1e999")),
                 {":2:", "z coordinate", "(overflow)"});
  expectMentions(pdbError(first + caRecord(2, 2, "0x1p3", "0.000", "0.000")),
                 {":2:", "x coordinate", "not a number"});
}

TEST(ReaderHardening, SopPdbResidueNumbersAndLabelsAreCheckedAndEscaped) {
  std::string bad = caRecord(1, 1, "0.000", "0.000", "0.000");
  bad.replace(22, 4, "1\x1b[A");
  expectMentions(pdbError(bad), {":1:", "residue number", "\\x1B"});
  // A residue without a C-alpha atom whose name is binary garbage.
  std::string noCa = caRecord(1, 1, "0.000", "0.000", "0.000");
  noCa.replace(12, 4, " N  ");
  noCa.replace(17, 3, "\x1b\x07\xff");
  expectMentions(pdbError(noCa + caRecord(2, 2, "3.800", "0.000", "0.000")),
                 {":1:", "no C-alpha", "\\x1B\\x07\\xFF"});
}

// UBSan: the cell count of Sop's neighbour search, a product of three longs, overflowed for 256
// beads or more spread over 1e7 cutoffs; the list was then sized by the wrapped product.
TEST(ReaderHardening, SopCellListOfAHugeSpanDoesNotOverflow) {
  std::vector<SopBead> beads;
  for (int i = 0; i < 300; ++i) {
    const double spread = i % 2 == 0 ? 0.0 : 5e7;
    beads.push_back({"ALA", "A", "", i + 1, spread + 3.8 * i, spread, spread});
  }
  SopTopology top = makeSopTopology(beads, {0}, SopParams{}, "line");
  Sop sop(top);
  const std::vector<double> x = top.nativeCoordinates();
  EXPECT_NO_THROW(sop.repulsivePairs(x.data(), 8.0, false));
}

// Found on main: `sop --replicas 100000000` ended with std::bad_alloc.
TEST(ReaderHardening, SopDynamicsRefusesReplicasThatCannotFit) {
  std::vector<SopBead> beads;
  for (int i = 0; i < 64; ++i) beads.push_back({"ALA", "A", "", i + 1, 3.8 * i, 0.0, 0.0});
  const SopTopology top = makeSopTopology(beads, {0}, SopParams{}, "chain");
  SopDynamicsParams params;
  params.replicas = 100000000;
  setInputMemoryLimit(std::uint64_t{64} << 30);  // 64 GB, whatever this machine has
  const std::string message =
      errorOf([&] { SopDynamicsCpu dynamics(top, top.nativeCoordinates(), params); });
  setInputMemoryLimit(0);
  expectMentions(message, {"SOP dynamics of 100000000 replicas x 64 beads", "would need"});
}

// `gmin --lj 1000000000` ended with std::bad_alloc in the first allocation of 3N coordinates.
TEST(ReaderHardening, LennardJonesClusterThatCannotFitIsRefused) {
  setInputMemoryLimit(std::uint64_t{64} << 30);
  const std::string message = errorOf([] { LennardJones lj(1000000000000); });
  setInputMemoryLimit(0);
  expectMentions(message, {"a Lennard-Jones cluster of 1000000000000 atoms", "would need"});
  EXPECT_NO_THROW(LennardJones(38));
}

#ifdef LANDSCAPE_SOP_EXECUTABLE
// The finding as reported: `sop --replicas 100000000` on titin ended with std::bad_alloc.
TEST(ReaderHardening, SopCommandWithAHundredMillionReplicasEndsWithASentence) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "landscape-hardening-sop-replicas";
  std::filesystem::create_directories(dir);
  const std::string pdb = (dir / "chain.pdb").string();
  std::string text;
  for (int i = 0; i < 64; ++i)  // 64 beads x 1e8 replicas: 1.6 TB, beyond any machine here
    text += caRecord(i + 1, i + 1, std::to_string(3.8 * i).substr(0, 7), "0.000", "0.000");
  std::ofstream(pdb) << text << "END\n";
  const char* env = std::getenv("LANDSCAPE_SOP_EXECUTABLE");
  const std::string sop = env && *env ? env : LANDSCAPE_SOP_EXECUTABLE;
  const std::string log = (dir / "sop.log").string();
  const int status =
      std::system((sop + " --pdb " + pdb + " --replicas 100000000 --steps 1 --output " +
                   (dir / "out").string() + " > " + log + " 2>&1")
                      .c_str());
  std::ifstream in(log);
  const std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove_all(dir);
  EXPECT_NE(status, 0);
  EXPECT_EQ(output.find("bad_alloc"), std::string::npos) << output;
  EXPECT_NE(output.find("SOP dynamics of 100000000 replicas x 64 beads would need"),
            std::string::npos)
      << output;
}
#endif

// ---- xyz / GMIN coords
// ---------------------------------------------------------------------------

std::string coordinatesError(const std::string& text) {
  const TempFile file(text, ".xyz");
  return errorOf([&] { readCoordinates(file.path()); });
}

// The XYZ atom count sized a reservation before the atom lines were counted: 10^18 atoms in a
// three-line file threw std::length_error.
TEST(ReaderHardening, XyzAtomCountBeyondTheFileIsAnErrorNotAnAllocation) {
  expectMentions(coordinatesError("1000000000000000000\ncomment\nLA 0 0 0\n"),
                 {":4:", "expected 1000000000000000000 atoms", "found 1"});
  expectMentions(coordinatesError("1 2 1e7\n"), {":1:", "'1e7'", "beyond"});
  expectMentions(coordinatesError("1 2 " + kGarbage + "\n"), {":1:", "\\x1B"});
  expectMentions(coordinatesError(kGarbage + "\n"), {":1:", "\\x1B"});
}

// ---- keyword and config files ------------------------------------------------------------------

TEST(ReaderHardening, GminDataFieldsWithRawBytesAreRefusedAndEscaped) {
  GminConfig config = gminKeywordDefaults();
  std::istringstream in("EDIFF 0.1\nTEMPERATURE " + kGarbage + "\n");
  expectMentions(errorOf([&] { applyGminKeywords(in, "data", config); }),
                 {"data:2:", "printable text", "\\x1B[2J"});
  std::istringstream keyword(kGarbage + " 1\n");
  expectMentions(errorOf([&] { applyGminKeywords(keyword, "data", config); }), {"data:1:"});
  std::istringstream nan("TEMPERATURE nan\n");
  expectMentions(errorOf([&] { applyGminKeywords(nan, "data", config); }),
                 {"data:1:", "TEMPERATURE", "'nan'"});
}

TEST(ReaderHardening, OdataPointsAreFiniteAndBoundedAndEscaped) {
  OptimConfig config;
  std::istringstream huge("POINTS\nLA 0 0 0\nLA 1e300 0 0\n");
  expectMentions(errorOf([&] { applyOdataKeywords(huge, "odata", config); }),
                 {"odata:3:", "POINTS", "'1e300'", "beyond"});
  std::istringstream garbage("POINTS\nLA 0 0 0\n" + kGarbage + " 1 2 3 4\n");
  expectMentions(errorOf([&] { applyOdataKeywords(garbage, "odata", config); }),
                 {"odata:3:", "\\x1B"});
  std::istringstream field("BFGSMIN " + kGarbage + "\n");
  expectMentions(errorOf([&] { applyOdataKeywords(field, "odata", config); }),
                 {"odata:1:", "printable text"});
}

TEST(ReaderHardening, ConfigFileMessagesEscapeRawBytes) {
  const TempFile config("steps = 10\n" + kGarbage + " = 1\n", ".ini");
  expectMentions(errorOf([&] {
                   parseGminCommandLine(std::vector<std::string>{"--config", config.path()});
                 }),
                 {":2:", "unknown option", "\\x1B"});
  const TempFile value("temperature = " + kGarbage + "\n", ".ini");
  expectMentions(errorOf([&] {
                   parseGminCommandLine(std::vector<std::string>{"--config", value.path()});
                 }),
                 {":1:", "temperature", "\\x1B"});
}

// fuzz_gmin_config: the names of backends, precisions and generators were quoted as given, raw
// bytes and all ("backend must be 'cpu' or 'cuda', not '= t.5:...\xFF\xFF true'").
TEST(ReaderHardening, ChoiceNamesAreQuotedEscaped) {
  const TempFile config("backend = .4\x12\n", ".ini");
  expectMentions(errorOf([&] {
                   parseGminCommandLine(std::vector<std::string>{"--config", config.path()});
                 }),
                 {":1:", "backend: expected cpu or cuda, found '.4\\x12'"});
  for (const auto& parse : std::vector<std::function<void()>>{
           [] { parseBackend("\xff"); }, [] { parsePrecision("\xff"); },
           [] { parseRngKind("\xff"); },
           [] { sopFrictionPreset("\xff"); }}) {
    try {
      parse();
      ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
      expectMentions(e.what(), {"'\\xFF'"});
    }
  }
}

// fuzz_sop_config: messages quoted the option name or value of a --config file as it is.
TEST(ReaderHardening, SopConfigFileMessagesEscapeRawBytes) {
  const TempFile name("steps\xff = 10\n", ".ini");
  expectMentions(
      errorOf([&] {
        parseSopCommandLine(std::vector<std::string>{"--pdb", "x.pdb", "--config", name.path()});
      }),
      {":1:", "unknown option", "steps\\xFF"});
  const TempFile value("replicas = 2\x03\n", ".ini");
  expectMentions(
      errorOf([&] {
        parseSopCommandLine(std::vector<std::string>{"--pdb", "x.pdb", "--config", value.path()});
      }),
      {"replicas", "2\\x03"});
}

// fuzz_sop_config (a hang): Boost replaced %value% in "the argument ('%value%') ..." by the
// value itself, forever.
// fuzz_sop_config: Boost.Program_options expands %value% in its messages until none is left, so a
// value holding one never ended. Config files no longer pass through Boost (a value error names
// the line); on the command line, which Boost parses, such words are refused before it sees them.
TEST(ReaderHardening, OptionValuesWithPercentNamesEndWithAnError) {
  const TempFile config("dt = 0.05%value%\n# 100% comment\n", ".ini");
  expectMentions(
      errorOf([&] {
        parseSopCommandLine(std::vector<std::string>{"--pdb", "x.pdb", "--config", config.path()});
      }),
      {":1:", "dt", "0.05%value%"});
  expectMentions(errorOf([&] {
                   parseSopCommandLine(
                       std::vector<std::string>{"--pdb", "x.pdb", "--steps", "%canonical_option%"});
                 }),
                 {"command line", "'%name%' is not allowed"});
  expectMentions(errorOf([&] {
                   parseGminCommandLine(std::vector<std::string>{"--bogus%value%", "1"});
                 }),
                 {"command line", "'%name%' is not allowed"});
}

TEST(ReaderHardening, PermAllowAndRigidBodyMessagesEscapeRawBytes) {
  const TempFile perm("1\n2 0\n1 " + kGarbage + "\n", ".allow");
  expectMentions(errorOf([&] { readPermAllow(perm.path(), 10); }), {":3:", "\\x1B"});
  const TempFile rigid("GROUP 3\n1\n2\n" + kGarbage + "\n", ".rigid");
  expectMentions(errorOf([&] { readRigidBodies(rigid.path(), 10); }), {":4:", "\\x1B"});
  const TempFile group("GROUP " + kGarbage + "\n", ".rigid");
  expectMentions(errorOf([&] { readRigidBodies(group.path(), 10); }), {":1:", "GROUP size"});
  const TempFile big("GROUP 99999999999999999999\n", ".rigid");
  expectMentions(errorOf([&] { readRigidBodies(big.path(), 10); }), {":1:", "GROUP size"});
}

// ---- gmin's own files read back -----------------------------------------------------------------

std::string checkpointText(const std::string& markov) {
  Checkpoint c;
  c.fingerprint = {{"seed", "1"}};
  c.state.stepSize = 0.4;
  c.state.random = "placeholder";
  std::string text = formatCheckpoint(c);
  // A valid generator state, then the Markov line under test.
  std::ostringstream engine;
  engine << std::mt19937_64();
  text = replaced(text, "random placeholder", "random " + engine.str());
  return resealed(replaced(text, "markov 0x0p+0 0\n", "markov 0x0p+0 " + markov + "\n"));
}

// The vector length of a checkpoint line sized a std::vector before its values were read: 10^18
// threw std::length_error; NaN coordinates were accepted and resumed.
TEST(ReaderHardening, CheckpointLengthsAndValuesAreChecked) {
  const auto error = [](const std::string& text) {
    const TempFile file(text, ".checkpoint");
    return errorOf([&] { readCheckpointFile(file.path()); });
  };
  EXPECT_NO_THROW({
    const TempFile file(checkpointText("3 0x1p+0 0x1p+1 -0x1p+0"), ".checkpoint");
    EXPECT_EQ(readCheckpointFile(file.path()).state.markov.size(), 3u);
  });
  expectMentions(error(checkpointText("1000000000000000000 0x1p+0")),
                 {"'markov' has too few values"});
  expectMentions(error(checkpointText("2 0x1p+0 nan")), {"'nan' in 'markov'", "not a finite"});
  expectMentions(error(checkpointText("2 0x1p+0 inf")), {"'inf' in 'markov'", "not a finite"});
  expectMentions(error(checkpointText("1 " + kGarbage)), {"\\x1B", "not a number"});
  expectMentions(error(kGarbage + "\n"), {":1:", "\\x1B"});
}

std::string lowestError(const std::string& text) {
  const TempFile file(text, ".lowest");
  return errorOf([&] { readLowestFile(file.path()); });
}

TEST(ReaderHardening, LowestCountsAndValuesAreChecked) {
  const std::string energyLine =
      "Energy of minimum      1=    -1.000000000     first found at step        1 after          "
      "           10 function calls\n";
  expectMentions(lowestError("1000000000000000000\n" + energyLine + "LA 0 0 0\n"),
                 {"the file ends after 1 of the 1000000000000000000 atoms"});
  expectMentions(lowestError("1\n" + replaced(energyLine, "-1.000000000", "NaN") + "LA 0 0 0\n"),
                 {":2:", "Energy of minimum"});
  expectMentions(lowestError("1\n" + energyLine + "LA 0 inf 0\n"), {":3:", "LABEL x y z"});
  expectMentions(lowestError("1\n" + energyLine + "LA 0 " + kGarbage + " 0\n"), {":3:", "\\x1B"});
}

std::string bytesOf(const std::vector<std::int32_t>& words) {
  std::string out(4 * words.size(), '\0');
  std::memcpy(out.data(), words.data(), out.size());
  return out;
}

// A DCD record length of 4 GB (0xFFFFFFF0) was allocated before the file was known to hold it;
// a negative atom count sized the frames.
TEST(ReaderHardening, DcdRecordLengthsAndAtomCountsAreChecked) {
  const auto error = [](const std::string& bytes) {
    const TempFile file(bytes, ".dcd");
    return errorOf([&] { readDcd(file.path()); });
  };
  expectMentions(error(bytesOf({static_cast<std::int32_t>(0xFFFFFFF0u), 0})),
                 {"damaged DCD record", "past the end of the file"});
  std::vector<std::int32_t> header = {84, 0x44524f43, 1};  // "CORD", one frame
  header.resize(1 + 21, 0);                                // the length, then 84 bytes
  header.push_back(84);
  std::string file = bytesOf(header) + bytesOf({84}) + std::string(84, ' ') + bytesOf({84});
  expectMentions(error(file + bytesOf({4, -5, 4})), {"atom count -5"});
  // fuzz_dcd: 1,107,296,254 atoms and one declared frame sized a 13 GB frame before its records
  // were read.
  expectMentions(error(file + bytesOf({4, 1107296254, 4}) + bytesOf({8, 0, 0, 8})),
                 {"frame 1 is incomplete", "1107296254 atoms"});
}

TEST(ReaderHardening, PathsampleFilesRefuseNonFiniteValuesAndEscape) {
  const TempFile minData("  -1.0 1.0 1 nan 0 0\n", ".data");
  expectMentions(errorOf([&] { readMinData(minData.path()); }), {":1:", "a moment of inertia"});
  const TempFile tsData("  -1.0 1.0 1 1 2 " + kGarbage + " 0 0\n", ".data");
  expectMentions(errorOf([&] { readTsData(tsData.path()); }), {":1:", "\\x1B"});
  double values[3] = {0.0, std::numeric_limits<double>::quiet_NaN(), 1.0};
  const TempFile points(std::string(reinterpret_cast<const char*>(values), sizeof values), ".pts");
  expectMentions(errorOf([&] { readPoints(points.path(), 3); }),
                 {"record 1 (byte offset 8), coordinate 2", "not finite"});
}

TEST(ReaderHardening, DatabaseWriterRefusesWhatTheReaderRefuses) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "landscape-hardening-minima.h5").string();
  DatabaseMetadata metadata;
  metadata.atoms = 1;
  metadata.energyUnit = "reduced (epsilon)";
  metadata.lengthUnit = "reduced (sigma)";
  StoredMinimum nan{std::numeric_limits<double>::quiet_NaN(), {0, 0, 0}, 1, 1};
  EXPECT_THROW(MinimaDatabase::write(path, metadata, {nan}), std::invalid_argument);
  StoredMinimum infinite{-1.0, {0, std::numeric_limits<double>::infinity(), 0}, 1, 1};
  EXPECT_THROW(MinimaDatabase::write(path, metadata, {infinite}), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace landscape
