#include "potentials/SopTopology.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

void requireParam(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("SopParams: " + what);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

std::string column(const std::string& line, std::size_t first, std::size_t count) {
  return first < line.size() ? line.substr(first, count) : std::string();
}

double distance(const SopBead& a, const SopBead& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                   (a.z - b.z) * (a.z - b.z));
}

}  // namespace

void SopParams::check() const {
  requireParam(std::isfinite(feneK) && feneK > 0, "feneK (FENE spring, kcal/mol/A^2) must be > 0");
  requireParam(std::isfinite(feneR0) && feneR0 > 0, "feneR0 (FENE tolerance, A) must be > 0");
  requireParam(std::isfinite(nativeEpsilon) && nativeEpsilon >= 0,
               "nativeEpsilon (eps_n, kcal/mol) must be >= 0");
  requireParam(std::isfinite(repulsiveEpsilon) && repulsiveEpsilon >= 0,
               "repulsiveEpsilon (eps_r, kcal/mol) must be >= 0");
  requireParam(std::isfinite(sigma) && sigma > 0, "sigma (repulsion range, A) must be > 0");
  requireParam(std::isfinite(nativeCutoff) && nativeCutoff > 0,
               "nativeCutoff (native-contact cutoff R_C, A) must be > 0");
  requireParam(std::isfinite(repulsiveCutoff) && repulsiveCutoff > 0.5 * sigma,
               "repulsiveCutoff (A) must be finite and > sigma / 2");
  requireParam(std::isfinite(chainBreakDistance) && chainBreakDistance > 0,
               "chainBreakDistance (A) must be > 0");
}

std::vector<double> SopTopology::nativeCoordinates() const {
  std::vector<double> x(3 * beads.size());
  for (std::size_t i = 0; i < beads.size(); ++i) {
    x[3 * i] = beads[i].x;
    x[3 * i + 1] = beads[i].y;
    x[3 * i + 2] = beads[i].z;
  }
  return x;
}

double SopTopology::nativeContactEnergy() const {
  return -params.nativeEpsilon * static_cast<double>(contacts.size());
}

SopTopology makeSopTopology(std::vector<SopBead> beads, std::vector<int> chainStart,
                            const SopParams& params, const std::string& source) {
  params.check();
  const int n = static_cast<int>(beads.size());
  if (n < 1) throw std::invalid_argument("SOP topology " + source + ": no beads");
  if (chainStart.empty() || chainStart.front() != 0) chainStart.insert(chainStart.begin(), 0);
  if (chainStart.back() != n) chainStart.push_back(n);
  for (std::size_t k = 1; k < chainStart.size(); ++k)
    if (chainStart[k] <= chainStart[k - 1])
      throw std::invalid_argument("SOP topology " + source + ": chain starts must increase");

  SopTopology t;
  t.params = params;
  t.source = source;
  t.chainStart = chainStart;
  t.chainOf.resize(n);
  for (std::size_t k = 0; k + 1 < chainStart.size(); ++k)
    for (int i = chainStart[k]; i < chainStart[k + 1]; ++i) t.chainOf[i] = static_cast<int>(k);

  for (int i = 0; i + 1 < n; ++i) {
    if (t.chainOf[i] != t.chainOf[i + 1]) continue;
    const double r0 = distance(beads[i], beads[i + 1]);
    t.bonds.push_back({i, i + 1, r0});
  }
  // Native contacts: every pair but the bonded and i,i+2 pairs of one chain (Zhmurov, Rybnikov,
  // Kholodov and Barsegov, J. Phys. Chem. B 2011: |i-j| > 2).
  const double rc2 = params.nativeCutoff * params.nativeCutoff;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (t.chainOf[i] == t.chainOf[j] && j - i <= 2) continue;
      const double dx = beads[i].x - beads[j].x, dy = beads[i].y - beads[j].y,
                   dz = beads[i].z - beads[j].z;
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) t.contacts.push_back({i, j, std::sqrt(r2)});
    }
  }
  t.beads = std::move(beads);
  return t;
}

SopTopology readSopTopology(const std::string& pdbPath, const SopParams& params) {
  params.check();
  std::ifstream in(pdbPath);
  if (!in) throw std::runtime_error(pdbPath + ": cannot open the PDB file");

  std::vector<SopBead> beads;
  std::vector<int> chainStart;
  bool pendingBreak = true;  // the first bead starts a chain
  std::string line;
  long lineNo = 0;
  // The residue being read: its key, first line, and whether a C-alpha was seen.
  std::string residueKey, residueLabel;
  long residueLine = 0;
  bool residueHasCa = true;
  int lastResSeq = 0;
  auto closeResidue = [&]() {
    if (!residueHasCa)
      throw std::runtime_error(pdbPath + ":" + std::to_string(residueLine) + ": residue " +
                               residueLabel +
                               " has no C-alpha atom (atom name CA); the SOP model needs one "
                               "bead per residue");
  };
  while (std::getline(in, line)) {
    ++lineNo;
    const std::string record = column(line, 0, 6);
    if (record == "ENDMDL") break;  // the first model only
    if (record.rfind("TER", 0) == 0) {
      pendingBreak = true;
      continue;
    }
    if (record != "ATOM  ") continue;
    if (line.size() < 54)
      throw std::runtime_error(pdbPath + ":" + std::to_string(lineNo) +
                               ": ATOM record shorter than 54 columns (coordinates missing)");
    const std::string atomName = trim(column(line, 12, 4));
    const char altLoc = line[16];
    const std::string resName = trim(column(line, 17, 3));
    const std::string chainId = column(line, 21, 1);
    const std::string resSeqText = trim(column(line, 22, 4));
    const std::string iCode = column(line, 26, 1);
    const std::string segId = trim(column(line, 72, 4));
    const std::string where = pdbPath + ":" + std::to_string(lineNo) + ": ";
    const std::optional<long long> resSeqValue = parseFortranInteger(resSeqText);
    if (!resSeqValue || *resSeqValue < -999 || *resSeqValue > 9999)
      throw std::runtime_error(where +
                               "expected a residue number (columns 23-26, -999..9999), found " +
                               quoteInput(resSeqText));
    const int resSeq = static_cast<int>(*resSeqValue);
    double xyz[3];
    for (int c = 0; c < 3; ++c) {
      const std::string field = trim(column(line, 30 + 8 * static_cast<std::size_t>(c), 8));
      const std::optional<double> value = parseFortranReal(field);
      if (!value)
        throw std::runtime_error(where + "expected the " + "xyz"[c] +
                                 " coordinate of an ATOM record (columns " +
                                 std::to_string(31 + 8 * c) + "-" + std::to_string(38 + 8 * c) +
                                 "), found " + describeBadReal(field));
      if (std::fabs(*value) > kMaxInputCoordinate)
        throw std::runtime_error(where + "the " + "xyz"[c] + " coordinate " + quoteInput(field) +
                                 " is beyond the " +
                                 std::to_string(static_cast<long>(kMaxInputCoordinate)) +
                                 " A that an input coordinate may have");
      xyz[c] = *value;
    }
    const double x = xyz[0], y = xyz[1], z = xyz[2];
    const std::string key = chainId + "|" + segId + "|" + resSeqText + "|" + iCode;
    if (key != residueKey) {
      closeResidue();
      residueKey = key;
      residueLabel = printableInput(resName + " " + resSeqText + iCode) + " chain " +
                     quoteInput(chainId) + " segment " + quoteInput(segId);
      residueLine = lineNo;
      residueHasCa = false;
    }
    if (atomName != "CA" || residueHasCa) continue;
    if (altLoc != ' ' && altLoc != 'A' && altLoc != '1') continue;
    residueHasCa = true;

    SopBead bead{resName, chainId, segId, resSeq, x, y, z};
    if (!beads.empty()) {
      const SopBead& prev = beads.back();
      if (prev.chainId != chainId || prev.segmentId != segId || resSeq < lastResSeq ||
          distance(prev, bead) > params.chainBreakDistance)
        pendingBreak = true;
    }
    if (pendingBreak) chainStart.push_back(static_cast<int>(beads.size()));
    pendingBreak = false;
    lastResSeq = resSeq;
    beads.push_back(bead);
  }
  closeResidue();
  if (beads.empty())
    throw std::runtime_error(pdbPath + ": no C-alpha atoms (ATOM records named CA) found");
  return makeSopTopology(std::move(beads), std::move(chainStart), params, pdbPath);
}

double nativeContactFraction(const SopTopology& topology, const double* x, double tolerance) {
  if (topology.contacts.empty()) return 1.0;
  std::size_t formed = 0;
  for (const SopContact& c : topology.contacts) {
    const double dx = x[3 * c.i] - x[3 * c.j], dy = x[3 * c.i + 1] - x[3 * c.j + 1],
                 dz = x[3 * c.i + 2] - x[3 * c.j + 2];
    const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
    if (r < c.r0 + tolerance) ++formed;
  }
  return static_cast<double>(formed) / static_cast<double>(topology.contacts.size());
}

void appendSopPdbModel(std::string& out, const SopTopology& topology, const double* x, int model) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "MODEL     %4d\n", model);
  out += buf;
  const std::size_t n = topology.beadCount();
  for (std::size_t i = 0; i < n; ++i) {
    const SopBead& b = topology.beads[i];
    const char chain = b.chainId.empty() ? 'A' : b.chainId[0];
    std::snprintf(buf, sizeof buf,
                  "ATOM  %5zu  CA  %-3.3s %c%4d    %8.3f%8.3f%8.3f  1.00  0.00      %-4.4s\n",
                  (i + 1) % 100000, b.residueName.c_str(), chain, b.residueNumber % 10000, x[3 * i],
                  x[3 * i + 1], x[3 * i + 2], b.segmentId.c_str());
    out += buf;
    if (i + 1 < n && topology.chainOf[i + 1] != topology.chainOf[i]) out += "TER\n";
  }
  out += "TER\nENDMDL\n";
}

}  // namespace landscape
