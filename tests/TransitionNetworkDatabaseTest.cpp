// The transition-network side of the HDF5 database (TransitionNetworkDatabase in
// landscape/network/Database.h): round trips with transition states and Hessian-derived fields, and
// compatibility with plain minima databases in both directions.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "landscape/network/Database.h"
#include "tests/TempFile.h"

namespace landscape {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

DatabaseMetadata metadata(std::size_t atoms) {
  DatabaseMetadata m;
  m.potential = "Lennard-Jones";
  m.energyUnit = "reduced (epsilon)";
  m.lengthUnit = "reduced (sigma)";
  m.atoms = atoms;
  m.program = "optim";
  return m;
}

std::vector<double> coordinates(std::size_t atoms, double offset) {
  std::vector<double> x(3 * atoms);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = offset + 0.1 * static_cast<double>(i);
  return x;
}

// Three minima (one with unknown properties) and two transition states (one without Hessian).
StoredTransitionNetwork sampleNetwork(std::size_t atoms) {
  StoredTransitionNetwork n;
  for (int i = 0; i < 3; ++i) {
    StoredNetworkMinimum m;
    m.energy = -10.0 - i;
    m.coordinates = coordinates(atoms, i);
    if (i < 2) {
      m.properties.logProductOfPositiveEigenvalues = 12.5 + i;
      m.properties.pointGroupOrder = 2 * i + 1;
      m.properties.principalMoments = {1.0 + i, 2.0, 3.0};
      m.properties.hessianEigenvalues = coordinates(atoms, -i);
    }
    n.minima.push_back(m);
  }
  n.minima[0].firstFoundStep = 17;
  n.minima[0].functionCalls = 1234;
  for (int t = 0; t < 2; ++t) {
    StoredTransitionState ts;
    ts.energy = -5.0 - t;
    ts.coordinates = coordinates(atoms, 10.0 + t);
    ts.plusMinimum = t;
    ts.minusMinimum = 2;
    ts.eigenvalue = -0.5 - t;
    ts.properties.logProductOfPositiveEigenvalues = 9.0 + t;
    ts.properties.pointGroupOrder = 1;
    ts.properties.principalMoments = {4.0, 5.0, 6.0 + t};
    if (t == 0) ts.properties.hessianEigenvalues = coordinates(atoms, 20.0);
    n.transitionStates.push_back(ts);
  }
  return n;
}

bool sameReal(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void expectSameProperties(const StationaryPointProperties& a, const StationaryPointProperties& b,
                          const std::string& what) {
  EXPECT_TRUE(sameReal(a.logProductOfPositiveEigenvalues, b.logProductOfPositiveEigenvalues))
      << what;
  EXPECT_EQ(a.pointGroupOrder, b.pointGroupOrder) << what;
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(sameReal(a.principalMoments[k], b.principalMoments[k])) << what;
  }
  EXPECT_EQ(a.hessianEigenvalues, b.hessianEigenvalues) << what;
}

TEST(TransitionNetworkDatabase, RoundTripWithTransitionStates) {
  const TempFile file("", ".h5");
  const StoredTransitionNetwork written = sampleNetwork(4);
  TransitionNetworkDatabase::write(file.path(), metadata(4), written);
  DatabaseMetadata meta;
  const StoredTransitionNetwork read = TransitionNetworkDatabase::read(file.path(), &meta);
  EXPECT_EQ(meta.atoms, 4u);
  EXPECT_EQ(meta.program, "optim");
  ASSERT_EQ(read.minima.size(), 3u);
  ASSERT_EQ(read.transitionStates.size(), 2u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(read.minima[i].energy, written.minima[i].energy);
    EXPECT_EQ(read.minima[i].coordinates, written.minima[i].coordinates);
    EXPECT_EQ(read.minima[i].firstFoundStep, written.minima[i].firstFoundStep);
    EXPECT_EQ(read.minima[i].functionCalls, written.minima[i].functionCalls);
    expectSameProperties(read.minima[i].properties, written.minima[i].properties,
                         "minimum " + std::to_string(i));
  }
  EXPECT_TRUE(std::isnan(read.minima[2].properties.logProductOfPositiveEigenvalues));
  EXPECT_EQ(read.minima[2].properties.pointGroupOrder, 0);
  for (std::size_t t = 0; t < 2; ++t) {
    const StoredTransitionState &a = read.transitionStates[t], &b = written.transitionStates[t];
    EXPECT_EQ(a.energy, b.energy);
    EXPECT_EQ(a.coordinates, b.coordinates);
    EXPECT_EQ(a.plusMinimum, b.plusMinimum);
    EXPECT_EQ(a.minusMinimum, b.minusMinimum);
    EXPECT_EQ(a.eigenvalue, b.eigenvalue);
    expectSameProperties(a.properties, b.properties, "transition state " + std::to_string(t));
  }
}

TEST(TransitionNetworkDatabase, IsStillAMinimaDatabase) {
  const TempFile file("", ".h5");
  TransitionNetworkDatabase::write(file.path(), metadata(4), sampleNetwork(4));
  const std::vector<StoredMinimum> minima = MinimaDatabase::read(file.path());
  ASSERT_EQ(minima.size(), 3u);
  EXPECT_EQ(minima[0].firstFoundStep, 17);
  EXPECT_EQ(minima[1].firstFoundStep, -1);  // not from basin-hopping
  // Appending plain minima keeps every optional dataset as long as /minima/energy.
  StoredMinimum extra;
  extra.energy = -20.0;
  extra.coordinates = coordinates(4, 7.0);
  MinimaDatabase::append(file.path(), metadata(4), {extra});
  EXPECT_EQ(MinimaDatabase::count(file.path()), 4u);
  const StoredTransitionNetwork after = TransitionNetworkDatabase::read(file.path());
  ASSERT_EQ(after.minima.size(), 4u);
  EXPECT_EQ(after.minima[3].energy, -20.0);
  EXPECT_EQ(after.minima[3].properties.pointGroupOrder, 0);
  EXPECT_TRUE(std::isnan(after.minima[3].properties.principalMoments[0]));
  EXPECT_TRUE(after.minima[3].properties.hessianEigenvalues.empty());
  EXPECT_EQ(after.minima[0].properties.pointGroupOrder, 1);
  EXPECT_EQ(after.transitionStates.size(), 2u);
}

TEST(TransitionNetworkDatabase, ReadsAPlainMinimaDatabase) {
  const TempFile file("", ".h5");
  StoredMinimum m;
  m.energy = -3.0;
  m.coordinates = coordinates(2, 0.0);
  m.firstFoundStep = 5;
  MinimaDatabase::write(file.path(), metadata(2), {m, m});
  const StoredTransitionNetwork network = TransitionNetworkDatabase::read(file.path());
  ASSERT_EQ(network.minima.size(), 2u);
  EXPECT_TRUE(network.transitionStates.empty());
  EXPECT_EQ(network.minima[0].firstFoundStep, 5);
  EXPECT_EQ(network.minima[0].properties.pointGroupOrder, 0);
  EXPECT_TRUE(std::isnan(network.minima[0].properties.logProductOfPositiveEigenvalues));
}

TEST(TransitionNetworkDatabase, EmptyNetworkAndNoHessians) {
  const TempFile file("", ".h5");
  TransitionNetworkDatabase::write(file.path(), metadata(3), {});
  const StoredTransitionNetwork empty = TransitionNetworkDatabase::read(file.path());
  EXPECT_TRUE(empty.minima.empty());
  EXPECT_TRUE(empty.transitionStates.empty());
  StoredTransitionNetwork bare = sampleNetwork(3);
  for (auto& m : bare.minima) m.properties.hessianEigenvalues.clear();
  for (auto& t : bare.transitionStates) t.properties.hessianEigenvalues.clear();
  TransitionNetworkDatabase::write(file.path(), metadata(3), bare);
  const StoredTransitionNetwork back = TransitionNetworkDatabase::read(file.path());
  EXPECT_TRUE(back.minima[0].properties.hessianEigenvalues.empty());
  EXPECT_EQ(back.minima[1].properties.pointGroupOrder, 3);
}

TEST(TransitionNetworkDatabase, RejectsInconsistentNetworksBeforeWriting) {
  const TempFile file("", ".h5");
  StoredTransitionNetwork badIndex = sampleNetwork(4);
  badIndex.transitionStates[1].minusMinimum = 3;
  EXPECT_THROW(TransitionNetworkDatabase::write(file.path(), metadata(4), badIndex),
               std::invalid_argument);
  StoredTransitionNetwork badSize = sampleNetwork(4);
  badSize.transitionStates[0].coordinates.pop_back();
  EXPECT_THROW(TransitionNetworkDatabase::write(file.path(), metadata(4), badSize),
               std::invalid_argument);
  StoredTransitionNetwork badSpectrum = sampleNetwork(4);
  badSpectrum.minima[0].properties.hessianEigenvalues.resize(5);
  try {
    TransitionNetworkDatabase::write(file.path(), metadata(4), badSpectrum);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("minimum 0 has 5 Hessian eigenvalues"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(file.path() + ".tmp"));
  DatabaseMetadata noUnit = metadata(4);
  noUnit.energyUnit.clear();
  EXPECT_THROW(TransitionNetworkDatabase::write(file.path(), noUnit, sampleNetwork(4)),
               std::invalid_argument);
  EXPECT_THROW(TransitionNetworkDatabase::read(file.path() + ".missing"), std::runtime_error);
}

}  // namespace
}  // namespace landscape
