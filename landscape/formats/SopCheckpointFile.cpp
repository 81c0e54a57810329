#include "landscape/formats/SopCheckpointFile.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "landscape/core/Checksum.h"
#include "landscape/core/InputChecks.h"
#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/CheckpointReader.h"

namespace landscape {

namespace {

constexpr const char* kMagic = "landscape-sop-checkpoint";
constexpr long kMaxCount = std::numeric_limits<int>::max();
constexpr long kMaxStep = std::numeric_limits<long>::max();

void appendReals(std::string& out, const std::vector<double>& values) {
  for (double v : values) out += ' ' + hexReal(v);
}

// Lines of `key` with an index and 3 x beads reals, one per replica.
void appendReplicaLines(std::string& out, const std::string& key, const std::vector<double>& x,
                        std::size_t beads) {
  const std::size_t width = 3 * beads;
  for (std::size_t r = 0; width > 0 && r < x.size() / width; ++r) {
    out += key + ' ' + std::to_string(r);
    appendReals(out, std::vector<double>(x.begin() + r * width, x.begin() + (r + 1) * width));
    out += '\n';
  }
}

// A plain file name: printable, no separators, not "." or "..".
bool plainName(const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 255) return false;
  for (char c : name)
    if (c <= ' ' || c > '~' || c == '/' || c == '\\') return false;
  return true;
}

// `count` finite reals and the end of the line. Coordinates (A) are also refused beyond
// kMaxInputCoordinate: no run gets there (a pull at 1 A/ps for 1e6 ps does not), and squared
// distances of such values lose every digit a force needs.
std::vector<double> readReals(CheckpointReader& in, std::size_t count, bool coordinates = false) {
  std::vector<double> values;
  for (std::size_t k = 0; k < count; ++k) {
    values.push_back(in.real());
    if (coordinates && std::abs(values.back()) > kMaxInputCoordinate)
      in.fail("coordinate " + std::to_string(k + 1) + " is beyond " +
              std::to_string(static_cast<long>(kMaxInputCoordinate)) + " A");
  }
  in.endLine();
  return values;
}

void readHeader(CheckpointReader& in, SopCheckpoint& c, const std::string& path, bool sealed) {
  checkSealedVersion(path, in.line(kMagic).integer(), kSopCheckpointVersion, sealed,
                     "sop checkpoint");
  in.endLine();
  const long entries = in.line("fingerprint").integer(0, 10000);
  in.endLine();
  for (long i = 0; i < entries; ++i) {
    CheckpointReader& option = in.line("option");
    const std::string name = option.word();
    c.fingerprint.emplace_back(name, option.rest());
  }
  c.inputDigest = in.line("input-digest").word();
  in.endLine();
  c.beads = static_cast<std::size_t>(in.line("beads").integer(1, kMaxCount));
  in.endLine();
  c.replicas = static_cast<int>(in.line("replicas").integer(1, kMaxCount));
  in.endLine();
  c.protocol = in.line("protocol").word();
  const std::size_t values = c.protocol == "none" ? 0 : c.protocol == "pulling" ? 6 : 7;
  if (values == 7 && c.protocol != "indentation")
    in.fail("protocol " + quoteInput(c.protocol) + " is not none, pulling or indentation");
  c.protocolValues = readReals(in, values);
}

// The state's replica lines: "key r" then 3 x beads reals, for r = 0 .. replicas - 1.
std::vector<double> readReplicaLines(CheckpointReader& in, const std::string& key,
                                     const SopCheckpoint& c) {
  std::vector<double> x;
  for (int r = 0; r < c.replicas; ++r) {
    if (in.line(key).integer() != r) in.fail("expected replica " + std::to_string(r));
    const std::vector<double> row = readReals(in, 3 * c.beads, true);
    x.insert(x.end(), row.begin(), row.end());
  }
  return x;
}

void readState(CheckpointReader& in, SopCheckpoint& c) {
  SopDynamicsState& s = c.state;
  s.step = in.line("step").integer(0, kMaxStep);
  in.endLine();
  RandomStreamsState& random = s.random;
  random.step = static_cast<std::uint64_t>(in.line("random-step").integer(0, kMaxStep));
  random.ringBase = static_cast<std::uint64_t>(in.integer(0, kMaxCount));
  const long words = in.integer(0, kMaxStep);
  for (long k = 0; k < words; ++k)
    random.words.push_back(static_cast<std::uint32_t>(in.integer(0, 0xffffffffL)));
  in.endLine();
  in.line("tips");
  s.tips = readReals(in, static_cast<std::size_t>(c.replicas), true);
  s.positions = readReplicaLines(in, "positions", c);
  const bool list = in.line("list-reference").integer(0, 1) != 0;
  in.endLine();
  if (list) {
    in.line("rebuild-due");
    for (int r = 0; r < c.replicas; ++r) s.rebuildDue.push_back(in.integer(0, 1) != 0);
    in.endLine();
    s.listPositions = readReplicaLines(in, "list", c);
  }
  s.rebuilds = in.line("rebuilds").integer(0, kMaxStep);
  in.endLine();
}

void readOutputs(CheckpointReader& in, SopCheckpoint& c) {
  const long files = in.line("outputs").integer(0, 1000000);
  in.endLine();
  for (long k = 0; k < files; ++k) {
    SopOutputMark m;
    m.bytes = static_cast<std::uint64_t>(in.line("output").integer(0, kMaxStep));
    m.records = static_cast<std::uint64_t>(in.integer(0, kMaxStep));
    m.name = in.word();
    in.endLine();
    if (!plainName(m.name)) in.fail(quoteInput(m.name) + " is not a file name of the folder");
    c.outputs.push_back(std::move(m));
  }
}

}  // namespace

std::string fnv1aDigest(const std::string& bytes) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(fnv1a(bytes.data(), bytes.size())));
  return text;
}

std::string formatSopCheckpoint(const SopCheckpoint& c) {
  const SopDynamicsState& s = c.state;
  std::string out = std::string(kMagic) + ' ' + std::to_string(kSopCheckpointVersion) + '\n';
  out += "fingerprint " + std::to_string(c.fingerprint.size()) + '\n';
  for (const auto& [name, value] : c.fingerprint) {
    if (!plainName(name) || value.find('\n') != std::string::npos)
      throw std::invalid_argument("sop checkpoint fingerprint entry '" + name +
                                  "': names need no blanks, values no line breaks");
    out += "option " + name + ' ' + value + '\n';
  }
  out += "input-digest " + c.inputDigest + '\n';
  out += "beads " + std::to_string(c.beads) + "\nreplicas " + std::to_string(c.replicas) + '\n';
  out += "protocol " + c.protocol;
  appendReals(out, c.protocolValues);
  out += "\nstep " + std::to_string(s.step) + '\n';
  out += "random-step " + std::to_string(s.random.step) + ' ' + std::to_string(s.random.ringBase) +
         ' ' + std::to_string(s.random.words.size());
  for (std::uint32_t w : s.random.words) out += ' ' + std::to_string(w);
  out += "\ntips";
  appendReals(out, s.tips);
  out += '\n';
  appendReplicaLines(out, "positions", s.positions, c.beads);
  out += "list-reference " + std::string(s.listPositions.empty() ? "0" : "1") + '\n';
  if (!s.listPositions.empty()) {
    out += "rebuild-due";
    for (std::uint8_t due : s.rebuildDue) out += due ? " 1" : " 0";
    out += '\n';
    appendReplicaLines(out, "list", s.listPositions, c.beads);
  }
  out += "rebuilds " + std::to_string(s.rebuilds) + '\n';
  out += "outputs " + std::to_string(c.outputs.size()) + '\n';
  for (const SopOutputMark& m : c.outputs) {
    if (!plainName(m.name)) throw std::invalid_argument("sop checkpoint: bad output name " + m.name);
    out += "output " + std::to_string(m.bytes) + ' ' + std::to_string(m.records) + ' ' + m.name +
           '\n';
  }
  return withChecksumLine(out + "end\n");
}

void writeSopCheckpointFile(const std::string& path, const SopCheckpoint& checkpoint) {
  writeFileAtomically(path, formatSopCheckpoint(checkpoint), "sop checkpoint");
}

SopCheckpoint parseSopCheckpoint(const std::string& path, std::string text) {
  const bool sealed = removeCheckedChecksumLine(path, text);
  CheckpointReader in(path, text);
  SopCheckpoint c;
  readHeader(in, c, path, sealed);
  readState(in, c);
  readOutputs(in, c);
  in.line("end");
  try {
    requireSopStateShape(c.state, c.beads, c.replicas);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  return c;
}

SopCheckpoint readSopCheckpointFile(const std::string& path) {
  return parseSopCheckpoint(path, readWholeFile(path, "sop checkpoint"));
}

}  // namespace landscape
