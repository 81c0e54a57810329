// make_rigid_bodies: writes a rigid-body file (GMIN's GROUP format, docs/rigid-bodies.md) for an
// AMBER system, grouping what Mantell, Pitt and Wales (J. Chem. Theory Comput. 2016, section 3.2)
// grouped: peptide bonds, aromatic rings and sp2 centres (landscape/geometry/RigidBodyFinder.h);
// optionally everything farther than a radius from a chosen site as one large body (Mantell et al.
// 2016, Table 5), with an atomistic zone around the site.
//
// Usage: make_rigid_bodies --prmtop F --inpcrd F --out FILE [--no-peptides] [--no-aromatics]
//          [--no-sp2] [--site-residues 1,5,...] [--site-atoms 10,11,...]
//          [--atomistic-radius R] [--large-body-radius R]        (radii in Angstrom)
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "landscape/formats/AtomicFile.h"
#include "landscape/geometry/RigidBodyFinder.h"
#include "potentials/AmberCoordinates.h"
#include "potentials/AmberTopology.h"
#include "potentials/RigidBodySystem.h"
#include "src/common/SharedOptions.h"

namespace {

using namespace landscape;

struct Options {
  std::string prmtop, inpcrd, out;
  RigidBodyFinderParams params;
};

OptionTable<Options> optionTable() {
  OptionTable<Options> t("make_rigid_bodies");
  t.about =
      "usage: make_rigid_bodies --prmtop F --inpcrd F --out FILE [--no-peptides] [--no-aromatics]\n"
      "         [--no-sp2] [--site-residues 1,5,...] [--site-atoms 10,11,...]\n"
      "         [--atomistic-radius R] [--large-body-radius R]   (radii in Angstrom)\n";
  t.helpCommand();
  t.add("prmtop", "F", "AMBER topology", fieldOf(&Options::prmtop));
  t.add("inpcrd", "F", "AMBER coordinates", fieldOf(&Options::inpcrd));
  t.add("out", "FILE", "the rigid-body file to write (GROUP blocks)", fieldOf(&Options::out));
  t.flag("no-peptides", "no peptide-bond bodies",
         fieldOf(&Options::params, &RigidBodyFinderParams::peptideBonds))
      .inverted()
      .defaultText("");
  t.flag("no-aromatics", "no aromatic-ring bodies",
         fieldOf(&Options::params, &RigidBodyFinderParams::aromaticRings))
      .inverted()
      .defaultText("");
  t.flag("no-sp2", "no sp2-centre bodies",
         fieldOf(&Options::params, &RigidBodyFinderParams::sp2Centres))
      .inverted()
      .defaultText("");
  addRigidBodySiteOptions(t, fieldOf(&Options::params));
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    parseToolCommandLine(optionTable(), argc, argv, o);
    const std::string &prmtop = o.prmtop, &inpcrd = o.inpcrd, &out = o.out;
    const RigidBodyFinderParams& params = o.params;
    if (prmtop.empty() || inpcrd.empty() || out.empty())
      throw std::runtime_error("--prmtop, --inpcrd and --out are required (--help lists them)");
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
    // Atomically: an interrupted run never leaves a half-written file (e.g. over an older one).
    writeFileAtomically(out, formatRigidBodies(found.set, comments), "rigid-body file");
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
