#pragma once
// The random-number generators of Zhmurov, Rybnikov, Kholodov and Barsegov, J. Phys. Chem. B 2011
// (section II, Appendix A) plus counter-based Philox, by name, with their state sizes (Zhmurov et
// al. 2011, Table 1), the lag table of the shared Lagged Fibonacci generator and its groups beyond
// the table's largest N. Host code, compiled in every build (no CUDA headers); the generator math
// itself is in landscape/dynamics/RandomTerms.h, the CPU streams in
// landscape/dynamics/RandomStreams.h and the CUDA twin in gpu/RandomStreamsCuda.h. docs/rng.md
// describes every generator.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace landscape {

enum class RngKind {
  Lcg,              ///< quick-and-dirty LCG x' = 1664525 x + 1013904223 mod 2^32, one per stream
  Ran2,             ///< Numerical Recipes ran2 (L'Ecuyer + Bays-Durham shuffle), one per stream
  HybridTaus,       ///< taus88 (three Tausworthe steps) xor the LCG, one 16-byte state per stream
  LaggedFibonacci,  ///< additive x_n = x_{n-s} + x_{n-l} mod 2^32, one state shared by all streams
  Philox,           ///< Philox4x32-10 (Salmon et al. 2011): counter-based, no state (the default)
};

/// "lcg", "ran2", "hybrid-taus", "lagged-fibonacci", "philox"; throws std::invalid_argument naming
/// the bad value and the accepted names otherwise.
RngKind parseRngKind(const std::string& name);
std::string rngKindName(RngKind kind);
/// Writes rngKindName(kind) (test names and logs).
std::ostream& operator<<(std::ostream& os, RngKind kind);
/// Every kind, in the order above.
std::vector<RngKind> allRngKinds();

/// Words drawn per stream (particle) and step: two Box-Muller pairs give the three Gaussian
/// components of one particle's random force, the fourth Gaussian is discarded (Zhmurov et al.
/// 2011, Table 1, footnote a).
constexpr std::size_t kWordsPerStreamStep = 4;

/// Lags of the additive Lagged Fibonacci generator x_n = x_{n-s} + x_{n-l} mod 2^32. x^l + x^s + 1
/// is a primitive trinomial over GF(2) and 2^l - 1 a Mersenne prime, so the period is
/// 2^31 (2^l - 1) (Brent 1994). All draws of one step are made at once (one per thread, Zhmurov et
/// al. 2011, section III.C), which needs s >= drawsPerStep and l - s >= drawsPerStep.
struct LaggedFibonacciLags {
  std::uint32_t longLag = 0;   ///< l
  std::uint32_t shortLag = 0;  ///< s (0 < s < l)
  /// min(s, l - s): the most draws one step may make.
  std::size_t maxDrawsPerStep() const;
  /// maxDrawsPerStep() / kWordsPerStreamStep: the most particles one step may serve.
  std::size_t maxStreams() const;
};

/// The primitive trinomials x^l + x^s + 1 we use, by increasing l. Sources and the verification
/// of each entry are in the .cpp and in docs/rng.md.
const std::vector<LaggedFibonacciLags>& laggedFibonacciLagTable();

/// The smallest table entry whose lags exceed drawsPerStep (drawsPerStep >= 1). Throws
/// std::invalid_argument naming the largest supported particle count when none does.
LaggedFibonacciLags laggedFibonacciLagsFor(std::size_t drawsPerStep);

/// Throws std::invalid_argument unless 0 < s < l and the lags allow kWordsPerStreamStep x streams
/// draws per step.
void requireLagsServe(const LaggedFibonacciLags& lags, std::size_t streams);

/// How the Lagged Fibonacci generator serves `streams` particles: groups() groups of consecutive
/// particles (group g holds particles g groupStreams ... ), each with its own ring of l words
/// seeded from (seed, g) and one shared sequence within the group: at step k, word j of the
/// group's local stream i is x^(g)_{k M_g + j n_g + i}, n_g its particle count and M_g = 4 n_g.
/// Every group uses the same lags. One group (today's generator) up to
/// laggedFibonacciMaxGroupStreams() particles; beyond, the sequence of group 0 is a new one.
struct LaggedFibonacciLayout {
  LaggedFibonacciLags lags;
  std::size_t streams = 0;       ///< all particles
  std::size_t groupStreams = 0;  ///< particles per group; the last group may hold fewer
  /// ceil(streams / groupStreams).
  std::size_t groups() const;
  /// Particles of group g (groupStreams but for the last group).
  std::size_t groupSize(std::size_t group) const;
  /// groups() x l: the words of all rings.
  std::size_t ringWords() const;
};

/// The most particles one group serves: the largest lag table entry's maxStreams(), 7,671,142.
std::size_t laggedFibonacciMaxGroupStreams();

/// G = ceil(streams / maxGroupStreams) groups of ceil(streams / G) particles (the last one
/// fewer), with the smallest lags that serve a group. streams <= maxGroupStreams gives one group
/// with laggedFibonacciLagsFor(4 streams): the generator of every N up to the limit is
/// unchanged. maxGroupStreams is a parameter so that tests can form several groups from a few
/// hundred particles (it must be >= 1 and at most laggedFibonacciMaxGroupStreams()).
LaggedFibonacciLayout laggedFibonacciLayoutFor(
    std::size_t streams, std::size_t maxGroupStreams = laggedFibonacciMaxGroupStreams());

/// One group with the given lags (which must serve all streams; requireLayoutServes checks).
LaggedFibonacciLayout singleGroupLayout(const LaggedFibonacciLags& lags, std::size_t streams);

/// Throws std::invalid_argument unless the layout is for `streams` particles, groupStreams >= 1
/// and its lags serve a group (requireLagsServe(lags, groupStreams)).
void requireLayoutServes(const LaggedFibonacciLayout& layout, std::size_t streams);

/// Bytes of generator state for `streams` streams (Zhmurov et al. 2011, Table 1; our own layout):
/// LCG 4 per stream, Hybrid Taus 16, Ran2 140 (35 int32: idum, idum2, iy and the 32-entry shuffle
/// table), Philox 0 (the key is the seed), Lagged Fibonacci 4 l per group of
/// laggedFibonacciLayoutFor (one group, shared by all streams, up to 7,671,142 streams).
std::size_t rngStateBytes(RngKind kind, std::size_t streams);

}  // namespace landscape
