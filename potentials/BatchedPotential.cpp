#include "potentials/BatchedPotential.h"

#include <stdexcept>

namespace landscape {

void BatchedPotential::energyGradientDevice(std::size_t, const double*, double*, double*,
                                            const std::uint8_t*, DeviceStream) {
  throw std::logic_error(name() + " has no device entry point (it is not device resident)");
}

}  // namespace landscape
