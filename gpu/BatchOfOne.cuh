#pragma once
// One structure as a batch of one of a device-resident batched potential: the single-structure
// CUDA potentials (gpu/GuptaCuda, gpu/SitePotentialCuda, gpu/GayBerneCuda) are this over their
// batched twin, so one code path serves B = 1 and B > 1 and their bits are the batch's. A device
// caller (energyGradientDevice: GPU L-BFGS, the rigid layer of gpu/RigidBodyCuda) moves nothing
// but the energy back; a host caller moves the coordinates in and the gradient out. Work runs on
// the legacy default stream. Included only from .cu files.
#include <cstddef>
#include <utility>

#include "gpu/DeviceBuffer.h"

namespace landscape {

template <class Batched>
struct BatchOfOne {
  template <class... Args>
  explicit BatchOfOne(Args&&... args)
      : batched(std::forward<Args>(args)...),
        x(batched.dimension()),
        g(batched.dimension()),
        energy(1) {}

  double energyGradientDevice(const double* d_x, double* d_g) {
    batched.energyGradientDevice(1, d_x, d_g, energy.data(), nullptr, nullptr);
    double e = 0.0;
    energy.copyToHost(&e, 1);  // synchronises (legacy stream) and reports a kernel fault here
    return e;
  }
  double energyGradient(const double* hostX, double* hostG) {
    const std::size_t n = batched.dimension();
    x.copyFromHost(hostX, n);
    const double e = energyGradientDevice(x.data(), g.data());
    g.copyToHost(hostG, n);
    return e;
  }
  double energyOnly(const double* hostX) {
    x.copyFromHost(hostX, batched.dimension());
    return energyGradientDevice(x.data(), g.data());
  }

  Batched batched;
  DeviceBuffer<double> x, g;  // for host callers
  DeviceBuffer<double> energy;
};

}  // namespace landscape
