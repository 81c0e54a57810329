#pragma once
// Topology of the self-organized polymer (SOP) model (Zhmurov, Rybnikov, Kholodov and Barsegov, J.
// Phys. Chem. B 2011, Appendix B, eq B1): one bead per residue at its C-alpha atom, FENE bonds
// between consecutive residues of a chain, native contacts for the pairs closer than a cutoff in
// the native (PDB) structure, every other pair repulsive (i, i+2 included). Units: kcal/mol,
// Angstrom.
#include <cstddef>
#include <string>
#include <vector>

namespace landscape {

/// The parameters of eq B1 and of the reader, with the values of Zhmurov et al. 2011, Appendix B.
struct SopParams {
  double feneK = 20.0;            ///< FENE spring k (kcal/mol/A^2; 20 kcal/mol/A^2 = 13.9 N/m)
  double feneR0 = 2.0;            ///< FENE tolerance R0 (A): |r - r0| must stay below it
  double nativeEpsilon = 1.5;     ///< eps_n, native-contact depth (kcal/mol)
  double repulsiveEpsilon = 1.0;  ///< eps_r, repulsion strength (kcal/mol)
  double sigma = 3.8;             ///< sigma of the repulsion, i,i+2 and non-native pairs (A)
  double nativeCutoff = 8.0;      ///< R_C: pairs closer than this in the PDB are native (A)
  /// The repulsion is cut here and force-shifted, so energy and force are continuous (A).
  double repulsiveCutoff = 8.0;
  /// Consecutive C-alpha atoms farther apart than this start a new chain (A).
  double chainBreakDistance = 4.5;

  /// Throws std::invalid_argument naming the first bad field.
  void check() const;
};

struct SopBead {
  std::string residueName;     ///< e.g. "LEU"
  std::string chainId;         ///< PDB column 22 (may be blank)
  std::string segmentId;       ///< PDB columns 73-76 (may be blank)
  int residueNumber = 0;       ///< PDB resSeq
  double x = 0, y = 0, z = 0;  ///< native position (A)
};

struct SopBond {
  int i = 0, j = 0;  ///< bead indices, j = i + 1 in one chain
  double r0 = 0.0;   ///< native length (A)
};

struct SopContact {
  int i = 0, j = 0;  ///< bead indices, i < j
  double r0 = 0.0;   ///< native distance (A)
};

struct SopTopology {
  SopParams params;
  std::vector<SopBead> beads;
  std::vector<int> chainOf;          ///< chain index of every bead
  std::vector<int> chainStart;       ///< first bead of every chain, plus beads.size() at the end
  std::vector<SopBond> bonds;        ///< sorted by i
  std::vector<SopContact> contacts;  ///< sorted by (i, j)
  std::string source;                ///< the file it was read from (for messages)

  std::size_t beadCount() const { return beads.size(); }
  std::size_t chainCount() const { return chainStart.empty() ? 0 : chainStart.size() - 1; }
  /// Native coordinates x1 y1 z1 x2 ... (A).
  std::vector<double> nativeCoordinates() const;
  /// -eps_n x contacts: the native-contact energy of the native structure (kcal/mol).
  double nativeContactEnergy() const;
};

/// Builds bonds and contacts from beads split into chains (chainStart as in SopTopology: chain k
/// is beads chainStart[k] .. chainStart[k+1]-1). Throws std::invalid_argument for bad params or
/// chain starts that do not increase.
SopTopology makeSopTopology(std::vector<SopBead> beads, std::vector<int> chainStart,
                            const SopParams& params, const std::string& source = "");

/// Reads a PDB file: the C-alpha atom of every residue of the first model (ATOM records; alternate
/// locations other than the first ignored), all-atom files reduced to C-alpha. Chains break at TER
/// records, chain-ID or segment-ID changes, residue-number decreases, and consecutive C-alpha atoms
/// farther apart than params.chainBreakDistance. Throws std::runtime_error naming the file and
/// line for unreadable input, a residue without a C-alpha atom, or a file without one.
SopTopology readSopTopology(const std::string& pdbPath, const SopParams& params = SopParams{});

/// Fraction of native contacts present at x: r_ij < r0_ij + tolerance (A). 1 at the native state.
double nativeContactFraction(const SopTopology& topology, const double* x, double tolerance);

/// Writes beads at x as one MODEL of a PDB file (C-alpha records, chains as in the topology).
void appendSopPdbModel(std::string& out, const SopTopology& topology, const double* x, int model);

}  // namespace landscape
