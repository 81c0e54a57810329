#include "landscape/dynamics/RandomStreams.h"

#include <stdexcept>
#include <string>

namespace landscape {

namespace {

LaggedFibonacciLags checkedLags(RngKind kind, std::size_t streams, LaggedFibonacciLags lags) {
  if (kind != RngKind::LaggedFibonacci) return LaggedFibonacciLags{};
  requireLagsServe(lags, streams);
  return lags;
}

std::size_t checkedStreams(std::size_t streams) {
  if (streams == 0) throw std::invalid_argument("RandomStreams: streams must be >= 1, got 0");
  return streams;
}

}  // namespace

RandomStreams::RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams)
    : RandomStreams(kind, seed, streams,
                    kind == RngKind::LaggedFibonacci
                        ? laggedFibonacciLagsFor(kWordsPerStreamStep * checkedStreams(streams))
                        : LaggedFibonacciLags{}) {}

RandomStreams::RandomStreams(RngKind kind, std::uint64_t seed, std::size_t streams,
                             LaggedFibonacciLags lags)
    : m_kind(kind),
      m_seed(seed),
      m_streams(checkedStreams(streams)),
      m_lags(checkedLags(kind, streams, lags)) {
  reseed(seed);
}

std::size_t RandomStreams::stateBytes() const {
  if (m_kind == RngKind::LaggedFibonacci) return 4 * static_cast<std::size_t>(m_lags.longLag);
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
    case RngKind::LaggedFibonacci:
      m_ring.resize(m_lags.longLag);
      for (std::size_t slot = 0; slot < m_ring.size(); ++slot)
        m_ring[slot] = rng::laggedFibonacciInitialWord(seed, slot);
      m_ringBase = 0;
      break;
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
      const std::size_t l = m_lags.longLag, gap = l - m_lags.shortLag;
      const std::size_t draws = kWordsPerStreamStep * n;
      for (std::size_t t = 0; t < draws; ++t) {
        std::size_t slot = m_ringBase + t;
        if (slot >= l) slot -= l;
        std::size_t shortSlot = slot + gap;
        if (shortSlot >= l) shortSlot -= l;
        m_ring[slot] += m_ring[shortSlot];
        words[t] = m_ring[slot];
      }
      m_ringBase = (m_ringBase + draws) % l;
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

}  // namespace landscape
