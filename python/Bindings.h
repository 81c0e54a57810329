#pragma once
// One function per area of the library, each adding its classes and functions to the module
// (module.cpp calls them in order: later areas use the classes of earlier ones).
#include <nanobind/nanobind.h>

namespace landscape::python {

namespace nb = nanobind;

void bindPotentials(nb::module_& m);      // BindPotentials.cpp: Potential and its factories
void bindDeviceArrays(nb::module_& m);    // BindDevice.cpp: landscape.cuda, device overloads
void bindMinimisation(nb::module_& m);    // BindMinimisation.cpp: LbfgsParams, minimise
void bindBatched(nb::module_& m);         // BindBatched.cpp: batched potential and minimiser
void bindPairPotentials(nb::module_& m);  // BindPairs.cpp: PairModel, tables, pair potentials
void bindGuptaPotentials(nb::module_& m);  // BindGupta.cpp: Gupta metal clusters
void bindRigidMolecules(nb::module_& m);  // BindRigidMolecules.cpp: TIP4P water, Gay-Berne
void bindBasinHopping(nb::module_& m);    // BindBasinHopping.cpp: basin_hopping + callback
void bindNetwork(nb::module_& m);         // BindNetwork.cpp: network.h5, disconnectivity layout
void bindKinetics(nb::module_& m);        // BindKinetics.cpp: rates, committors, regrouping
void bindConnect(nb::module_& m);         // BindConnect.cpp: optim's connect
void bindPaths(nb::module_& m);           // BindPaths.cpp: DNEB, hybrid EF, descent, growth
void bindBenchmark(nb::module_& m);       // BindBenchmark.cpp: C++-side timing

}  // namespace landscape::python
