// Rigid TIP4P water clusters (potentials/WaterCluster; Jorgensen, Chandrasekhar, Madura, Impey and
// Klein, J. Chem. Phys. 79, 926 (1983)) in GMIN's units, kJ/mol and Angstrom: the model's
// constants against the paper, energies against ASE's independent TIP4P calculator
// (tests/data/water/tip4p_ase.txt, tools/utilities/make_tip4p_references.py), GMIN's example
// coordinates through GMIN's angle-axis convention, and the TIP4P dimer minimum of the Cambridge
// Cluster Database.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "landscape/formats/CoordinatesFile.h"
#include "landscape/minimisation/Lbfgs.h"
#include "potentials/RigidBodyPotential.h"
#include "potentials/RigidBodyTerms.h"
#include "potentials/SitePotential.h"
#include "potentials/WaterCluster.h"
#include "tests/FiniteDifferences.h"
#include "tests/TestData.h"

namespace landscape {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(WaterCluster, Tip4pConstantsAreJorgensens) {
  // Table I of Jorgensen et al. 1983: A = 600e3 kcal A^12/mol, C = 610 kcal A^6/mol, q_H = 0.52,
  // r_OH = 0.9572 A, HOH = 104.52 degrees, r_OM = 0.15 A; 4.184 kJ/kcal.
  EXPECT_NEAR(kTip4pC12, 600e3 * 4.184, 1e-9);
  EXPECT_NEAR(kTip4pC6, 610.0 * 4.184, 1e-12);
  // The paper's eps = 0.1550 kcal/mol = 0.6485 kJ/mol and sigma = 3.15365 A, to the rounding of
  // A and C: C6^2 / (4 C12) = 0.64870 kJ/mol, (C12 / C6)^(1/6) = 3.15358 A.
  EXPECT_NEAR(kTip4pC6 * kTip4pC6 / (4.0 * kTip4pC12), 0.1550 * 4.184, 3e-4);
  EXPECT_NEAR(std::pow(kTip4pC12 / kTip4pC6, 1.0 / 6.0), 3.15365, 1e-4);
  EXPECT_EQ(kTip4pChargeM, -2.0 * kTip4pChargeH);
  const std::vector<double> s = tip4pBodyFrame();
  ASSERT_EQ(s.size(), 12u);
  const double h1[3] = {s[3], s[4], s[5]}, h2[3] = {s[6], s[7], s[8]};
  const double r1 = std::sqrt(h1[0] * h1[0] + h1[1] * h1[1] + h1[2] * h1[2]);
  const double r2 = std::sqrt(h2[0] * h2[0] + h2[1] * h2[1] + h2[2] * h2[2]);
  EXPECT_NEAR(r1, 0.9572, 1e-9);
  EXPECT_NEAR(r2, 0.9572, 1e-9);
  const double angle = std::acos((h1[0] * h2[0] + h1[1] * h2[1] + h1[2] * h2[2]) / (r1 * r2));
  EXPECT_NEAR(angle * 180.0 / kPi, 104.52, 1e-7);
  // M on the bisector (-z), 0.15 A from O.
  EXPECT_EQ(s[9], 0.0);
  EXPECT_EQ(s[10], 0.0);
  EXPECT_EQ(s[11], -0.15);
  EXPECT_EQ(h1[2], h2[2]);
  EXPECT_EQ(h1[0], -h2[0]);

  const WaterCluster w = tip4pCluster(3);
  EXPECT_EQ(w.model.name, "TIP4P water x 3");
  EXPECT_EQ(w.model.energyUnit, "kJ/mol");
  EXPECT_EQ(w.model.siteCount(), 12u);
  EXPECT_EQ(w.bodies.bodyCount(), 3u);
  EXPECT_TRUE(w.bodies.freeAtoms().empty());
  EXPECT_EQ(w.rigidSystem().dimension(), 18u);
}

// tests/data/water/tip4p_ase.txt: "structure NAME N E_GMIN_K E_ASE", then 4N "X x y z" lines;
// tip4p_ions_ase.txt: "structure NAME N K E_GMIN_K E_ASE", the 4N site lines, then K ion lines
// ("Na x y z", "Cl x y z").
struct AseStructure {
  std::string name;
  std::size_t molecules = 0, ions = 0;
  double energyGminK = 0.0, energyAse = 0.0;
  std::string ionList;  // for tip4pIonsFromList, e.g. "Na+,Cl-"
  std::vector<double> sites;
};

std::vector<AseStructure> readAseReferences(const std::string& path, bool withIons) {
  std::ifstream in(path);
  std::vector<AseStructure> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string head;
    fields >> head;
    if (head == "structure") {
      out.emplace_back();
      AseStructure& r = out.back();
      fields >> r.name >> r.molecules;
      if (withIons) fields >> r.ions;
      fields >> r.energyGminK >> r.energyAse;
      continue;
    }
    if (head == "Na" || head == "Cl")
      out.back().ionList +=
          (out.back().ionList.empty() ? "" : ",") + head + (head == "Na" ? "+" : "-");
    double x, y, z;
    fields >> x >> y >> z;
    out.back().sites.insert(out.back().sites.end(), {x, y, z});
  }
  return out;
}

std::vector<AseStructure> aseReferences() {
  const auto path = testDataPath("water/tip4p_ase.txt");
  if (!path) return {};
  return readAseReferences(*path, false);
}

TEST(WaterCluster, EnergiesMatchAse) {
  const std::vector<AseStructure> refs = aseReferences();
  if (refs.empty()) GTEST_SKIP() << "tests/data/water/tip4p_ase.txt not found";
  ASSERT_EQ(refs.size(), 5u);
  for (const AseStructure& r : refs) {
    SCOPED_TRACE(r.name);
    const WaterCluster w = tip4pCluster(r.molecules);
    ASSERT_EQ(r.sites.size(), 3 * w.model.siteCount());
    SitePotential sites(w.model);
    const double e = sites.energy(r.sites.data());
    // Same constants as ASE with GMIN's Coulomb constant: agreement to rounding.
    EXPECT_NEAR(e, r.energyGminK, 1e-9 * (1.0 + std::abs(e)));
    // ASE as shipped: its Coulomb constant is 1.96e-7 relative below GMIN's, so the energies
    // differ by that fraction of the Coulomb energy.
    const double coulomb = sites.energyComponents(r.sites.data())[1].value;
    EXPECT_NEAR(e - r.energyAse, 1.9637e-7 * coulomb, 1e-4 * 1.9637e-7 * std::abs(coulomb));
    // The same geometry as rigid bodies: our rigid coordinates of the sites give the same energy.
    RigidBodyPotential rigid(sites, w.rigidSystem());
    const std::vector<double> q = w.rigidSystem().fromAtoms(r.sites);
    EXPECT_NEAR(rigid.energy(q.data()), r.energyGminK, 1e-7 * (1.0 + std::abs(e)));
  }
}

TEST(WaterCluster, GminExampleThroughGminsConvention) {
  const auto coordsPath = testDataPath("water/gmin-tip4p/coords");
  const std::vector<AseStructure> refs = aseReferences();
  if (!coordsPath || refs.empty()) GTEST_SKIP() << "tests/data/water not found";
  const std::vector<double> gmin = readCoordinates(*coordsPath);  // 16 lines of 3 numbers
  ASSERT_EQ(gmin.size(), 48u);
  const WaterCluster w = tip4pCluster(8);
  const std::vector<double> sites = w.gminToSites(gmin);
  // The script placed the sites with GMIN's own component formula (O + R(-p) s0), independently.
  const AseStructure& ref = refs.at(3);
  ASSERT_EQ(ref.name, "gmin_example");
  ASSERT_EQ(ref.sites.size(), sites.size());
  for (std::size_t i = 0; i < sites.size(); ++i) EXPECT_NEAR(sites[i], ref.sites[i], 1e-9) << i;
  SitePotential p(w.model);
  const double e = p.energy(sites.data());
  EXPECT_NEAR(e, ref.energyGminK, 1e-9 * (1.0 + std::abs(e)));
  // Our rigid coordinates of the same structure, and back to GMIN's: same sites.
  RigidBodyPotential rigid(p, w.rigidSystem());
  const std::vector<double> q = w.gminToRigid(gmin);
  EXPECT_NEAR(rigid.energy(q.data()), ref.energyGminK, 1e-8);
  const std::vector<double> back = w.gminToSites(w.sitesToGmin(sites));
  for (std::size_t i = 0; i < sites.size(); ++i) EXPECT_NEAR(back[i], sites[i], 1e-10) << i;
  // GMIN's p is the inverse rotation of ours: p_gmin = -p (up to 2 pi), O the first site.
  const std::vector<double> again = w.sitesToGmin(sites);
  for (std::size_t m = 0; m < 8; ++m) {
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(again[3 * m + c], gmin[3 * m + c], 1e-12);
    const double* pg = &again[24 + 3 * m];
    const double* pq = &q[24 + 3 * m];
    double Rg[9], Rq[9];
    rotationMatrix(pg, Rg);
    rotationMatrix(pq, Rq);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(Rg[3 * i + j], Rq[3 * j + i], 1e-10);
  }
}

// The lowest TIP4P (H2O)21 minimum our gmin has found (tests/data/water/tip4p21_gm.xyz: BHPT
// walkers on the GPU, docs/water.md): ASE's independent TIP4P gives it -916.70937 kJ/mol
// (EnergiesMatchAse checks ours against it to rounding), which is Wales and Hodges's tabulated
// -916.71 (Chem. Phys. Lett. 286, 65 (1998), as tests/data/clusters/tip4p_wales_hodges.tsv quotes
// it) to its two decimals; and it is a minimum: an L-BFGS quench in rigid coordinates from it to
// RMS 1e-6 kJ/mol/A lowers it by less than 1e-6 kJ/mol.
TEST(WaterCluster, Tip4p21MinimumIsTheTabulatedOne) {
  const std::vector<AseStructure> refs = aseReferences();
  if (refs.empty()) GTEST_SKIP() << "tests/data/water/tip4p_ase.txt not found";
  const AseStructure& ref = refs.back();
  ASSERT_EQ(ref.name, "gm_n21");
  ASSERT_EQ(ref.molecules, 21u);
  EXPECT_NEAR(ref.energyGminK, -916.71, 0.005);
  const WaterCluster w = tip4pCluster(21);
  SitePotential sites(w.model);
  RigidBodyPotential rigid(sites, w.rigidSystem());
  std::vector<double> q = w.rigidSystem().fromAtoms(ref.sites);
  std::vector<double> g(q.size());
  EXPECT_LT(rigid.rmsGradient(q.data(), g.data()), 1e-3);
  LbfgsParams params;
  params.maxIterations = 2000;
  params.rmsTolerance = 1e-6;
  const LbfgsResult result = Lbfgs(params).minimize(rigid, q);
  EXPECT_TRUE(result.converged()) << lbfgsStatusName(result.status);
  EXPECT_NEAR(result.energy, ref.energyGminK, 1e-6);
}

TEST(WaterCluster, GminCoordinatesOfTheWrongSizeAreRefused) {
  const WaterCluster w = tip4pCluster(2);
  EXPECT_THROW(w.gminToSites(std::vector<double>(11)), std::invalid_argument);
}

TEST(WaterCluster, Tip4pDimerMinimumIsTheCambridgeClusterDatabases) {
  // The TIP4P dimer global minimum of Wales and Hodges, Chem. Phys. Lett. 286, 65 (1998):
  // -26.08757 kJ/mol as tests/data/clusters/tip4p_wales_hodges.tsv quotes it (unverified against
  // the Cambridge Cluster Database; we reach -26.08762). Start: a hydrogen bond, the acceptor
  // oxygen 2.9 A from the donor along one of its O-H bonds, the acceptor's hydrogens pointing away.
  const WaterCluster w = tip4pCluster(2);
  const std::vector<double> s = tip4pBodyFrame();
  const double r = std::sqrt(s[3] * s[3] + s[5] * s[5]);
  const double u[3] = {s[3] / r, 0.0, s[5] / r};
  // The acceptor's bisector (body -z) turned onto u by about 52 degrees about y (GMIN's p rotates
  // by R(-p)), so that its hydrogens point away from the donor; then perturbed.
  std::vector<double> gmin = {
      0.0, 0.0, 0.0, 2.9 * u[0], 0.3, 2.9 * u[2], 0.0, 0.0, 0.0, 0.3, std::asin(u[0]) + 0.2, -0.2};
  SitePotential sites(w.model);
  RigidBodyPotential rigid(sites, w.rigidSystem());
  std::vector<double> q = w.gminToRigid(gmin);
  const double start = rigid.energy(q.data());
  EXPECT_LT(start, -10.0);
  LbfgsParams params;
  params.maxIterations = 2000;
  params.rmsTolerance = 1e-7;
  const LbfgsResult result = Lbfgs(params).minimize(rigid, q);
  EXPECT_TRUE(result.converged()) << lbfgsStatusName(result.status);
  EXPECT_NEAR(result.energy, -26.08757, 1e-4);
  std::ostringstream energy;
  energy.precision(10);
  energy << result.energy;
  RecordProperty("energy_kj_per_mol", energy.str());
  // O-O distance and energy of the TIP4P dimer as Jorgensen et al. 1983 report them (Table II:
  // 2.75 A, -6.24 kcal/mol = -26.11 kJ/mol, both rounded).
  const std::vector<double> x = w.rigidSystem().toAtoms(q);
  const double d[3] = {x[12] - x[0], x[13] - x[1], x[14] - x[2]};
  const double roo = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  EXPECT_NEAR(roo, 2.75, 0.005);
  EXPECT_NEAR(result.energy / 4.184, -6.24, 0.005);
  RecordProperty("oo_distance_angstrom", std::to_string(roo));
}

std::vector<AseStructure> aseIonReferences() {
  const auto path = testDataPath("water/tip4p_ions_ase.txt");
  if (!path) return {};
  return readAseReferences(*path, true);
}

TEST(WaterIons, EnergiesMatchAse) {
  const std::vector<AseStructure> refs = aseIonReferences();
  if (refs.empty()) GTEST_SKIP() << "tests/data/water/tip4p_ions_ase.txt not found";
  ASSERT_EQ(refs.size(), 6u);
  for (const AseStructure& r : refs) {
    SCOPED_TRACE(r.name);
    const WaterCluster w = tip4pCluster(r.molecules, tip4pIonsFromList(r.ionList));
    ASSERT_EQ(w.ionCount(), r.ions);
    ASSERT_EQ(w.moleculeCount(), r.molecules);
    ASSERT_EQ(r.sites.size(), 3 * w.model.siteCount());
    SitePotential sites(w.model);
    const double e = sites.energy(r.sites.data());
    EXPECT_NEAR(e, r.energyGminK, 1e-9 * (1.0 + std::abs(e)));
    // ASE's own Coulomb constant, 1.9637e-7 relative below GMIN's, in every Coulomb pair.
    const double coulomb = sites.energyComponents(r.sites.data())[1].value;
    EXPECT_NEAR(e - r.energyAse, 1.9637e-7 * coulomb, 1e-4 * 1.9637e-7 * std::abs(coulomb) + 1e-9);
    // As rigid molecules and free ions: the same energy from our rigid coordinates.
    RigidBodyPotential rigid(sites, w.rigidSystem());
    const std::vector<double> q = w.rigidSystem().fromAtoms(r.sites);
    ASSERT_EQ(q.size(), 6 * r.molecules + 3 * r.ions);
    EXPECT_NEAR(rigid.energy(q.data()), r.energyGminK, 1e-7 * (1.0 + std::abs(e)));
  }
}

TEST(WaterIons, RigidGradientMatchesFiniteDifferences) {
  const std::vector<AseStructure> refs = aseIonReferences();
  if (refs.empty()) GTEST_SKIP() << "tests/data/water/tip4p_ions_ase.txt not found";
  const AseStructure& r = refs.back();
  ASSERT_EQ(r.name, "nacl_h2o_8");
  const WaterCluster w = tip4pCluster(r.molecules, tip4pIonsFromList(r.ionList));
  SitePotential sites(w.model);
  expectGradientMatchesDifferences(sites, r.sites, 1e-6);
  // Angle-axis vectors and the ions' Cartesians (the last 6 coordinates) together.
  RigidBodyPotential rigid(sites, w.rigidSystem());
  std::vector<double> q = w.rigidSystem().fromAtoms(r.sites);
  for (std::size_t i = 3 * r.molecules; i < 6 * r.molecules; ++i) q[i] += 0.1;  // p away from 0
  expectGradientMatchesDifferences(rigid, q, 1e-6);
}

TEST(WaterIons, IonsAreFreeAtomsAfterTheMolecules) {
  const WaterCluster w = tip4pCluster(3, tip4pIonsFromList("Na+:2,Cl-"));
  EXPECT_EQ(w.model.name, "TIP4P water x 3 + Na+ x 2 + Cl- x 1");
  EXPECT_EQ(w.moleculeCount(), 3u);
  EXPECT_EQ(w.ionCount(), 3u);
  EXPECT_EQ(w.model.siteCount(), 15u);
  EXPECT_EQ(w.model.moleculeCount(), 6u);
  const RigidBodySystem system = w.rigidSystem();
  EXPECT_EQ(system.bodyCount(), 3u);
  EXPECT_EQ(system.freeAtoms(), (std::vector<std::size_t>{12, 13, 14}));
  EXPECT_EQ(system.dimension(), 27u);
  EXPECT_EQ(w.siteLabels(), (std::vector<std::string>{"O", "H", "H", "X", "O", "H", "H", "X", "O",
                                                      "H", "H", "X", "Na", "Na", "Cl"}));
  // OPLS-AA's Na+ and Cl- (opls_407, opls_401) as the model's c6 and c12 (4 eps sigma^6, ^12).
  EXPECT_EQ(w.model.charge[12], 1.0);
  EXPECT_EQ(w.model.charge[14], -1.0);
  EXPECT_NEAR(w.model.c6[12], 4.0 * 0.0115980 * std::pow(3.33045, 6), 1e-12);
  EXPECT_NEAR(w.model.c12[14], 4.0 * 0.492833 * std::pow(4.41724, 12), 1e-3);
  // GMIN's layout with the ions' positions last, both ways.
  std::vector<double> gmin = {0.0, 0.0,  0.0, 2.8,  0.1, 0.0,  0.0,  2.9,  -0.2,  //
                              0.3, -0.2, 0.1, 1.0,  0.5, -0.4, -2.0, 0.2,  0.9,   //
                              1.5, 1.5,  1.5, -1.5, 1.4, 0.0,  0.2,  -2.5, 1.0};
  const std::vector<double> sites = w.gminToSites(gmin);
  ASSERT_EQ(sites.size(), 45u);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(sites[36 + i], gmin[18 + i]);
  const std::vector<double> back = w.sitesToGmin(sites);
  for (std::size_t i = 0; i < gmin.size(); ++i) EXPECT_NEAR(back[i], gmin[i], 1e-12) << i;
  const std::vector<double> q = w.gminToRigid(gmin);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(q[18 + i], gmin[18 + i], 1e-12);
  EXPECT_THROW(w.gminToSites(std::vector<double>(18)), std::invalid_argument);
  // Masses: the ions' own on the free atoms.
  const RigidBodyMasses masses = w.masses();
  EXPECT_NEAR(masses.freeAtomMasses.at(0), 22.98977, 1e-12);
  EXPECT_NEAR(masses.freeAtomMasses.at(2), 35.453, 1e-12);
  // One molecule is enough with an ion; none is not.
  EXPECT_NO_THROW(tip4pCluster(1, tip4pIonsFromList("Cl-")));
  EXPECT_THROW(tip4pCluster(1), std::invalid_argument);
  EXPECT_THROW(tip4pCluster(0, tip4pIonsFromList("Na+,Cl-")), std::invalid_argument);
}

TEST(WaterIons, ListsNameKnownIonsWithCounts) {
  EXPECT_TRUE(tip4pIonsFromList("").empty());
  const std::vector<WaterIon> ions = tip4pIonsFromList("Cl-,Na+:3");
  ASSERT_EQ(ions.size(), 4u);
  EXPECT_EQ(ions[0].name, "Cl-");
  for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(ions[i].name, "Na+");
  const auto refused = [](const std::string& list, const std::string& part) {
    try {
      tip4pIonsFromList(list);
      ADD_FAILURE() << list << ": no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refused("K+", "known: Na+, Cl-");
  refused("Na", "entry 'Na' names no known ion");
  refused("Na+:0", "not an integer from 1 to 100000");
  refused("Na+:2.5", "not an integer");
  refused("Na+:", "not an integer");
  refused("Na+:-1", "not an integer");
  refused("Na+:1000000", "not an integer");
  refused("Na+,", "entry '' is empty");
  refused(",Cl-", "is empty");
}

}  // namespace
}  // namespace landscape
