#include "landscape/formats/PathsampleExport.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/CoordinatesFile.h"
#include "landscape/formats/LowestFile.h"
#include "landscape/geometry/InertiaTensor.h"
#include "landscape/geometry/RigidBodyModes.h"
#include "landscape/network/HarmonicRates.h"

namespace landscape {

namespace {

namespace fs = std::filesystem;

std::string formatted(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string formattedInteger(const char* format, long value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// Unknown values as PATHSAMPLE's NOFRQS runs ignore them (header comment).
double knownOr(double value, double fallback) { return std::isnan(value) ? fallback : value; }

// The columns shared by min.data and ts.data: energy and log product (F25.15), point-group order
// (I6 in min.data, I10 in ts.data) and the moments (3F20.10) at the end.
std::string momentColumns(const StationaryPointProperties& p) {
  std::string text;
  for (double moment : p.principalMoments) text += formatted("%20.10f", knownOr(moment, 0.0));
  return text;
}

std::string energyColumns(double energy, const StationaryPointProperties& p) {
  return formatted("%25.15f", energy) +
         formatted("%25.15f", knownOr(p.logProductOfPositiveEigenvalues, 0.0));
}

long knownOrder(const StationaryPointProperties& p) {
  return p.pointGroupOrder > 0 ? p.pointGroupOrder : 1;
}

// ---- reading text ----------------------------------------------------------------------------

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string field; in >> field;) out.push_back(field);
  return out;
}

bool blank(const std::string& line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

[[noreturn]] void failAt(const std::string& path, std::size_t line, const std::string& what,
                         const std::string& found) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + what + ", found " +
                           quoteInput(found, 120));
}

// A token strtod reads in full but parseFortranReal refused: infinite, NaN or overflowed.
bool nonFinite(const std::string& token) {
  std::string copy = token;
  for (char& c : copy)
    if (c == 'd' || c == 'D') c = 'e';
  char* end = nullptr;
  std::strtod(copy.c_str(), &end);
  return end != copy.c_str() && *end == '\0';
}

double realField(const std::string& path, std::size_t line, const std::string& token,
                 const char* what, const std::string& text) {
  const auto value = parseFortranReal(token);
  if (!value) {
    failAt(path, line,
           std::string(nonFinite(token) ? "expected a finite number (no inf, nan or overflow) for "
                                        : "expected a number for ") +
               what,
           text);
  }
  return *value;
}

long integerField(const std::string& path, std::size_t line, const std::string& token,
                  const char* what, long minimum, const std::string& text) {
  const auto value = parseFortranInteger(token);
  if (!value || *value < minimum || *value > 2147483647LL) {
    failAt(path, line,
           std::string("expected an integer >= ") + std::to_string(minimum) + " for " + what, text);
  }
  return static_cast<long>(*value);
}

void checkCoordinates(const std::vector<double>& coordinates, std::size_t expected,
                      const std::string& what) {
  if (coordinates.empty() || coordinates.size() % 3 != 0 ||
      (expected != 0 && coordinates.size() != expected)) {
    throw std::invalid_argument(what + " has " + std::to_string(coordinates.size()) +
                                " coordinates; every point needs the same positive multiple of 3" +
                                (expected != 0 ? " (" + std::to_string(expected) + ")" : ""));
  }
}

}  // namespace

// ---- PATHSAMPLE ------------------------------------------------------------------------------

std::string formatMinData(const std::vector<StoredNetworkMinimum>& minima) {
  std::string text;
  for (const StoredNetworkMinimum& m : minima) {
    text += energyColumns(m.energy, m.properties) +
            formattedInteger("%6ld", knownOrder(m.properties)) + momentColumns(m.properties) + "\n";
  }
  return text;
}

std::string formatTsData(const std::vector<StoredTransitionState>& transitionStates) {
  std::string text;
  for (const StoredTransitionState& ts : transitionStates) {
    text += energyColumns(ts.energy, ts.properties) +
            formattedInteger("%10ld", knownOrder(ts.properties)) +
            formattedInteger("%10ld", ts.plusMinimum + 1L) +
            formattedInteger("%10ld", ts.minusMinimum + 1L) + momentColumns(ts.properties) + "\n";
  }
  return text;
}

std::vector<StoredNetworkMinimum> readMinData(const std::string& path) {
  const std::vector<std::string> lines = splitLines(readWholeFile(path, "min.data"));
  std::vector<StoredNetworkMinimum> minima;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (blank(lines[i])) continue;
    const std::vector<std::string> f = fields(lines[i]);
    const std::size_t line = i + 1;
    if (f.size() != 6 && f.size() != 3) {
      failAt(path, line,
             "expected 'energy ln(product of eigenvalues) point-group-order Ix Iy Iz' (6 fields, "
             "or the first 3)",
             lines[i]);
    }
    StoredNetworkMinimum m;
    m.energy = realField(path, line, f[0], "the energy", lines[i]);
    m.properties.logProductOfPositiveEigenvalues =
        realField(path, line, f[1], "the log product", lines[i]);
    m.properties.pointGroupOrder =
        static_cast<int>(integerField(path, line, f[2], "the point-group order", 1, lines[i]));
    for (std::size_t k = 3; k < f.size(); ++k) {
      m.properties.principalMoments[k - 3] =
          realField(path, line, f[k], "a moment of inertia", lines[i]);
    }
    minima.push_back(std::move(m));
  }
  return minima;
}

std::vector<StoredTransitionState> readTsData(const std::string& path) {
  return readTsData(path, 0);
}

std::vector<StoredTransitionState> readTsData(const std::string& path, std::size_t minimaCount) {
  const std::vector<std::string> lines = splitLines(readWholeFile(path, "ts.data"));
  std::vector<StoredTransitionState> states;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (blank(lines[i])) continue;
    const std::vector<std::string> f = fields(lines[i]);
    const std::size_t line = i + 1;
    if (f.size() != 8 && f.size() != 5) {
      failAt(path, line,
             "expected 'energy ln(product of eigenvalues) point-group-order minimum1 minimum2 Ix "
             "Iy Iz' (8 fields, or the first 5)",
             lines[i]);
    }
    StoredTransitionState ts;
    ts.energy = realField(path, line, f[0], "the energy", lines[i]);
    ts.properties.logProductOfPositiveEigenvalues =
        realField(path, line, f[1], "the log product", lines[i]);
    ts.properties.pointGroupOrder =
        static_cast<int>(integerField(path, line, f[2], "the point-group order", 1, lines[i]));
    ts.plusMinimum =
        static_cast<int>(integerField(path, line, f[3], "the first minimum", 1, lines[i]) - 1);
    ts.minusMinimum =
        static_cast<int>(integerField(path, line, f[4], "the second minimum", 1, lines[i]) - 1);
    const int beyond = std::max(ts.plusMinimum, ts.minusMinimum) + 1;
    if (minimaCount > 0 && beyond > static_cast<int>(minimaCount))
      failAt(path, line,
             "minimum " + std::to_string(beyond) + " is beyond min.data's " +
                 std::to_string(minimaCount) + " minima",
             lines[i]);
    for (std::size_t k = 5; k < f.size(); ++k) {
      ts.properties.principalMoments[k - 5] =
          realField(path, line, f[k], "a moment of inertia", lines[i]);
    }
    states.push_back(std::move(ts));
  }
  return states;
}

void writePoints(const std::string& path, const std::vector<std::vector<double>>& records) {
  std::string bytes;
  const std::size_t width = records.empty() ? 0 : records.front().size();
  bytes.reserve(records.size() * width * 8);
  for (std::size_t r = 0; r < records.size(); ++r) {
    checkCoordinates(records[r], width, "points record " + std::to_string(r + 1));
    for (double v : records[r]) {
      // Little-endian whatever the host, byte by byte.
      std::uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<char>((bits >> (8 * b)) & 0xFF));
    }
  }
  writeFileAtomically(path, bytes, "points file");
}

std::vector<std::vector<double>> readPoints(const std::string& path,
                                            std::size_t coordinatesPerRecord) {
  if (coordinatesPerRecord == 0) {
    throw std::invalid_argument("readPoints: coordinatesPerRecord must be > 0");
  }
  const std::string bytes = readWholeFile(path, "points file");
  const std::size_t recordBytes = 8 * coordinatesPerRecord;
  if (bytes.size() % recordBytes != 0) {
    throw std::runtime_error("points file '" + path + "': " + std::to_string(bytes.size()) +
                             " bytes is not a whole number of records of " +
                             std::to_string(coordinatesPerRecord) + " float64 values (" +
                             std::to_string(recordBytes) + " bytes)");
  }
  std::vector<std::vector<double>> records(bytes.size() / recordBytes,
                                           std::vector<double>(coordinatesPerRecord));
  for (std::size_t r = 0; r < records.size(); ++r) {
    for (std::size_t k = 0; k < coordinatesPerRecord; ++k) {
      std::uint64_t bits = 0;
      const std::size_t at = r * recordBytes + 8 * k;
      for (int b = 0; b < 8; ++b) {
        bits |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
      }
      std::memcpy(&records[r][k], &bits, sizeof bits);
      if (!std::isfinite(records[r][k])) {
        throw std::runtime_error("points file '" + path + "': record " + std::to_string(r + 1) +
                                 " (byte offset " + std::to_string(at) + "), coordinate " +
                                 std::to_string(k + 1) + " is not finite");
      }
    }
  }
  return records;
}

double pathsampleFrequencyConversion(const DatabaseMetadata& metadata) {
  if (metadata.hessianMasses != kAtomicMassesAmu) return 1.0;
  if ((metadata.energyUnit != "kcal/mol" && metadata.energyUnit != "kJ/mol") ||
      metadata.lengthUnit != "Angstrom") {
    throw std::invalid_argument("a mass-weighted database in '" + metadata.energyUnit + "' and '" +
                                metadata.lengthUnit +
                                "': PATHSAMPLE's frequency conversion is known for kcal/mol or "
                                "kJ/mol and Angstrom only");
  }
  return metadata.energyUnit == "kJ/mol" ? kKjMolecularFrequencyPerSecond
                                         : kMolecularFrequencyPerSecond;
}

namespace {

/// Shifts the log product of a point with `coordinates` by sign x modes x ln(conversion^2).
void convertLogProduct(StationaryPointProperties& p, const std::vector<double>& coordinates,
                       double logConversionSquared, int sign, bool transitionState) {
  double& f = p.logProductOfPositiveEigenvalues;
  if (!std::isfinite(f) || f == 0.0 || coordinates.empty()) return;
  const int modes = static_cast<int>(coordinates.size()) - RigidBodyModes(coordinates).count() -
                    (transitionState ? 1 : 0);
  f += sign * modes * logConversionSquared;
}

}  // namespace

StoredTransitionNetwork withConvertedLogProducts(StoredTransitionNetwork network, double conversion,
                                                 int sign) {
  if (conversion == 1.0) return network;
  if (!(std::isfinite(conversion) && conversion > 0.0) || (sign != 1 && sign != -1)) {
    throw std::invalid_argument(
        "withConvertedLogProducts: the conversion must be > 0 and the sign +1 or -1");
  }
  const double logSquared = 2.0 * std::log(conversion);
  for (StoredNetworkMinimum& m : network.minima) {
    convertLogProduct(m.properties, m.coordinates, logSquared, sign, false);
  }
  for (StoredTransitionState& ts : network.transitionStates) {
    convertLogProduct(ts.properties, ts.coordinates, logSquared, sign, true);
  }
  return network;
}

void writePathsampleFiles(const std::string& directory, const StoredTransitionNetwork& original,
                          double frequencyConversion) {
  const StoredTransitionNetwork network =
      withConvertedLogProducts(original, frequencyConversion, +1);
  const std::size_t width = network.minima.empty() ? 0 : network.minima.front().coordinates.size();
  std::vector<std::vector<double>> minimumPoints, tsPoints;
  for (std::size_t i = 0; i < network.minima.size(); ++i) {
    checkCoordinates(network.minima[i].coordinates, width, "minimum " + std::to_string(i + 1));
    minimumPoints.push_back(network.minima[i].coordinates);
  }
  const int n = static_cast<int>(network.minima.size());
  for (std::size_t i = 0; i < network.transitionStates.size(); ++i) {
    const StoredTransitionState& ts = network.transitionStates[i];
    checkCoordinates(ts.coordinates, width, "transition state " + std::to_string(i + 1));
    if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n) {
      throw std::invalid_argument("transition state " + std::to_string(i + 1) +
                                  " connects minima " + std::to_string(ts.plusMinimum) + " and " +
                                  std::to_string(ts.minusMinimum) + " (0-based), but there are " +
                                  std::to_string(n) + " minima");
    }
    tsPoints.push_back(ts.coordinates);
  }
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) {
    throw std::runtime_error("cannot create directory '" + directory + "': " + error.message());
  }
  const fs::path dir(directory);
  writeFileAtomically((dir / "min.data").string(), formatMinData(network.minima), "min.data");
  writeFileAtomically((dir / "ts.data").string(), formatTsData(network.transitionStates),
                      "ts.data");
  writePoints((dir / "points.min").string(), minimumPoints);
  writePoints((dir / "points.ts").string(), tsPoints);
  if (!network.setA.empty() || !network.setB.empty()) {
    writeFileAtomically((dir / "min.A").string(), formatEndpointSet(network.setA), "min.A");
    writeFileAtomically((dir / "min.B").string(), formatEndpointSet(network.setB), "min.B");
  }
}

void writePathsampleKineticsFiles(const std::string& directory,
                                  const StoredTransitionNetwork& network) {
  const int n = static_cast<int>(network.minima.size());
  for (std::size_t i = 0; i < network.transitionStates.size(); ++i) {
    const StoredTransitionState& ts = network.transitionStates[i];
    if (ts.plusMinimum < 0 || ts.plusMinimum >= n || ts.minusMinimum < 0 || ts.minusMinimum >= n)
      throw std::invalid_argument("transition state " + std::to_string(i + 1) +
                                  " names a minimum beyond the " + std::to_string(n) + " minima");
  }
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) {
    throw std::runtime_error("cannot create directory '" + directory + "': " + error.message());
  }
  const fs::path dir(directory);
  writeFileAtomically((dir / "min.data").string(), formatMinData(network.minima), "min.data");
  writeFileAtomically((dir / "ts.data").string(), formatTsData(network.transitionStates),
                      "ts.data");
  if (!network.setA.empty() || !network.setB.empty()) {
    writeFileAtomically((dir / "min.A").string(), formatEndpointSet(network.setA), "min.A");
    writeFileAtomically((dir / "min.B").string(), formatEndpointSet(network.setB), "min.B");
  }
}

StoredTransitionNetwork readPathsampleFiles(const std::string& directory, std::size_t atoms,
                                            double frequencyConversion) {
  const fs::path dir(directory);
  StoredTransitionNetwork network;
  network.minima = readMinData((dir / "min.data").string());
  network.transitionStates = readTsData((dir / "ts.data").string(), network.minima.size());
  const std::vector<std::vector<double>> minimumPoints =
      readPoints((dir / "points.min").string(), 3 * atoms);
  const std::vector<std::vector<double>> tsPoints =
      readPoints((dir / "points.ts").string(), 3 * atoms);
  if (minimumPoints.size() != network.minima.size()) {
    throw std::runtime_error("'" + (dir / "points.min").string() + "' holds " +
                             std::to_string(minimumPoints.size()) + " records, min.data " +
                             std::to_string(network.minima.size()) + " minima");
  }
  if (tsPoints.size() != network.transitionStates.size()) {
    throw std::runtime_error("'" + (dir / "points.ts").string() + "' holds " +
                             std::to_string(tsPoints.size()) + " records, ts.data " +
                             std::to_string(network.transitionStates.size()) +
                             " transition states");
  }
  for (std::size_t i = 0; i < minimumPoints.size(); ++i) {
    network.minima[i].coordinates = minimumPoints[i];
  }
  const int n = static_cast<int>(network.minima.size());
  for (std::size_t i = 0; i < tsPoints.size(); ++i) {
    StoredTransitionState& ts = network.transitionStates[i];
    if (ts.plusMinimum >= n || ts.minusMinimum >= n) {
      throw std::runtime_error("'" + (dir / "ts.data").string() + "' line " +
                               std::to_string(i + 1) + " names minimum " +
                               std::to_string(std::max(ts.plusMinimum, ts.minusMinimum) + 1) +
                               ", but min.data has " + std::to_string(n));
    }
    ts.coordinates = tsPoints[i];
  }
  if (fs::exists(dir / "min.A") && fs::exists(dir / "min.B")) {
    network.setA = readEndpointSet((dir / "min.A").string(), network.minima.size());
    network.setB = readEndpointSet((dir / "min.B").string(), network.minima.size());
  }
  return withConvertedLogProducts(std::move(network), frequencyConversion, -1);
}

std::size_t pathsampleAtomCount(const std::string& directory) {
  const fs::path dir(directory);
  const std::size_t minima = readMinData((dir / "min.data").string()).size();
  if (minima == 0) throw std::runtime_error("'" + (dir / "min.data").string() + "' has no minima");
  const std::string points = (dir / "points.min").string();
  std::error_code error;
  const std::uintmax_t bytes = fs::file_size(points, error);
  const std::string kineticsOnly =
      " (a network without coordinates is PATHSAMPLE's NOPOINTS: pathsample import --no-points)";
  if (error) {
    throw std::runtime_error("cannot read points file '" + points + "': " + error.message() +
                             kineticsOnly);
  }
  const std::uintmax_t perAtomRecord = 24 * static_cast<std::uintmax_t>(minima);
  if (bytes == 0 || bytes % perAtomRecord != 0) {
    throw std::runtime_error("points file '" + points + "': " + std::to_string(bytes) +
                             " bytes is not " + std::to_string(minima) +
                             " records (one per line of min.data) of 3N float64 values" +
                             (bytes == 0 ? kineticsOnly : ""));
  }
  return static_cast<std::size_t>(bytes / perAtomRecord);
}

std::string formatEndpointSet(const std::vector<int>& minima) {
  std::string text = formattedInteger("%10ld", static_cast<long>(minima.size())) + "\n";
  for (int m : minima) text += formattedInteger("%10ld", m + 1L) + "\n";
  return text;
}

std::vector<int> readEndpointSet(const std::string& path, std::size_t minimaCount) {
  const std::vector<std::string> lines = splitLines(readWholeFile(path, "endpoint set"));
  std::vector<int> minima;
  long expected = -1;
  std::size_t lastLine = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (const std::string& token : fields(lines[i])) {
      lastLine = i + 1;
      if (expected < 0) {
        expected = integerField(path, i + 1, token, "the number of minima", 0, lines[i]);
        continue;
      }
      if (static_cast<long>(minima.size()) == expected) {
        failAt(path, i + 1, "expected only " + std::to_string(expected) + " minima after the count",
               lines[i]);
      }
      const long index = integerField(path, i + 1, token, "a minimum (1-based line of min.data)",
                                      1, lines[i]);
      if (index > static_cast<long>(minimaCount)) {
        failAt(path, i + 1,
               "minimum " + std::to_string(index) + " is beyond min.data's " +
                   std::to_string(minimaCount) + " minima",
               lines[i]);
      }
      if (std::find(minima.begin(), minima.end(), index - 1) != minima.end()) {
        failAt(path, i + 1, "minimum " + std::to_string(index) + " is listed twice", lines[i]);
      }
      minima.push_back(static_cast<int>(index - 1));
    }
  }
  if (expected < 0) failAt(path, 1, "expected the number of minima", "");
  if (static_cast<long>(minima.size()) != expected) {
    failAt(path, lastLine,
           "the count says " + std::to_string(expected) + " minima, but " +
               std::to_string(minima.size()) + " follow",
           lastLine > 0 ? lines[lastLine - 1] : "");
  }
  return minima;
}

// ---- OPTIM path.info -------------------------------------------------------------------------

std::string optimPointGroupLabel(const std::string& schoenflies) {
  if (schoenflies.size() == 2 && std::isupper(static_cast<unsigned char>(schoenflies[0])) &&
      std::islower(static_cast<unsigned char>(schoenflies[1]))) {
    return std::string(1, schoenflies[0]) + " " + schoenflies[1];
  }
  return schoenflies;
}

std::string formatPathInfo(const std::vector<PathInfoPoint>& points) {
  std::string text;
  for (std::size_t p = 0; p < points.size(); ++p) {
    const PathInfoPoint& point = points[p];
    checkCoordinates(point.coordinates, points.front().coordinates.size(),
                     "path.info point " + std::to_string(p + 1));
    text += formatted("%25.15f", point.energy) + "\n";
    std::string label = point.pointGroupLabel;
    if (label.size() < 4) label.resize(4, ' ');  // A4
    text += formattedInteger("%6ld", point.pointGroupOrder) + " " + label + "\n";
    const std::vector<double>& e = point.hessianEigenvalues;
    for (std::size_t k = 0; k < e.size(); k += 3) {
      for (std::size_t j = k; j < std::min(k + 3, e.size()); ++j) {
        text += detail::fortranG(e[j], 20, 10);
      }
      text += "\n";
    }
    const std::vector<double>& x = point.coordinates;
    for (std::size_t k = 0; k < x.size(); k += 3) {
      text += formatted("%25.15f", x[k]) + formatted("%25.15f", x[k + 1]) +
              formatted("%25.15f", x[k + 2]) + "\n";
    }
  }
  return text;
}

std::vector<PathInfoPoint> readPathInfo(const std::string& path, std::size_t atoms) {
  if (atoms == 0) throw std::invalid_argument("readPathInfo: atoms must be > 0");
  const std::vector<std::string> lines = splitLines(readWholeFile(path, "path.info"));
  std::vector<PathInfoPoint> points;
  std::size_t i = 0;
  auto skipBlank = [&] {
    while (i < lines.size() && blank(lines[i])) ++i;
  };
  skipBlank();
  while (i < lines.size()) {
    PathInfoPoint point;
    // Energy line.
    std::vector<std::string> f = fields(lines[i]);
    if (f.size() != 1) failAt(path, i + 1, "expected the energy of a stationary point", lines[i]);
    point.energy = realField(path, i + 1, f[0], "the energy", lines[i]);
    ++i;
    // Point group: I6, 1X, A4.
    if (i >= lines.size()) failAt(path, i, "expected a point-group line after the energy", "");
    f = fields(lines[i]);
    if (f.empty()) failAt(path, i + 1, "expected 'order symbol'", lines[i]);
    point.pointGroupOrder =
        static_cast<int>(integerField(path, i + 1, f[0], "the point-group order", 1, lines[i]));
    const std::size_t afterOrder = lines[i].find(f[0]) + f[0].size();
    std::string label = lines[i].substr(std::min(afterOrder + 1, lines[i].size()));
    label.erase(label.find_last_not_of(' ') + 1);
    label.erase(0, label.find_first_not_of(' ') == std::string::npos
                       ? label.size()
                       : label.find_first_not_of(' '));
    point.pointGroupLabel = label;
    ++i;
    // The numeric lines up to the next energy line: N (coordinates) or 2N (eigenvalues first).
    const std::size_t first = i;
    std::vector<std::vector<double>> rows;
    while (i < lines.size() && !blank(lines[i])) {
      f = fields(lines[i]);
      if (f.size() == 1) break;  // the next point's energy
      if (f.size() != 3) failAt(path, i + 1, "expected three numbers", lines[i]);
      rows.push_back({realField(path, i + 1, f[0], "a value", lines[i]),
                      realField(path, i + 1, f[1], "a value", lines[i]),
                      realField(path, i + 1, f[2], "a value", lines[i])});
      ++i;
    }
    if (rows.size() != atoms && rows.size() != 2 * atoms) {
      throw std::runtime_error(path + ":" + std::to_string(first) + ": the point has " +
                               std::to_string(rows.size()) + " lines of three numbers, expected " +
                               std::to_string(atoms) + " (coordinates) or " +
                               std::to_string(2 * atoms) + " (eigenvalues and coordinates)");
    }
    const std::size_t coordinateStart = rows.size() - atoms;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::vector<double>& target =
          r < coordinateStart ? point.hessianEigenvalues : point.coordinates;
      target.insert(target.end(), rows[r].begin(), rows[r].end());
    }
    points.push_back(std::move(point));
    skipBlank();
  }
  return points;
}

std::vector<PathInfoPoint> pathInfoTriples(const StoredTransitionNetwork& network,
                                           const std::vector<int>& transitionStates,
                                           const PointGroupParams& symmetry,
                                           double frequencyConversion) {
  const double squared = frequencyConversion * frequencyConversion;
  auto point = [&](double energy, const std::vector<double>& coordinates,
                   const StationaryPointProperties& properties) {
    PathInfoPoint p;
    p.energy = energy;
    p.coordinates = coordinates;
    const PointGroup group = findPointGroup(coordinates, symmetry);
    p.pointGroupOrder = properties.pointGroupOrder > 0 ? properties.pointGroupOrder : group.order;
    p.pointGroupLabel = optimPointGroupLabel(group.symbol);
    p.hessianEigenvalues.assign(properties.hessianEigenvalues.rbegin(),
                                properties.hessianEigenvalues.rend());  // OPTIM: descending
    for (double& e : p.hessianEigenvalues) e *= squared;                // OPTIM's FRQCONV2
    return p;
  };
  std::vector<PathInfoPoint> points;
  const int count = static_cast<int>(network.transitionStates.size());
  const int minima = static_cast<int>(network.minima.size());
  for (int index : transitionStates) {
    if (index < 0 || index >= count) {
      throw std::invalid_argument("pathInfoTriples: transition state " + std::to_string(index) +
                                  " is not in the network (0.." + std::to_string(count - 1) + ")");
    }
    const StoredTransitionState& ts = network.transitionStates[index];
    if (ts.plusMinimum < 0 || ts.plusMinimum >= minima || ts.minusMinimum < 0 ||
        ts.minusMinimum >= minima) {
      throw std::invalid_argument("pathInfoTriples: transition state " + std::to_string(index) +
                                  " names a minimum that is not in the network");
    }
    const StoredNetworkMinimum& plus = network.minima[ts.plusMinimum];
    const StoredNetworkMinimum& minus = network.minima[ts.minusMinimum];
    points.push_back(point(plus.energy, plus.coordinates, plus.properties));
    points.push_back(point(ts.energy, ts.coordinates, ts.properties));
    points.push_back(point(minus.energy, minus.coordinates, minus.properties));
  }
  return points;
}

namespace {

// PATHSAMPLE's log product of a path.info point: the largest `kept` eigenvalues (descending in the
// file), each divided by conversion^2.
double pathInfoLogProduct(const PathInfoPoint& point, std::size_t kept, double conversion,
                          const std::string& path, std::size_t pointNumber) {
  if (point.hessianEigenvalues.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values = point.hessianEigenvalues;
  std::sort(values.begin(), values.end(), std::greater<double>());
  double sum = 0.0;
  for (std::size_t k = 0; k < kept && k < values.size(); ++k) {
    if (!(values[k] > 0.0))
      throw std::runtime_error(path + ": stationary point " + std::to_string(pointNumber) +
                               " (energy " + formatted("%.10f", point.energy) + ") has eigenvalue " +
                               std::to_string(k + 1) + " = " + formatted("%.6g", values[k]) +
                               " among the " + std::to_string(kept) +
                               " that must be positive");
    sum += std::log(values[k] / (conversion * conversion));
  }
  return sum;
}

StationaryPointProperties pathInfoProperties(const PathInfoPoint& point, std::size_t kept,
                                             double conversion, const std::vector<double>& masses,
                                             const std::string& path, std::size_t pointNumber) {
  StationaryPointProperties p;
  p.logProductOfPositiveEigenvalues =
      pathInfoLogProduct(point, kept, conversion, path, pointNumber);
  for (double v : point.hessianEigenvalues) p.hessianEigenvalues.push_back(v / (conversion * conversion));
  std::sort(p.hessianEigenvalues.begin(), p.hessianEigenvalues.end());
  p.pointGroupOrder = point.pointGroupOrder;
  const Eigen::Vector3d moments = principalMomentsOfInertia(point.coordinates, masses);
  p.principalMoments = {moments[0], moments[1], moments[2]};
  return p;
}

}  // namespace

StoredTransitionNetwork networkFromPathInfo(const std::vector<PathInfoPoint>& points,
                                            const std::string& path, double frequencyConversion,
                                            const std::vector<double>& masses) {
  if (points.empty() || points.size() % 3 != 0)
    throw std::runtime_error(path + ": " + std::to_string(points.size()) +
                             " stationary points, not whole min-sad-min triples");
  StoredTransitionNetwork network;
  for (std::size_t t = 0; t < points.size(); t += 3) {
    const std::size_t dof = points[t].coordinates.size();
    for (std::size_t k : {t, t + 2}) {
      StoredNetworkMinimum m;
      m.energy = points[k].energy;
      m.coordinates = points[k].coordinates;
      m.properties = pathInfoProperties(points[k], dof - 6, frequencyConversion, masses, path, k + 1);
      network.minima.push_back(std::move(m));
    }
    StoredTransitionState ts;
    ts.energy = points[t + 1].energy;
    ts.coordinates = points[t + 1].coordinates;
    ts.plusMinimum = static_cast<int>(network.minima.size()) - 2;
    ts.minusMinimum = static_cast<int>(network.minima.size()) - 1;
    ts.properties =
        pathInfoProperties(points[t + 1], dof - 7, frequencyConversion, masses, path, t + 2);
    network.transitionStates.push_back(std::move(ts));
  }
  return network;
}

}  // namespace landscape
