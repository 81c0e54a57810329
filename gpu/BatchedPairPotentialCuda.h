#pragma once
// B structures of one pair model (potentials/PairModel.h: binary Lennard-Jones and Morse
// clusters, Kob-Andersen boxes, tabulated pairs) on a CUDA device: the batched engine's potential
// (docs/batched.md) for clusters of tens to hundreds of atoms and periodic boxes of up to a few
// thousand. One block per structure (gpu/BatchedPairKernels.cuh), over every pair under the
// minimum image or, in a periodic box whose list sphere is well inside it, over each row's own
// Verlet list (cutoff plus the skin, rebuilt in the same launch when an atom of the row moved more
// than half the skin). The model's constants are uploaded once; the list's per-row arrays are
// allocated by reserve(B) (the device entry point reserves a larger batch itself, which
// allocates and synchronises: reserve first where a CUDA graph captures it, as the rounds
// engine's does).
//
// Bits: a structure's energy and gradient are the same whatever the batch size, its position in
// the batch, the active mask, the other structures, the stream, the entry point, and with or
// without the list (the list only leaves out terms that are exactly zero), and from run to run
// (no atomics in the sums; the block shape is fixed at construction). Against the CPU reference
// potentials/PairPotential they agree to rounding (a different summation order and the image and
// r of gpu/PairDevice.cuh): tests/PairPotentialCudaTest.cpp asks 1e-12 of the sum of |pair
// energies| on the energy and 1e-10 of max |g| on every gradient entry.
//
// Units: the model's (reduced for the named systems). CUDA-free header (pimpl); the class exists
// only in CUDA builds (makeBatchedPotentialForSpec builds it). Not thread-safe; with lists a
// launch writes its rows' lists, so two launches in flight at once (two streams) must not share
// row indices.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "potentials/BatchedPotential.h"
#include "potentials/PairModel.h"

namespace landscape {

/// Whether the rows keep Verlet lists.
enum class BatchedPairList {
  Automatic,  ///< a list when the box is periodic, there is a cutoff, the law is not tabulated
              ///< and the list's sphere (the longest cutoff plus the skin) holds at most half the
              ///< box's volume
  Always,     ///< a list whenever the model has a cutoff (not for tabulated laws)
  Never,      ///< every pair
};

class BatchedPairPotentialCuda : public BatchedPotential {
 public:
  /// threadsPerStructure: the block size (a multiple of 32 up to 1024); 0 chooses 128 up to 128
  /// atoms and 256 above. skin (length units, > 0): the list holds each pair within its cutoff
  /// plus the skin. Throws std::invalid_argument for a bad model (PairModel::check), block size
  /// or skin, a list asked for without a cutoff, or a structure too large for one block's shared
  /// memory (then gpu/PairPotentialCuda is the class to use), std::runtime_error without a device.
  explicit BatchedPairPotentialCuda(PairModel model, int threadsPerStructure = 0,
                                    BatchedPairList list = BatchedPairList::Automatic,
                                    double skin = 0.3);
  ~BatchedPairPotentialCuda() override;

  std::size_t dimension() const override;
  std::string name() const override;
  Backend backend() const override { return Backend::Cuda; }

  /// Host entry point (BatchedPotential): the active structures' rows in and out (synchronous,
  /// legacy default stream). Throws std::invalid_argument for a null array.
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  /// The host entry point's own page-locked arrays (gpu/BatchedHostStaging.h).
  HostArrays hostArrays(std::size_t batch) override;
  void preferOnDevice() override;
  bool isDeviceResident() const override { return true; }
  /// Rows may move between calls, with Verlet lists too: a row rebuilds its list whenever an atom
  /// lies more than half the skin from the row's build positions, whichever structure it holds.
  bool rowsMayMove() const override { return true; }
  /// Device entry point (BatchedPotential): one launch on `stream`, not synchronised. Throws
  /// std::invalid_argument for a null array or more than INT_MAX structures.
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

  /// With a list: the row's build positions, its list and counts; 0 without (the engine's arrays
  /// are the only ones).
  std::size_t bytesPerStructure() const override;
  /// With a list: the per-row arrays for `batch` rows (freed and allocated anew when larger; the
  /// rows' lists are then rebuilt at their next evaluation). Throws std::runtime_error when they do
  /// not fit in device memory (gpu/DeviceMemoryPlan.h).
  void reserve(std::size_t batch) override;

  const PairModel& model() const;
  int threadsPerStructure() const;
  /// Lanes that share an atom (gpu/BatchedPairKernels.cuh).
  int lanesPerAtom() const;
  /// Whether the rows keep Verlet lists, their skin and the entries each (atom, lane) holds (a
  /// longer list is not stored: that atom and lane then visit every partner).
  bool usesNeighbourList() const;
  double skin() const;
  int listCapacity() const;
  /// Rows rebuilt so far, summed over launches (synchronous: waits for the device).
  long listRebuilds() const;

 private:
  struct DeviceState;
  std::unique_ptr<DeviceState> m_state;
};

}  // namespace landscape
