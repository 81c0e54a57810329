#pragma once
// The CUDA twin of landscape/RandomStreams: the same (kind, seed, streams) gives the same words,
// bit for bit, with the state in device memory (layout in gpu/RandomKernels.cuh). Integration
// kernels draw inside themselves through view() and call advance() after each step; nextStep()
// draws a step into host memory (tests, tools).
//
// The header needs no CUDA headers (the device buffers are behind a pimpl); the class exists only
// in CUDA builds (LANDSCAPE_HAVE_CUDA). Work runs on the legacy default stream.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "gpu/LaggedFibonacciAccess.h"
#include "landscape/dynamics/RandomStreams.h"
#include "landscape/dynamics/RngKind.h"

namespace landscape {

struct RandomStreamsView;  // gpu/RandomKernels.cuh

class RandomStreamsCuda {
 public:
  /// As RandomStreams; allocates and seeds the state on the current device.
  RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams);
  RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams,
                    LaggedFibonacciLags lags);
  /// As RandomStreams with a layout (Lagged Fibonacci groups; at most 2^32 - 1 streams).
  RandomStreamsCuda(RngKind kind, std::uint64_t seed, std::size_t streams,
                    const LaggedFibonacciLayout& layout);
  ~RandomStreamsCuda();
  RandomStreamsCuda(RandomStreamsCuda&&) noexcept;
  RandomStreamsCuda& operator=(RandomStreamsCuda&&) noexcept;

  RngKind kind() const;
  std::uint64_t seed() const;
  std::size_t streams() const;
  std::uint64_t step() const;
  const LaggedFibonacciLags& lags() const;
  const LaggedFibonacciLayout& layout() const;
  std::size_t stateBytes() const;

  /// Draws one step on the device and copies it to words[j * streams() + i] (synchronous);
  /// Lagged Fibonacci touches its rings as `access` says (the words are the same for all).
  void nextStep(std::uint32_t* words, LaggedFibonacciAccess access = kDefaultLaggedFibonacciAccess);

  /// The state for drawing the current step inside a kernel (.cu code only).
  RandomStreamsView view() const;
  /// Marks the current step as drawn (after the kernel that drew it was enqueued).
  void advance();

  /// Back to step 0 with a new seed (re-seeds on the device).
  void reseed(std::uint64_t seed);

  /// As RandomStreams::state(): the same words in the same order (copied from the device).
  RandomStreamsState state() const;
  /// As RandomStreams::restore() (checked by requireRandomStreamsState; copied to the device).
  void restore(const RandomStreamsState& state);

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
