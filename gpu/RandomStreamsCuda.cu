#include <stdexcept>
#include <vector>
#include <string>

#include "gpu/CudaCheck.h"
#include "gpu/DeviceBuffer.h"
#include "gpu/RandomKernels.cuh"
#include "gpu/RandomStreamsCuda.h"

namespace landscape {

struct RandomStreamsCuda::DeviceState {
  DeviceState(RngKind kind, std::uint64_t seed, std::size_t streams,
              const LaggedFibonacciLayout& layout)
      : kind(kind), seed(seed), streams(streams), layout(layout) {
    if (streams == 0) throw std::invalid_argument("RandomStreamsCuda: streams must be >= 1, got 0");
    if (kind == RngKind::LaggedFibonacci) {
      requireLayoutServes(layout, streams);
      // The kernels index streams and slots in 32 bits.
      if (streams > 0xffffffffu)
        throw std::invalid_argument(
            "RandomStreamsCuda: lagged-fibonacci serves at most 2^32 - 1 streams, got " +
            std::to_string(streams));
    } else {
      this->layout = LaggedFibonacciLayout{};
    }
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
        ring = DeviceBuffer<std::uint32_t>(this->layout.ringWords());
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
    v.longLag = layout.lags.longLag;
    v.shortLag = layout.lags.shortLag;
    if (kind == RngKind::LaggedFibonacci) {
      const std::size_t groups = layout.groups();
      v.groups = static_cast<std::uint32_t>(groups);
      v.groupStreams = static_cast<std::uint32_t>(layout.groupStreams);
      v.lastGroupStreams = static_cast<std::uint32_t>(layout.groupSize(groups - 1));
      v.ringBase = static_cast<std::uint32_t>(ringBase);
      v.lastRingBase = static_cast<std::uint32_t>(lastRingBase);
    }
    return v;
  }

  void reseed(std::uint64_t newSeed) {
    seed = newSeed;
    step = 0;
    ringBase = lastRingBase = 0;
    launchSeedRandomStreams(view(), nullptr);
  }

  // The ring offsets of the full groups and of the last one after `step` steps (RandomStreams).
  void setRingBases() {
    if (kind != RngKind::LaggedFibonacci) return;
    const std::size_t l = layout.lags.longLag;
    ringBase = rng::laggedFibonacciRingBase(step, kWordsPerStreamStep * layout.groupSize(0), l);
    lastRingBase = rng::laggedFibonacciRingBase(
        step, kWordsPerStreamStep * layout.groupSize(layout.groups() - 1), l);
  }

  void advance() {
    ++step;
    if (kind == RngKind::LaggedFibonacci) {
      const std::size_t l = layout.lags.longLag;
      ringBase = (ringBase + kWordsPerStreamStep * layout.groupSize(0)) % l;
      lastRingBase =
          (lastRingBase + kWordsPerStreamStep * layout.groupSize(layout.groups() - 1)) % l;
    }
  }

  RngKind kind;
  std::uint64_t seed;
  std::size_t streams;
  LaggedFibonacciLayout layout;
  std::uint64_t step = 0;
  std::size_t ringBase = 0, lastRingBase = 0;
  DeviceBuffer<std::uint32_t> lcg;
  DeviceBuffer<rng::HybridTausState> taus;
  DeviceBuffer<std::int32_t> ran2;
  DeviceBuffer<std::uint32_t> ring;
  DeviceBuffer<std::uint32_t> words;  // nextStep() staging, allocated on first use
};

RandomStreamsCuda::RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams)
    : RandomStreamsCuda(kind, seed, streams,
                        kind == RngKind::LaggedFibonacci && streams > 0
                            ? laggedFibonacciLayoutFor(streams)
                            : LaggedFibonacciLayout{}) {}

RandomStreamsCuda::RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams,
                                     LaggedFibonacciLags lags)
    : RandomStreamsCuda(kind, seed, streams, singleGroupLayout(lags, streams)) {}

RandomStreamsCuda::RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams,
                                     const LaggedFibonacciLayout& layout)
    : m_state(std::make_unique<DeviceState>(kind, seed, streams, layout)) {}

RandomStreamsCuda::~RandomStreamsCuda() = default;
RandomStreamsCuda::RandomStreamsCuda(RandomStreamsCuda&&) noexcept = default;
RandomStreamsCuda& RandomStreamsCuda::operator=(RandomStreamsCuda&&) noexcept = default;

RngKind RandomStreamsCuda::kind() const { return m_state->kind; }
std::uint64_t RandomStreamsCuda::seed() const { return m_state->seed; }
std::size_t RandomStreamsCuda::streams() const { return m_state->streams; }
std::uint64_t RandomStreamsCuda::step() const { return m_state->step; }
const LaggedFibonacciLags& RandomStreamsCuda::lags() const { return m_state->layout.lags; }
const LaggedFibonacciLayout& RandomStreamsCuda::layout() const { return m_state->layout; }

std::size_t RandomStreamsCuda::stateBytes() const {
  if (m_state->kind == RngKind::LaggedFibonacci) return 4 * m_state->layout.ringWords();
  return rngStateBytes(m_state->kind, m_state->streams);
}

void RandomStreamsCuda::nextStep(std::uint32_t* words, LaggedFibonacciAccess access) {
  const std::size_t count = kWordsPerStreamStep * m_state->streams;
  if (m_state->words.size() != count) m_state->words = DeviceBuffer<std::uint32_t>(count);
  launchDrawRandomWords(m_state->view(), m_state->words.data(), nullptr, access);
  m_state->advance();
  m_state->words.copyToHost(words, count);  // synchronous: waits for the kernel
}

RandomStreamsView RandomStreamsCuda::view() const { return m_state->view(); }
void RandomStreamsCuda::advance() { m_state->advance(); }
void RandomStreamsCuda::reseed(std::uint64_t seed) { m_state->reseed(seed); }

// The device keeps Hybrid Taus as one struct per stream (the state's order) and Ran2 word-major
// (word k of stream i at k streams + i); the state holds every stream's words together.
RandomStreamsState RandomStreamsCuda::state() const {
  const DeviceState& d = *m_state;
  RandomStreamsState s;
  s.step = d.step;
  s.ringBase = d.kind == RngKind::LaggedFibonacci ? d.ringBase : 0;
  switch (d.kind) {
    case RngKind::Lcg:
      s.words = d.lcg.toHost();
      break;
    case RngKind::HybridTaus:
      for (const rng::HybridTausState& t : d.taus.toHost())
        s.words.insert(s.words.end(), {t.z1, t.z2, t.z3, t.z4});
      break;
    case RngKind::Ran2: {
      const std::vector<std::int32_t> device = d.ran2.toHost();
      s.words.resize(device.size());
      for (std::size_t i = 0; i < d.streams; ++i)
        for (int k = 0; k < rng::kRan2StateWords; ++k)
          s.words[i * rng::kRan2StateWords + k] =
              static_cast<std::uint32_t>(device[k * d.streams + i]);
      break;
    }
    case RngKind::LaggedFibonacci:
      s.words = d.ring.toHost();
      break;
    case RngKind::Philox:
      break;
  }
  return s;
}

void RandomStreamsCuda::restore(const RandomStreamsState& s) {
  DeviceState& d = *m_state;
  requireRandomStreamsState(d.kind, d.streams, d.layout, s);
  switch (d.kind) {
    case RngKind::Lcg:
      d.lcg.copyFromHost(s.words);
      break;
    case RngKind::HybridTaus: {
      std::vector<rng::HybridTausState> host(d.streams);
      for (std::size_t i = 0; i < d.streams; ++i)
        host[i] = {s.words[4 * i], s.words[4 * i + 1], s.words[4 * i + 2], s.words[4 * i + 3]};
      d.taus.copyFromHost(host);
      break;
    }
    case RngKind::Ran2: {
      std::vector<std::int32_t> device(s.words.size());
      for (std::size_t i = 0; i < d.streams; ++i)
        for (int k = 0; k < rng::kRan2StateWords; ++k)
          device[k * d.streams + i] =
              static_cast<std::int32_t>(s.words[i * rng::kRan2StateWords + k]);
      d.ran2.copyFromHost(device);
      break;
    }
    case RngKind::LaggedFibonacci:
      d.ring.copyFromHost(s.words);
      break;
    case RngKind::Philox:
      break;
  }
  d.step = s.step;
  d.setRingBases();
}

}  // namespace landscape
