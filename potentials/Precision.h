#pragma once
// Arithmetic precision of a GPU potential (seed 001's naming: "DPDP" = double, "SPFP"-like mixed).
//   Double: every operation and every sum in FP64 (the default; minimisation to RMS 1e-5 kcal/mol/A
//           and the Rayleigh-Ritz search need it).
//   Mixed:  pair arithmetic in FP32, every accumulation in FP64 (dynamics, loose quenches).
// CPU potentials always compute in double and ignore the choice.
#include <string>

namespace landscape {

enum class Precision { Double, Mixed };

/// "double" or "mixed"; throws std::invalid_argument naming the bad value otherwise.
Precision parsePrecision(const std::string& name);
std::string precisionName(Precision precision);

}  // namespace landscape
