#include "landscape/dynamics/RngKind.h"

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <string>

#include "landscape/core/InputChecks.h"

namespace landscape {

namespace {

struct NamedKind {
  RngKind kind;
  const char* name;
};

constexpr NamedKind kNames[] = {{RngKind::Lcg, "lcg"},
                                {RngKind::Ran2, "ran2"},
                                {RngKind::HybridTaus, "hybrid-taus"},
                                {RngKind::LaggedFibonacci, "lagged-fibonacci"},
                                {RngKind::Philox, "philox"}};

std::string acceptedNames() {
  std::string names;
  for (const NamedKind& n : kNames) names += std::string(names.empty() ? "" : ", ") + n.name;
  return names;
}

}  // namespace

RngKind parseRngKind(const std::string& name) {
  for (const NamedKind& n : kNames)
    if (name == n.name) return n.kind;
  throw std::invalid_argument("random generator must be one of " + acceptedNames() + ", not " +
                              quoteInput(name));
}

std::string rngKindName(RngKind kind) {
  for (const NamedKind& n : kNames)
    if (kind == n.kind) return n.name;
  throw std::invalid_argument("rngKindName: RngKind holds an unknown value");
}

std::ostream& operator<<(std::ostream& os, RngKind kind) { return os << rngKindName(kind); }

std::vector<RngKind> allRngKinds() {
  std::vector<RngKind> kinds;
  for (const NamedKind& n : kNames) kinds.push_back(n.kind);
  return kinds;
}

std::size_t LaggedFibonacciLags::maxDrawsPerStep() const {
  return std::min<std::size_t>(shortLag, longLag - shortLag);
}

std::size_t LaggedFibonacciLags::maxStreams() const {
  return maxDrawsPerStep() / kWordsPerStreamStep;
}

const std::vector<LaggedFibonacciLags>& laggedFibonacciLagTable() {
  // Primitive trinomials x^l + x^s + 1 over GF(2) with l a Mersenne exponent; of each degree's
  // published trinomials (or their reciprocals x^l + x^(l-s) + 1) the one maximising min(s, l - s).
  // Degrees are kept only where they raise the supported particle count markedly.
  //   2281 ... 44497: Kurita & Matsumoto, Math. Comp. 56 (1991) 817 (2281/1252 is the "sl = 1252"
  //                   of Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011, section
  //                   VI.A);
  //   110503:         Heringa, Bloete & Compagner, Int. J. Mod. Phys. C 3 (1992) 561;
  //   756839, 3021377: Brent, Larvala & Zimmermann, Math. Comp. 72 (2003) 1443;
  //   6972593:        Brent, Larvala & Zimmermann, Math. Comp. 74 (2005) 1001;
  //   24036583:       P. Zimmermann, members.loria.fr/PZimmermann/irred (2007, checked by Magma);
  //   43112609, 74207281: Brent & Zimmermann, "Twelve new primitive binary trinomials",
  //                   arXiv:1605.09213 (2016), Table 1.
  // tools/checks/check_trinomials re-derives primitivity (x^(2^l) = x mod the trinomial, which for
  // prime l and prime 2^l - 1 means primitive); docs/rng.md records which degrees were re-checked
  // here.
  static const std::vector<LaggedFibonacciLags> table = {
      {2281, 1252},       {4423, 2098},        {9689, 4187},         {19937, 9842},
      {44497, 21034},     {110503, 53719},     {756839, 279695},     {3021377, 1010202},
      {6972593, 3037958}, {24036583, 8785528}, {43112609, 21078848}, {74207281, 30684570}};
  return table;
}

LaggedFibonacciLags laggedFibonacciLagsFor(std::size_t drawsPerStep) {
  const std::vector<LaggedFibonacciLags>& table = laggedFibonacciLagTable();
  for (const LaggedFibonacciLags& lags : table)
    if (lags.maxDrawsPerStep() >= std::max<std::size_t>(drawsPerStep, 1)) return lags;
  throw std::invalid_argument(
      "lagged-fibonacci: " + std::to_string(drawsPerStep) +
      " draws per step exceed the largest lag table entry (l = " +
      std::to_string(table.back().longLag) + ", s = " + std::to_string(table.back().shortLag) +
      "), which supports at most " + std::to_string(table.back().maxStreams()) +
      " particles in one shared sequence (laggedFibonacciLayoutFor splits more into groups)");
}

void requireLagsServe(const LaggedFibonacciLags& lags, std::size_t streams) {
  if (lags.shortLag == 0 || lags.shortLag >= lags.longLag)
    throw std::invalid_argument("lagged-fibonacci: the lags must satisfy 0 < s < l, got l = " +
                                std::to_string(lags.longLag) +
                                ", s = " + std::to_string(lags.shortLag));
  if (lags.maxDrawsPerStep() < kWordsPerStreamStep * streams)
    throw std::invalid_argument("lagged-fibonacci: lags l = " + std::to_string(lags.longLag) +
                                ", s = " + std::to_string(lags.shortLag) + " allow " +
                                std::to_string(lags.maxDrawsPerStep()) +
                                " draws per step, fewer than the " +
                                std::to_string(kWordsPerStreamStep * streams) + " of " +
                                std::to_string(streams) + " streams");
}

std::size_t LaggedFibonacciLayout::groups() const {
  return groupStreams == 0 ? 0 : (streams + groupStreams - 1) / groupStreams;
}

std::size_t LaggedFibonacciLayout::groupSize(std::size_t group) const {
  return group + 1 < groups() ? groupStreams : streams - group * groupStreams;
}

std::size_t LaggedFibonacciLayout::ringWords() const {
  return groups() * static_cast<std::size_t>(lags.longLag);
}

std::size_t laggedFibonacciMaxGroupStreams() {
  return laggedFibonacciLagTable().back().maxStreams();
}

LaggedFibonacciLayout laggedFibonacciLayoutFor(std::size_t streams, std::size_t maxGroupStreams) {
  if (streams == 0)
    throw std::invalid_argument("lagged-fibonacci: the layout needs at least one stream");
  if (maxGroupStreams == 0 || maxGroupStreams > laggedFibonacciMaxGroupStreams())
    throw std::invalid_argument("lagged-fibonacci: the largest group must hold 1 to " +
                                std::to_string(laggedFibonacciMaxGroupStreams()) +
                                " particles, got " + std::to_string(maxGroupStreams));
  // Balanced groups: G groups of ceil(N / G) particles need smaller lags than full groups
  // of maxGroupStreams and a remainder.
  const std::size_t groups = (streams + maxGroupStreams - 1) / maxGroupStreams;
  LaggedFibonacciLayout layout;
  layout.streams = streams;
  layout.groupStreams = (streams + groups - 1) / groups;
  layout.lags = laggedFibonacciLagsFor(kWordsPerStreamStep * layout.groupStreams);
  return layout;
}

LaggedFibonacciLayout singleGroupLayout(const LaggedFibonacciLags& lags, std::size_t streams) {
  LaggedFibonacciLayout layout;
  layout.lags = lags;
  layout.streams = streams;
  layout.groupStreams = streams;
  return layout;
}

void requireLayoutServes(const LaggedFibonacciLayout& layout, std::size_t streams) {
  if (layout.streams != streams || layout.groupStreams == 0 || layout.groupStreams > streams)
    throw std::invalid_argument("lagged-fibonacci: a layout of " + std::to_string(layout.streams) +
                                " streams in groups of " + std::to_string(layout.groupStreams) +
                                " cannot serve " + std::to_string(streams) + " streams");
  requireLagsServe(layout.lags, layout.groupStreams);
}

std::size_t rngStateBytes(RngKind kind, std::size_t streams) {
  switch (kind) {
    case RngKind::Lcg:
      return 4 * streams;
    case RngKind::Ran2:
      return 140 * streams;
    case RngKind::HybridTaus:
      return 16 * streams;
    case RngKind::LaggedFibonacci:
      return streams == 0 ? 0 : 4 * laggedFibonacciLayoutFor(streams).ringWords();
    case RngKind::Philox:
      return 0;
  }
  throw std::invalid_argument("rngStateBytes: RngKind holds an unknown value");
}

}  // namespace landscape
