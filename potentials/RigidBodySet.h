#pragma once
// Which atoms move together as local rigid bodies (Mantell, Pitt and Wales, J. Chem. Theory Comput.
// 2016, section 2.1 "Local rigid body framework"): disjoint groups of atom indices; atoms in no
// group stay atomistic ("free").
//
// File format (GMIN's rbodyconfig, docs/rigid-bodies.md): one block per body,
//   GROUP n
//   i1
//   ...                (n atom indices, 1-based, whitespace separated, any number per line)
// '#' starts a comment; blank lines are ignored. Errors name the file and line.
#include <cstddef>
#include <string>
#include <vector>

namespace landscape {

class RigidBodySet {
 public:
  /// atomCount atoms, no bodies yet.
  explicit RigidBodySet(std::size_t atomCount = 0) : m_atomCount(atomCount) {}

  /// Adds a body of 0-based atom indices. Throws std::invalid_argument when an index is out of
  /// range, repeated, already in another body, or the body has fewer than 3 atoms (a rotation
  /// needs at least three non-collinear atoms; collinearity is checked against coordinates by
  /// RigidBodySystem). `where` prefixes the message (e.g. "bodies.txt:12").
  void addBody(const std::vector<std::size_t>& atoms, const std::string& where = "");

  std::size_t atomCount() const { return m_atomCount; }
  std::size_t bodyCount() const { return m_bodies.size(); }
  const std::vector<std::size_t>& body(std::size_t b) const { return m_bodies[b]; }
  const std::vector<std::vector<std::size_t>>& bodies() const { return m_bodies; }
  /// Atoms in no body, ascending.
  std::vector<std::size_t> freeAtoms() const;
  /// Body of each atom, or -1 for free atoms.
  const std::vector<long>& bodyOfAtom() const { return m_bodyOfAtom; }

 private:
  std::size_t m_atomCount;
  std::vector<std::vector<std::size_t>> m_bodies;
  std::vector<long> m_bodyOfAtom = std::vector<long>(m_atomCount, -1);
};

/// Reads a rigid-body file for a system of atomCount atoms. Throws std::runtime_error naming the
/// file and line for unreadable files, syntax errors, bad or overlapping indices, short blocks and
/// bodies of fewer than 3 atoms.
RigidBodySet readRigidBodies(const std::string& path, std::size_t atomCount);

/// Writes the file format above (1-based indices); comment lines (without '#') go first.
/// The GROUP blocks of `set` (1-based atoms) after "# " comment lines, as writeRigidBodies writes
/// them; programs write it atomically (landscape/formats/AtomicFile.h).
std::string formatRigidBodies(const RigidBodySet& set,
                              const std::vector<std::string>& comments = {});
void writeRigidBodies(const std::string& path, const RigidBodySet& set,
                      const std::vector<std::string>& comments = {});

}  // namespace landscape
