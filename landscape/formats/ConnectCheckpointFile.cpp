#include "landscape/formats/ConnectCheckpointFile.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "landscape/formats/AtomicFile.h"
#include "landscape/formats/CheckpointReader.h"
#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

constexpr const char* kMagic = "landscape-connect-checkpoint";
// Beyond this many minima a row-major attempt matrix would not fit in memory anyway.
constexpr long long kMaxMinima = 1LL << 20;

// Line-oriented: every line is "key values"; integers only.
class LineReader {
 public:
  LineReader(const std::string& path, const std::string& text) : m_path(path), m_in(text) {}
  std::string line(const std::string& key) {
    std::string text;
    if (!std::getline(m_in, text)) fail("the file ends before '" + key + "' (truncated?)");
    ++m_line;
    if (text.compare(0, key.size() + 1, key + ' ') != 0 && text != key)
      fail("expected '" + key + "', found " + quoteInput(text));
    return text.size() > key.size() ? text.substr(key.size() + 1) : "";
  }
  long long integer(const std::string& key, long long lo, long long hi) {
    return number(line(key), key, lo, hi);
  }
  long long number(const std::string& token, const std::string& key, long long lo,
                   long long hi) const {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(token.c_str(), &end, 10);
    if (token.empty() || errno != 0 || *end != '\0' || v < lo || v > hi)
      fail(quoteInput(token) + " in '" + key + "' is not an integer in [" + std::to_string(lo) +
           ", " + std::to_string(hi) + "]");
    return v;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(m_path + ":" + std::to_string(m_line) + ": " + what);
  }

 private:
  std::string m_path;
  std::istringstream m_in;
  int m_line = 0;
};

constexpr long long kMaxCount = std::numeric_limits<int>::max();

}  // namespace

std::string formatConnectCheckpoint(const ConnectCheckpoint& c) {
  const ConnectProgress& p = c.progress;
  std::ostringstream out;
  out << kMagic << ' ' << kConnectCheckpointVersion << '\n';
  out << "fingerprint " << c.fingerprint.size() << '\n';
  for (const auto& [name, value] : c.fingerprint) {
    if (name.empty() || name.find_first_of(" \t\n") != std::string::npos ||
        value.find('\n') != std::string::npos)
      throw std::invalid_argument("connect checkpoint fingerprint entry '" + name +
                                  "': names need no blanks, values no line breaks");
    out << "option " << name << ' ' << value << '\n';
  }
  out << "loaded-transition-states " << c.loadedTransitionStates << '\n'
      << "minima " << c.minima << '\n'
      << "transition-states " << c.transitionStates << '\n'
      << "cycles " << p.cycles << '\n'
      << "dneb-runs " << p.dnebRuns << '\n'
      << "transition-state-searches " << p.transitionStateSearches << '\n'
      << "gradient-calls " << p.gradientCalls << '\n'
      << "tries-size " << p.triesSize << '\n';
  std::size_t entries = 0;
  for (int t : p.tries) entries += t != 0;
  out << "tries " << entries << '\n';
  for (std::size_t i = 0; i < p.triesSize; ++i)
    for (std::size_t j = 0; j < p.triesSize; ++j)
      if (int t = p.tries[i * p.triesSize + j]) out << "pair " << i << ' ' << j << ' ' << t << '\n';
  out << "end\n";
  return withChecksumLine(out.str());
}

void writeConnectCheckpointFile(const std::string& path, const ConnectCheckpoint& c) {
  writeFileAtomically(path, formatConnectCheckpoint(c), "connect checkpoint");
}

ConnectCheckpoint parseConnectCheckpoint(const std::string& path, std::string text) {
  const bool sealed = removeCheckedChecksumLine(path, text);
  LineReader in(path, text);
  checkSealedVersion(path, in.integer(kMagic, 1, kMaxCount), kConnectCheckpointVersion, sealed,
                     "connect checkpoint");
  ConnectCheckpoint c;
  const long long options = in.integer("fingerprint", 0, 10000);
  for (long long i = 0; i < options; ++i) {
    const std::string entry = in.line("option");
    const std::size_t blank = entry.find(' ');
    c.fingerprint.emplace_back(entry.substr(0, blank),
                               blank == std::string::npos ? "" : entry.substr(blank + 1));
  }
  c.loadedTransitionStates = in.integer("loaded-transition-states", 0, kMaxCount);
  c.minima = in.integer("minima", 0, kMaxMinima);
  c.transitionStates = in.integer("transition-states", 0, kMaxCount);
  ConnectProgress& p = c.progress;
  p.cycles = in.integer("cycles", 0, kMaxCount);
  p.dnebRuns = in.integer("dneb-runs", 0, kMaxCount);
  p.transitionStateSearches = in.integer("transition-state-searches", 0, kMaxCount);
  p.gradientCalls = in.integer("gradient-calls", 0, std::numeric_limits<long>::max());
  p.triesSize = in.integer("tries-size", 0, static_cast<long long>(c.minima));
  p.tries.assign(p.triesSize * p.triesSize, 0);
  const long long pairs = in.integer("tries", 0, static_cast<long long>(p.tries.size()));
  for (long long k = 0; k < pairs; ++k) {
    std::istringstream words(in.line("pair"));
    std::string i, j, t, extra;
    if (!(words >> i >> j >> t) || (words >> extra)) in.fail("'pair' needs: i j count");
    const long long hi = static_cast<long long>(p.triesSize) - 1;
    const std::size_t row = in.number(i, "pair", 0, hi), column = in.number(j, "pair", 0, hi);
    p.tries[row * p.triesSize + column] = static_cast<int>(in.number(t, "pair", 1, kMaxCount));
  }
  in.line("end");
  return c;
}

ConnectCheckpoint readConnectCheckpointFile(const std::string& path) {
  return parseConnectCheckpoint(path, readWholeFile(path, "connect checkpoint"));
}

}  // namespace landscape
