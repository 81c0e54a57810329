// make_rigid_bodies: writes a rigid-body file (GMIN's GROUP format, docs/rigid-bodies.md) for an
// AMBER system, grouping what seed 001 (section 3.2) grouped: peptide bonds, aromatic rings and
// sp2 centres (landscape/geometry/RigidBodyFinder.h); optionally everything farther than a radius from a
// chosen site as one large body (seed 001 Table 5), with an atomistic zone around the site.
//
// Usage: make_rigid_bodies --prmtop F --inpcrd F --out FILE [--no-peptides] [--no-aromatics]
//          [--no-sp2] [--site-residues 1,5,...] [--site-atoms 10,11,...]
//          [--atomistic-radius R] [--large-body-radius R]        (radii in Angstrom)
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/geometry/RigidBodyFinder.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "potentials/RigidBodySystem.h"

namespace {

using namespace landscape;

std::vector<int> integers(const std::string& s, const std::string& option) {
  std::vector<int> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty())
      throw std::runtime_error(option + ": '" + item + "' is not an integer");
    out.push_back(v);
  }
  return out;
}

const char* kUsage =
    "usage: make_rigid_bodies --prmtop F --inpcrd F --out FILE [--no-peptides] [--no-aromatics]\n"
    "         [--no-sp2] [--site-residues 1,5,...] [--site-atoms 10,11,...]\n"
    "         [--atomistic-radius R] [--large-body-radius R]   (radii in Angstrom)\n";

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string prmtop, inpcrd, out;
    RigidBodyFinderParams params;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--help" || a == "-h") {
        std::printf("%s", kUsage);
        return 0;
      }
      if (a == "--no-peptides") {
        params.peptideBonds = false;
        continue;
      }
      if (a == "--no-aromatics") {
        params.aromaticRings = false;
        continue;
      }
      if (a == "--no-sp2") {
        params.sp2Centres = false;
        continue;
      }
      const bool takesValue = a == "--prmtop" || a == "--inpcrd" || a == "--out" ||
                              a == "--site-residues" || a == "--site-atoms" ||
                              a == "--atomistic-radius" || a == "--large-body-radius";
      if (!takesValue) throw std::runtime_error("unknown option " + a + "\n" + kUsage);
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--prmtop")
        prmtop = v;
      else if (a == "--inpcrd")
        inpcrd = v;
      else if (a == "--out")
        out = v;
      else if (a == "--site-residues")
        params.centreResidues = integers(v, a);
      else if (a == "--site-atoms")
        params.centreAtoms = integers(v, a);
      else if (a == "--atomistic-radius")
        params.atomisticRadius = std::stod(v);
      else  // --large-body-radius
        params.largeBodyRadius = std::stod(v);
    }
    if (prmtop.empty() || inpcrd.empty() || out.empty())
      throw std::runtime_error(std::string("--prmtop, --inpcrd and --out are required\n") + kUsage);
    const AmberTopology topology = readAmberTopology(prmtop);
    const std::vector<double> x = readAmberCoordinates(inpcrd, topology).positions;
    const RigidBodyFinderResult found = findRigidBodies(topology, x, params);
    // Validates every body against the structure (collinear bodies are refused here, not at run).
    const RigidBodySystem system(found.set, x);
    std::vector<std::string> comments = {
        "rigid bodies for " + prmtop + " (" + std::to_string(x.size() / 3) +
        " atoms) by "
        "make_rigid_bodies: " +
        std::to_string(found.peptideBonds) + " peptide bonds, " +
        std::to_string(found.aromaticRings) + " aromatic rings, " +
        std::to_string(found.sp2Centres) + " sp2 centres" +
        (found.largeBodyAtoms > 0
             ? ", one large body of " + std::to_string(found.largeBodyAtoms) + " atoms"
             : std::string())};
    for (std::size_t b = 0; b < found.descriptions.size(); ++b)
      comments.push_back("body " + std::to_string(b + 1) + ": " + found.descriptions[b]);
    writeRigidBodies(out, found.set, comments);
    std::printf(
        "%s: %zu bodies (%d peptide bonds, %d aromatic rings, %d sp2 centres%s), largest "
        "%zu atoms, %zu free atoms of %zu\n",
        out.c_str(), found.set.bodyCount(), found.peptideBonds, found.aromaticRings,
        found.sp2Centres,
        found.largeBodyAtoms > 0
            ? (", large body " + std::to_string(found.largeBodyAtoms) + " atoms").c_str()
            : "",
        system.largestBody(), system.freeAtomCount(), system.atomCount());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_rigid_bodies: error: %s\n", e.what());
    return 1;
  }
}
