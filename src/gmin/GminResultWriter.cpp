#include "src/gmin/GminResultWriter.h"

#include <cstdio>
#include <fstream>

#include "landscape/formats/LowestFile.h"
#include "potentials/AmberCoordinates.h"

namespace landscape {

GminResultWriter::GminResultWriter(const std::string& dir, const Potential& potential,
                                   const AmberTopology* amber, const SopTopology* sop,
                                   const RigidBodySystem* rigid)
    : m_dir(dir), m_amber(amber), m_sop(sop), m_rigid(rigid) {
  m_metadata.potential = potential.name();
  const bool molecular = amber != nullptr || sop != nullptr;
  m_metadata.energyUnit = molecular ? "kcal/mol" : "reduced (epsilon)";
  m_metadata.lengthUnit = molecular ? "Angstrom" : "reduced (sigma)";
  m_metadata.atoms = rigid ? rigid->atomCount() : potential.atomCount();
  m_metadata.program = "gmin";
}

void GminResultWriter::write(const std::vector<StoredMinimum>& searched) const {
  std::vector<StoredMinimum> minima = searched;
  if (m_rigid)
    for (StoredMinimum& m : minima) m.coordinates = m_rigid->toAtoms(m.coordinates);
  writeLowestFile(m_dir + "/lowest", minima);
  MinimaDatabase::write(m_dir + "/minima.h5", m_metadata, minima);
  if (m_sop) writeSopModels(minima);
  if (m_amber) writeAmberFiles(minima);
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
