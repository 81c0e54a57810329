#include "landscape/dynamics/RandomStreams.h"

#include <stdexcept>
#include <string>

namespace landscape {

namespace {

LaggedFibonacciLayout checkedLayout(RngKind kind, std::size_t streams,
                                    const LaggedFibonacciLayout& layout) {
  if (kind != RngKind::LaggedFibonacci) return LaggedFibonacciLayout{};
  requireLayoutServes(layout, streams);
  return layout;
}

std::size_t checkedStreams(std::size_t streams) {
  if (streams == 0) throw std::invalid_argument("RandomStreams: streams must be >= 1, got 0");
  return streams;
}

}  // namespace

RandomStreams::RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams)
    : RandomStreams(kind, seed, streams,
                    kind == RngKind::LaggedFibonacci
                        ? laggedFibonacciLayoutFor(checkedStreams(streams))
                        : LaggedFibonacciLayout{}) {}

RandomStreams::RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams,
                             LaggedFibonacciLags lags)
    : RandomStreams(kind, seed, streams, singleGroupLayout(lags, streams)) {}

RandomStreams::RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams,
                             const LaggedFibonacciLayout& layout)
    : m_kind(kind),
      m_seed(seed),
      m_streams(checkedStreams(streams)),
      m_layout(checkedLayout(kind, streams, layout)) {
  reseed(seed);
}

std::size_t RandomStreams::stateBytes() const {
  if (m_kind == RngKind::LaggedFibonacci) return 4 * m_layout.ringWords();
  return rngStateBytes(m_kind, m_streams);
}

void RandomStreams::reseed(std::uint64_t seed) {
  m_seed = seed;
  m_step = 0;
  switch (m_kind) {
    case RngKind::Lcg:
      m_lcg.resize(m_streams);
      for (std::size_t i = 0; i < m_streams; ++i)
        m_lcg[i] = rng::lcgStreamStart(seed, i, m_streams);
      break;
    case RngKind::HybridTaus:
      m_taus.resize(m_streams);
      for (std::size_t i = 0; i < m_streams; ++i) m_taus[i] = rng::hybridTausStreamState(seed, i);
      break;
    case RngKind::Ran2:
      m_ran2.resize(m_streams);
      for (std::size_t i = 0; i < m_streams; ++i)
        rng::ran2Seed(m_ran2[i], rng::ran2StreamSeed(seed, i));
      break;
    case RngKind::LaggedFibonacci: {
      const std::size_t l = m_layout.lags.longLag;
      m_ring.resize(m_layout.ringWords());
      for (std::size_t g = 0; g < m_layout.groups(); ++g)
        for (std::size_t slot = 0; slot < l; ++slot)
          m_ring[g * l + slot] = rng::laggedFibonacciInitialWord(seed, slot, g);
      m_ringBases.assign(m_layout.groups(), 0);
      break;
    }
    case RngKind::Philox:
      break;
  }
}

void RandomStreams::nextStep(std::uint32_t* words) {
  const std::size_t n = m_streams;
  switch (m_kind) {
    case RngKind::Lcg:
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < kWordsPerStreamStep; ++j)
          words[j * n + i] = rng::lcgNext(m_lcg[i]);
      break;
    case RngKind::HybridTaus:
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < kWordsPerStreamStep; ++j)
          words[j * n + i] = rng::hybridTausNext(m_taus[i]);
      break;
    case RngKind::Ran2:
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < kWordsPerStreamStep; ++j)
          words[j * n + i] = rng::ran2Word(rng::ran2Next(m_ran2[i]));
      break;
    case RngKind::LaggedFibonacci: {
      // x_n = x_{n-l} + x_{n-s}; x_{n-l} sits in x_n's own slot, x_{n-s} l - s slots further on.
      // Every x_{n-s} of this step was made in an earlier step (s >= M), so the order is free.
      // Group g's draw t = j n_g + i is word j of its local stream i (stream g groupStreams + i).
      const std::size_t l = m_layout.lags.longLag, gap = l - m_layout.lags.shortLag;
      for (std::size_t g = 0; g < m_layout.groups(); ++g) {
        const std::size_t size = m_layout.groupSize(g), first = g * m_layout.groupStreams;
        std::uint32_t* ring = m_ring.data() + g * l;
        std::size_t slot = m_ringBases[g];
        for (std::size_t j = 0; j < kWordsPerStreamStep; ++j)
          for (std::size_t i = 0; i < size; ++i, ++slot) {
            if (slot >= l) slot -= l;
            std::size_t shortSlot = slot + gap;
            if (shortSlot >= l) shortSlot -= l;
            ring[slot] += ring[shortSlot];
            words[j * n + first + i] = ring[slot];
          }
        m_ringBases[g] = (m_ringBases[g] + kWordsPerStreamStep * size) % l;
      }
      break;
    }
    case RngKind::Philox:
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t block[4];
        rng::philoxBlock(m_seed, i, m_step, block);
        for (std::size_t j = 0; j < kWordsPerStreamStep; ++j) words[j * n + i] = block[j];
      }
      break;
  }
  ++m_step;
}

std::size_t randomStreamsStateWords(RngKind kind, std::size_t streams,
                                    const LaggedFibonacciLayout& layout) {
  switch (kind) {
    case RngKind::Lcg:
      return streams;
    case RngKind::HybridTaus:
      return 4 * streams;
    case RngKind::Ran2:
      return rng::kRan2StateWords * streams;
    case RngKind::LaggedFibonacci:
      return layout.ringWords();
    case RngKind::Philox:
      break;
  }
  return 0;
}

RandomStreamsState RandomStreams::state() const {
  RandomStreamsState s;
  s.step = m_step;
  s.ringBase = m_kind == RngKind::LaggedFibonacci ? m_ringBases[0] : 0;
  switch (m_kind) {
    case RngKind::Lcg:
      s.words = m_lcg;
      break;
    case RngKind::HybridTaus:
      for (const rng::HybridTausState& t : m_taus) s.words.insert(s.words.end(), {t.z1, t.z2, t.z3, t.z4});
      break;
    case RngKind::Ran2:
      for (const rng::Ran2State& r : m_ran2) {
        s.words.insert(s.words.end(), {static_cast<std::uint32_t>(r.idum),
                                       static_cast<std::uint32_t>(r.idum2),
                                       static_cast<std::uint32_t>(r.iy)});
        for (std::int32_t v : r.iv) s.words.push_back(static_cast<std::uint32_t>(v));
      }
      break;
    case RngKind::LaggedFibonacci:
      s.words = m_ring;
      break;
    case RngKind::Philox:
      break;
  }
  return s;
}

namespace {

// Ran2 indexes its table with iy / kRan2Divisor: a saved state must keep idum, iy and the table in
// [0, kRan2M1) and idum2 in [0, kRan2M2), as the generator itself does.
void requireRan2Words(const std::vector<std::uint32_t>& words) {
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::uint32_t limit =
        k % rng::kRan2StateWords == 1 ? rng::kRan2M2 : static_cast<std::uint32_t>(rng::kRan2M1);
    if (words[k] >= limit)
      throw std::invalid_argument("RandomStreams: saved Ran2 word " + std::to_string(k) + " (" +
                                  std::to_string(words[k]) + ") is not a state of the generator");
  }
}

}  // namespace

void requireRandomStreamsState(RngKind kind, std::size_t streams,
                               const LaggedFibonacciLayout& layout, const RandomStreamsState& s) {
  const std::size_t expected = randomStreamsStateWords(kind, streams, layout);
  if (s.words.size() != expected)
    throw std::invalid_argument("RandomStreams: a saved state of " + std::to_string(s.words.size()) +
                                " words, but " + std::to_string(streams) + " streams of " +
                                rngKindName(kind) + " need " + std::to_string(expected));
  // Lagged Fibonacci: group 0 has drawn step M_0 words, so its next draw is at (step M_0) mod l.
  const std::uint64_t ringBase =
      kind == RngKind::LaggedFibonacci
          ? rng::laggedFibonacciRingBase(s.step, kWordsPerStreamStep * layout.groupSize(0),
                                         layout.lags.longLag)
          : 0;
  if (s.ringBase != ringBase)
    throw std::invalid_argument("RandomStreams: saved ring offset " + std::to_string(s.ringBase) +
                                " disagrees with step " + std::to_string(s.step) + " (expected " +
                                std::to_string(ringBase) + ")");
  if (kind == RngKind::Ran2) requireRan2Words(s.words);
}

void RandomStreams::restore(const RandomStreamsState& s) {
  requireRandomStreamsState(m_kind, m_streams, m_layout, s);
  m_step = s.step;
  for (std::size_t g = 0; g < m_ringBases.size(); ++g)
    m_ringBases[g] = static_cast<std::size_t>(rng::laggedFibonacciRingBase(
        m_step, kWordsPerStreamStep * m_layout.groupSize(g), m_layout.lags.longLag));
  const std::uint32_t* w = s.words.data();
  switch (m_kind) {
    case RngKind::Lcg:
      m_lcg = s.words;
      break;
    case RngKind::HybridTaus:
      for (std::size_t i = 0; i < m_streams; ++i, w += 4) m_taus[i] = {w[0], w[1], w[2], w[3]};
      break;
    case RngKind::Ran2:
      for (std::size_t i = 0; i < m_streams; ++i, w += rng::kRan2StateWords) {
        rng::Ran2State& r = m_ran2[i];
        r.idum = static_cast<std::int32_t>(w[0]);
        r.idum2 = static_cast<std::int32_t>(w[1]);
        r.iy = static_cast<std::int32_t>(w[2]);
        for (int j = 0; j < rng::kRan2TableSize; ++j) r.iv[j] = static_cast<std::int32_t>(w[3 + j]);
      }
      break;
    case RngKind::LaggedFibonacci:
      m_ring = s.words;
      break;
    case RngKind::Philox:
      break;
  }
}

}  // namespace landscape
