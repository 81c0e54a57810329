#include <stdexcept>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/RandomKernels.cuh"
#include "gpu/RandomStreamsCuda.h"

namespace landscape {

struct RandomStreamsCuda::DeviceState {
  DeviceState(RngKind kind, std::uint64_t seed, std::size_t streams, LaggedFibonacciLags lags)
      : kind(kind), seed(seed), streams(streams), lags(lags) {
    if (streams == 0) throw std::invalid_argument("RandomStreamsCuda: streams must be >= 1, got 0");
    if (kind == RngKind::LaggedFibonacci)
      requireLagsServe(lags, streams);
    else
      this->lags = LaggedFibonacciLags{};
    switch (kind) {
      case RngKind::Lcg:
        lcg = DeviceBuffer<std::uint32_t>(streams);
        break;
      case RngKind::HybridTaus:
        taus = DeviceBuffer<rng::HybridTausState>(streams);
        break;
      case RngKind::Ran2:
        ran2 = DeviceBuffer<std::int32_t>(rng::kRan2StateWords * streams);
        break;
      case RngKind::LaggedFibonacci:
        ring = DeviceBuffer<std::uint32_t>(this->lags.longLag);
        break;
      case RngKind::Philox:
        break;
    }
    reseed(seed);
  }

  RandomStreamsView view() const {
    RandomStreamsView v;
    v.kind = kind;
    v.seed = seed;
    v.step = step;
    v.streams = streams;
    v.d_lcg = const_cast<std::uint32_t*>(lcg.data());
    v.d_taus = const_cast<rng::HybridTausState*>(taus.data());
    v.d_ran2 = const_cast<std::int32_t*>(ran2.data());
    v.d_ring = const_cast<std::uint32_t*>(ring.data());
    v.longLag = lags.longLag;
    v.shortLag = lags.shortLag;
    v.ringBase = static_cast<std::uint32_t>(ringBase);
    return v;
  }

  void reseed(std::uint64_t newSeed) {
    seed = newSeed;
    step = 0;
    ringBase = 0;
    launchSeedRandomStreams(view(), nullptr);
  }

  void advance() {
    ++step;
    if (kind == RngKind::LaggedFibonacci)
      ringBase = (ringBase + kWordsPerStreamStep * streams) % lags.longLag;
  }

  RngKind kind;
  std::uint64_t seed;
  std::size_t streams;
  LaggedFibonacciLags lags;
  std::uint64_t step = 0;
  std::size_t ringBase = 0;
  DeviceBuffer<std::uint32_t> lcg;
  DeviceBuffer<rng::HybridTausState> taus;
  DeviceBuffer<std::int32_t> ran2;
  DeviceBuffer<std::uint32_t> ring;
  DeviceBuffer<std::uint32_t> words;  // nextStep() staging, allocated on first use
};

RandomStreamsCuda::RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams)
    : RandomStreamsCuda(kind, seed, streams,
                        kind == RngKind::LaggedFibonacci && streams > 0
                            ? laggedFibonacciLagsFor(kWordsPerStreamStep * streams)
                            : LaggedFibonacciLags{}) {}

RandomStreamsCuda::RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams,
                                     LaggedFibonacciLags lags)
    : m_state(std::make_unique<DeviceState>(kind, seed, streams, lags)) {}

RandomStreamsCuda::~RandomStreamsCuda() = default;
RandomStreamsCuda::RandomStreamsCuda(RandomStreamsCuda&&) noexcept = default;
RandomStreamsCuda& RandomStreamsCuda::operator=(RandomStreamsCuda&&) noexcept = default;

RngKind RandomStreamsCuda::kind() const { return m_state->kind; }
std::uint64_t RandomStreamsCuda::seed() const { return m_state->seed; }
std::size_t RandomStreamsCuda::streams() const { return m_state->streams; }
std::uint64_t RandomStreamsCuda::step() const { return m_state->step; }
const LaggedFibonacciLags& RandomStreamsCuda::lags() const { return m_state->lags; }

std::size_t RandomStreamsCuda::stateBytes() const {
  if (m_state->kind == RngKind::LaggedFibonacci)
    return 4 * static_cast<std::size_t>(m_state->lags.longLag);
  return rngStateBytes(m_state->kind, m_state->streams);
}

void RandomStreamsCuda::nextStep(std::uint32_t* words) {
  const std::size_t count = kWordsPerStreamStep * m_state->streams;
  if (m_state->words.size() != count) m_state->words = DeviceBuffer<std::uint32_t>(count);
  launchDrawRandomWords(m_state->view(), m_state->words.data(), nullptr);
  m_state->advance();
  m_state->words.copyToHost(words, count);  // synchronous: waits for the kernel
}

RandomStreamsView RandomStreamsCuda::view() const { return m_state->view(); }
void RandomStreamsCuda::advance() { m_state->advance(); }
void RandomStreamsCuda::reseed(std::uint64_t seed) { m_state->reseed(seed); }

}  // namespace landscape
