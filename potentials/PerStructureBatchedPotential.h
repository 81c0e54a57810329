#pragma once
// A batched potential over any single-structure Potential: the structures of a batch
// are spread over a ThreadPool of T threads, each thread slot evaluating its structures with its
// own Potential (potentials keep scratch, so none is shared between threads). Slot t takes the
// next structure from an atomic counter until none is left, so structures that cost more or less
// balance themselves. A structure's energy and gradient are its potential's energyGradient bits,
// whatever the batch, the mask or T -- provided the T potentials are of one system and give the
// same bits for the same coordinates (copies built from one spec on the CPU do). Units: those of
// the potential. This is how a DNEB band evaluates its images together on the CPU
// (landscape/paths/Dneb.h); potentials/BatchedLennardJones is the Lennard-Jones special case.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"
#include "landscape/core/ThreadPool.h"

namespace landscape {

class PerStructureBatchedPotential : public BatchedPotential {
 public:
  /// One thread per potential (not owned; each used by one thread only). Throws
  /// std::invalid_argument when potentials is empty, holds a null or the dimensions differ.
  explicit PerStructureBatchedPotential(std::vector<Potential*> potentials);

  std::size_t dimension() const override { return m_dimension; }
  std::string name() const override;
  Backend backend() const override { return m_potentials.front()->backend(); }
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  int threads() const { return m_pool.threads(); }

 private:
  std::vector<Potential*> m_potentials;
  std::size_t m_dimension;
  ThreadPool m_pool;
};

}  // namespace landscape
