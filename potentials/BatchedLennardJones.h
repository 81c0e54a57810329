#pragma once
// Batched Lennard-Jones clusters, CPU reference: each active structure is evaluated by
// LennardJones::energyGradient (reduced units: energy in epsilon, length in sigma), the structures
// spread over a ThreadPool. A structure's energy and gradient are therefore bit for bit those of
// the single-structure potential, whatever the batch, the mask and the thread count.
#include <cstddef>
#include <cstdint>
#include <string>

#include "potentials/BatchedPotential.h"
#include "potentials/LennardJones.h"
#include "landscape/core/ThreadPool.h"

namespace landscape {

class BatchedLennardJones : public BatchedPotential {
 public:
  /// atoms >= 2, threads >= 1; throws std::invalid_argument otherwise.
  BatchedLennardJones(std::size_t atoms, int threads);

  std::size_t dimension() const override { return m_single.dimension(); }
  std::string name() const override;
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;

 private:
  LennardJones m_single;  // stateless: safe to call from several threads at once
  ThreadPool m_pool;
};

}  // namespace landscape
