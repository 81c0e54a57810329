#pragma once
// A Potential written in Python: landscape.Potential subclassed, its energy_gradient(x) -> (energy,
// gradient) called by every algorithm of the library (minimise, basin_hopping, connect,
// characterise) as the built-in potentials are. landscape.FunctionPotential (a plain function)
// and landscape.ase.CalculatorPotential (an ASE calculator) are such subclasses.
//
// The algorithms run on the caller's thread with the GIL held, so a call into Python needs no
// thread switch; the GIL is taken anyway (a thread of the library's own could call). What the
// method returns is checked (a pair, a finite-or-not float and dimension values of float64 in
// the shape of the coordinates, or flat), and an exception it raises reaches the caller of the
// algorithm with a note naming the evaluation.
#include <nanobind/nanobind.h>
#include <nanobind/trampoline.h>

#include <cstddef>
#include <string>
#include <vector>

#include "potentials/BatchedPotential.h"
#include "potentials/Potential.h"

namespace landscape::python {

class PythonPotential : public Potential {
 public:
  NB_TRAMPOLINE(Potential);

  /// dimension: values per structure (3 x atoms for Cartesian coordinates); name for messages.
  PythonPotential(std::size_t dimension, std::string name);

  std::size_t dimension() const override { return m_dimension; }
  std::string name() const override { return m_name; }
  double energy(const double* x) override;
  double energyGradient(const double* x, double* g) override;
  /// Evaluations so far (named in the note of an exception).
  long evaluations() const { return m_evaluations; }

 private:
  std::size_t m_dimension;
  std::string m_name;
  std::vector<double> m_gradient;
  long m_evaluations = 0;
};

/// A batched model written in Python: landscape.BatchedPotential subclassed, its
/// energy_gradient(X) -> (energies, gradients) called with the active structures of each call
/// only, X float64 (B, atoms, 3), energies (B,), gradients shaped like X, all float64 numpy
/// arrays on the host. The batched engine (landscape.batched_minimiser_over) drives it.
///
/// device = true: a model on the GPU. The engine's device arrays go to energy_gradient as DLPack
/// arrays without copies (valid during the call only); it returns DLPack device arrays (CuPy,
/// PyTorch, JAX), copied device to device into the engine's. The rounds engine drives it with
/// its decisions on the device.
///
/// A model whose energy_gradient takes `out` (or that sets fills_out = True) is called as
/// energy_gradient(X, out=(energies, gradients)) with the engine's own result arrays and writes
/// into them (as pele's potentials fill the gradient they are given): no allocation and no copy
/// per call, which on the GPU is most of what a call costs beyond the model's arithmetic. The
/// energies are NaN until it writes them, so one it left unwritten stops the minimisation as a
/// non-finite energy instead of passing on stale values.
class PythonBatchedPotential : public BatchedPotential {
 public:
  NB_TRAMPOLINE(BatchedPotential);

  PythonBatchedPotential(std::size_t dimension, std::string name, bool device);

  std::size_t dimension() const override { return m_dimension; }
  std::string name() const override { return m_name; }
  Backend backend() const override { return m_device ? Backend::Cuda : Backend::Cpu; }
  bool isDeviceResident() const override { return m_device; }
  void energyGradient(std::size_t batch, const double* x, double* g, double* energy,
                      const std::uint8_t* active) override;
  void energyGradientDevice(std::size_t batch, const double* d_x, double* d_g, double* d_energy,
                            const std::uint8_t* d_active, DeviceStream stream) override;

 private:
  void energyGradientThroughDevice(std::size_t batch, const double* x, double* g, double* energy,
                                   const std::uint8_t* active);
  /// Whether energy_gradient writes into out=(energies, gradients) (asked once).
  bool fillsOut();

  std::size_t m_dimension;
  std::string m_name;
  bool m_device;
  long m_calls = 0;
  int m_fillsOut = -1;  ///< -1: not asked yet
};

}  // namespace landscape::python
