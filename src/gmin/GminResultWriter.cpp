#include "src/gmin/GminResultWriter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/LowestFile.h"
#include "landscape/geometry/BoxGeometry.h"
#include "landscape/network/DatabaseCompatibility.h"
#include "potentials/AmberCoordinates.h"
#include "src/common/PairSystem.h"

namespace landscape {

GminResultWriter::GminResultWriter(const std::string& dir, const Potential& potential,
                                   const AmberTopology* amber, const SopTopology* sop,
                                   const RigidBodySystem* rigid, const PairModel* pair,
                                   const WaterCluster* water, const GayBerneCluster* ellipsoids,
                                   const SoftStickyDipoleCluster* ssdWater)
    : m_dir(dir),
      m_amber(amber),
      m_sop(sop),
      m_rigid(rigid),
      m_pair(pair),
      m_water(water),
      m_ellipsoids(ellipsoids),
      m_ssdWater(ssdWater) {
  m_metadata.potential = potential.name();
  const bool molecular = amber != nullptr || sop != nullptr || ssdWater != nullptr;
  m_metadata.energyUnit = water        ? water->model.energyUnit
                          : molecular  ? "kcal/mol"
                          : ellipsoids ? "reduced (eps0)"
                                       : "reduced (epsilon)";
  m_metadata.lengthUnit = water        ? water->model.lengthUnit
                          : molecular  ? "Angstrom"
                          : ellipsoids ? "reduced (sigma0)"
                                       : "reduced (sigma)";
  m_metadata.atoms = rigid ? rigid->atomCount() : potential.atomCount();
  m_metadata.program = "gmin";
  const std::string path = m_dir + "/minima.h5";
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return;
  DatabaseMetadata stored;
  StoredTransitionNetwork network = TransitionNetworkDatabase::read(path, &stored);
  const bool characterised =
      std::any_of(network.minima.begin(), network.minima.end(), [](const StoredNetworkMinimum& m) {
        return !std::isnan(m.properties.principalMoments[0]);
      });
  if (network.transitionStates.empty() && network.setA.empty() && network.setB.empty() &&
      network.growth.empty() && !characterised)
    return;  // gmin's own list: rewritten whole, as always
  const std::string different = databaseIncompatibility(stored, m_metadata);
  if (!different.empty())
    throw std::runtime_error(path + " holds another system's network (" + different +
                             "): gmin would replace it; choose another --output");
  m_kept = std::move(network);
  m_keptMetadata = stored;
}

namespace {

// The same minimum as stored: energy and every coordinate equal to rounding (a resumed run's list
// holds the rows it wrote, read back).
bool sameRecord(const StoredNetworkMinimum& a, const StoredMinimum& b) {
  if (std::abs(a.energy - b.energy) > 1e-9 * std::max(1.0, std::abs(a.energy))) return false;
  if (a.coordinates.size() != b.coordinates.size()) return false;
  for (std::size_t k = 0; k < a.coordinates.size(); ++k) {
    const double scale = std::max(1.0, std::abs(a.coordinates[k]));
    if (std::abs(a.coordinates[k] - b.coordinates[k]) > 1e-9 * scale) return false;
  }
  return true;
}

}  // namespace

void GminResultWriter::writeKeepingNetwork(const std::vector<StoredMinimum>& minima) const {
  StoredTransitionNetwork network = *m_kept;
  const std::size_t keptCount = network.minima.size();
  for (const StoredMinimum& m : minima) {
    const auto begin = network.minima.begin();
    if (std::any_of(begin, begin + static_cast<std::ptrdiff_t>(keptCount),
                    [&m](const StoredNetworkMinimum& k) { return sameRecord(k, m); }))
      continue;
    StoredNetworkMinimum added;  // not characterised: optim computes its properties on loading
    added.energy = m.energy;
    added.coordinates = m.coordinates;
    added.firstFoundStep = m.firstFoundStep;
    added.functionCalls = m.functionCalls;
    network.minima.push_back(std::move(added));
  }
  TransitionNetworkDatabase::write(m_dir + "/minima.h5", m_keptMetadata, network);
}

void GminResultWriter::write(const std::vector<StoredMinimum>& searched) const {
  std::vector<StoredMinimum> minima = searched;
  if (m_rigid)
    for (StoredMinimum& m : minima) m.coordinates = m_rigid->toAtoms(m.coordinates);
  if (m_pair && m_pair->box.periodic())
    for (StoredMinimum& m : minima) wrapIntoBox(m.coordinates, m_pair->box);
  if (m_pair && m_pair->speciesCount() > 1) {
    writeLowestFileLabelled(m_dir + "/lowest", minima, speciesLabels(*m_pair, ""));
  } else if (m_water) {
    writeLowestFileLabelled(m_dir + "/lowest", minima, m_water->siteLabels());
  } else if (m_ssdWater) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < m_ssdWater->moleculeCount(); ++i)
      for (const char* marker : {"D", "D", "X", "X"}) labels.emplace_back(marker);
    writeLowestFileLabelled(m_dir + "/lowest", minima, labels);
  } else if (m_ellipsoids) {
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < m_ellipsoids->ellipsoidCount(); ++i)
      for (const char* marker : {"E", "E", "X", "X"}) labels.emplace_back(marker);
    writeLowestFileLabelled(m_dir + "/lowest", minima, labels);
  } else {
    writeLowestFile(m_dir + "/lowest", minima);
  }
  if (m_pair) writePairXyz(minima);
  if (m_ellipsoids) writeEllipsoidXyz(minima);
  if (m_ssdWater) writeSsdWaterXyz(searched);
  if (m_kept)
    writeKeepingNetwork(minima);
  else
    MinimaDatabase::write(m_dir + "/minima.h5", m_metadata, minima);
  if (m_sop) writeSopModels(minima);
  if (m_amber) writeAmberFiles(minima);
}

// Extended XYZ (the comment line's key=value pairs as ASE and OVITO read them): the species
// (GMIN's LA for one species), the energy and, in a periodic box, the lattice and pbc flags.
void GminResultWriter::writePairXyz(const std::vector<StoredMinimum>& minima) const {
  const std::vector<std::string> labels = speciesLabels(*m_pair, "LA");
  const PeriodicBox& box = m_pair->box;
  std::string text;
  char line[256];
  for (std::size_t i = 0; i < minima.size(); ++i) {
    const std::vector<double>& x = minima[i].coordinates;
    text += std::to_string(x.size() / 3) + "\n";
    if (box.periodic()) {
      std::snprintf(line, sizeof line, "Lattice=\"%.10g 0 0 0 %.10g 0 0 0 %.10g\" pbc=\"T T T\" ",
                    box.length[0], box.length[1], box.length[2]);
      text += line;
    }
    std::snprintf(
        line, sizeof line,
        "Properties=species:S:1:pos:R:3 energy=%.10f minimum=%zu first_found_at_quench=%ld "
        "potential=\"%s\"\n",
        minima[i].energy, i + 1, minima[i].firstFoundStep, m_pair->describe().c_str());
    text += line;
    for (std::size_t a = 0; 3 * a + 2 < x.size(); ++a) {
      std::snprintf(line, sizeof line, "%-2s %20.10f %20.10f %20.10f\n", labels[a].c_str(),
                    x[3 * a], x[3 * a + 1], x[3 * a + 2]);
      text += line;
    }
  }
  writeFileAtomically(m_dir + "/minima.xyz", text, "minima.xyz");
}

namespace {

// The unit quaternion (x, y, z, w) of the rotation whose matrix has columns ex, ey, ez (Shepperd,
// J. Guid. Control 1, 223 (1978): the largest of w, x, y, z first, for accuracy).
std::array<double, 4> quaternionOfFrame(const double ex[3], const double ey[3],
                                        const double ez[3]) {
  const double m00 = ex[0], m11 = ey[1], m22 = ez[2];
  const double trace = m00 + m11 + m22;
  double x, y, z, w;
  if (trace >= m00 && trace >= m11 && trace >= m22) {
    w = 0.5 * std::sqrt(1.0 + trace);
    const double f = 0.25 / w;
    x = (ey[2] - ez[1]) * f, y = (ez[0] - ex[2]) * f, z = (ex[1] - ey[0]) * f;
  } else if (m00 >= m11 && m00 >= m22) {
    x = 0.5 * std::sqrt(1.0 + m00 - m11 - m22);
    const double f = 0.25 / x;
    w = (ey[2] - ez[1]) * f, y = (ey[0] + ex[1]) * f, z = (ez[0] + ex[2]) * f;
  } else if (m11 >= m22) {
    y = 0.5 * std::sqrt(1.0 - m00 + m11 - m22);
    const double f = 0.25 / y;
    w = (ez[0] - ex[2]) * f, x = (ey[0] + ex[1]) * f, z = (ez[1] + ey[2]) * f;
  } else {
    z = 0.5 * std::sqrt(1.0 - m00 - m11 + m22);
    const double f = 0.25 / z;
    w = (ex[1] - ey[0]) * f, x = (ez[0] + ex[2]) * f, y = (ez[1] + ey[2]) * f;
  }
  if (w < 0.0) x = -x, y = -y, z = -z, w = -w;
  return {x, y, z, w};
}

}  // namespace

// Extended XYZ of the ellipsoids (OVITO's Orientation and Aspherical Shape columns): the centre,
// the body frame's quaternion (its z the symmetry axis, from markers 0 and 1; its x from markers
// 2 and 3) and the semi-axes sigma0 / 2, sigma0 / 2, kappa sigma0 / 2.
void GminResultWriter::writeEllipsoidXyz(const std::vector<StoredMinimum>& minima) const {
  const GayBerneParams& p = m_ellipsoids->params;
  const std::size_t n = m_ellipsoids->ellipsoidCount();
  std::string text;
  char line[512];
  for (std::size_t i = 0; i < minima.size(); ++i) {
    const std::vector<double>& x = minima[i].coordinates;
    std::snprintf(line, sizeof line,
                  "%zu\nProperties=species:S:1:pos:R:3:orientation:R:4:aspherical_shape:R:3 "
                  "energy=%.10f minimum=%zu first_found_at_quench=%ld units=\"reduced: sigma0, "
                  "eps0\" potential=\"Gay-Berne kappa %.6g kappa' %.6g mu %.6g nu %.6g\"\n",
                  n, minima[i].energy, i + 1, minima[i].firstFoundStep, p.kappa, p.kappaPrime, p.mu,
                  p.nu);
    text += line;
    for (std::size_t k = 0; k < n; ++k) {
      const double* m = &x[3 * kGayBerneMarkers * k];
      double centre[3], ez[3], ex[3], ey[3];
      GayBerne::centreAndAxis(x.data(), k, centre, ez);
      double norm = 0.0;
      for (int c = 0; c < 3; ++c) {
        ex[c] = m[6 + c] - m[9 + c];
        norm += ex[c] * ex[c];
      }
      for (int c = 0; c < 3; ++c) ex[c] /= std::sqrt(norm);
      ey[0] = ez[1] * ex[2] - ez[2] * ex[1];
      ey[1] = ez[2] * ex[0] - ez[0] * ex[2];
      ey[2] = ez[0] * ex[1] - ez[1] * ex[0];
      const std::array<double, 4> q = quaternionOfFrame(ex, ey, ez);
      std::snprintf(line, sizeof line,
                    "E %18.10f %18.10f %18.10f %14.10f %14.10f %14.10f %14.10f %.6g %.6g %.6g\n",
                    centre[0], centre[1], centre[2], q[0], q[1], q[2], q[3], 0.5 * p.sigma0,
                    0.5 * p.sigma0, 0.5 * p.kappa * p.sigma0);
      text += line;
    }
  }
  writeFileAtomically(m_dir + "/ellipsoids.xyz", text, "ellipsoids.xyz");
}

// Extended XYZ of SSD water drawn as O, H, H (the model has one centre; the hydrogens show its
// frame), from the search's rigid coordinates.
void GminResultWriter::writeSsdWaterXyz(const std::vector<StoredMinimum>& searched) const {
  const std::size_t n = m_ssdWater->moleculeCount();
  std::string text;
  char line[256];
  for (std::size_t i = 0; i < searched.size(); ++i) {
    const std::vector<double> atoms = m_ssdWater->drawnAtoms(searched[i].coordinates);
    std::snprintf(line, sizeof line,
                  "%zu\nProperties=species:S:1:pos:R:3 energy=%.10f minimum=%zu "
                  "first_found_at_quench=%ld units=\"kcal/mol, Angstrom\" potential=\"SSD water "
                  "(Liu and Ichiye 1996)\"\n",
                  3 * n, searched[i].energy, i + 1, searched[i].firstFoundStep);
    text += line;
    for (std::size_t a = 0; a < 3 * n; ++a) {
      std::snprintf(line, sizeof line, "%s %18.10f %18.10f %18.10f\n", a % 3 == 0 ? "O" : "H",
                    atoms[3 * a], atoms[3 * a + 1], atoms[3 * a + 2]);
      text += line;
    }
  }
  writeFileAtomically(m_dir + "/water.xyz", text, "water.xyz");
}

void GminResultWriter::writeSopModels(const std::vector<StoredMinimum>& minima) const {
  for (std::size_t i = 0; i < minima.size(); ++i) {
    char stem[32];
    std::snprintf(stem, sizeof stem, "/minimum_%03zu.pdb", i + 1);
    char remark[128];
    std::snprintf(remark, sizeof remark, "REMARK gmin SOP minimum %zu E = %.6f kcal/mol\n", i + 1,
                  minima[i].energy);
    std::string text = remark;
    appendSopPdbModel(text, *m_sop, minima[i].coordinates.data(), 1);
    text += "END\n";
    std::ofstream(m_dir + stem) << text;
  }
}

void GminResultWriter::writeAmberFiles(const std::vector<StoredMinimum>& minima) const {
  for (std::size_t i = 0; i < minima.size(); ++i) {
    char stem[32];
    std::snprintf(stem, sizeof stem, "/minimum_%03zu", i + 1);
    char title[128];
    std::snprintf(title, sizeof title,
                  "gmin minimum %zu E = %.6f kcal/mol, first found at quench %ld", i + 1,
                  minima[i].energy, minima[i].firstFoundStep);
    writePdb(m_dir + stem + ".pdb", *m_amber, minima[i].coordinates, title);
    writeAmberRestart(m_dir + stem + ".rst7", minima[i].coordinates, title);
  }
}

}  // namespace landscape
