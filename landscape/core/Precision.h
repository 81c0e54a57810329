#pragma once
// Arithmetic precision of a CUDA potential or dynamics kernel: one vocabulary for every model,
// OpenMM's names, on every command line (--precision) and in every API.
//   double: every operation and every sum in FP64 (the default; minimisation to RMS 1e-5 kcal/mol/A
//           and the Rayleigh-Ritz search need it).
//   mixed:  pair arithmetic in FP32, every accumulation in FP64 (AMBER-GB; dynamics, loose
//           quenches).
//   single: positions, pair physics and the update in FP32, as SOP-GPU computes (SOP dynamics;
//           random numbers and the tip state stay FP64). "float" is accepted as its old name.
// Each model implements the ones it lists (amberGbPrecisions(), sopDynamicsPrecisions()) and
// rejects the others with a sentence. CPU code always computes in double and ignores the choice.
#include <string>
#include <vector>

namespace landscape {

enum class Precision { Double, Mixed, Single };

/// "double", "mixed" or "single" ("float" = single); throws std::invalid_argument naming the bad
/// value otherwise.
Precision parsePrecision(const std::string& name);
/// "double", "mixed" or "single".
std::string precisionName(Precision precision);

/// The precisions of the CUDA AMBER-GB potential: double, mixed.
const std::vector<Precision>& amberGbPrecisions();
/// The precisions of CUDA SOP dynamics: double, single.
const std::vector<Precision>& sopDynamicsPrecisions();
/// Throws std::invalid_argument "<model> implements precision a or b, not c" unless precision is
/// one of supported.
void requirePrecision(Precision precision, const std::vector<Precision>& supported,
                      const std::string& model);

}  // namespace landscape
