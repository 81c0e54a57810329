#pragma once
// PATHSAMPLE's kinetics output files (docs/pathsample.md), so that existing scripts keep working:
//
//   commit.data     one line per minimum of min.data (G20.10): the committor probability of
//                   reaching A (min.A) before B (min.B), PATHSAMPLE's GPFOLD for DIRECTION AB;
//                   1 on A, 0 on B, and 0 for minima not connected to both sets (PATHSAMPLE leaves
//                   them at their initial value)
//   NGT.rates.new   one line per temperature (3G20.10): T, k(A<-B), k(B<-A)
//   NGT.rates.kSS   the same columns for kSS
//   NGT.rates.kNSS  the same columns for kNSS
//
// Rates are in the inverse time unit of the database (reduced units; or s^-1 for molecules when
// the caller converted them), temperatures in the unit the user gave (kT, or Kelvin).
#include <string>
#include <vector>

namespace landscape {

/// The text of commit.data; NaN (minimum left out) is written as 0.
std::string formatCommitData(const std::vector<double>& committorA);

/// One row of an NGT.rates file.
struct RatesFileRow {
  double temperature = 0.0;
  double aFromB = 0.0;  ///< k(A<-B)
  double bFromA = 0.0;  ///< k(B<-A)
};

/// The text of NGT.rates.new / .kSS / .kNSS.
std::string formatRatesFile(const std::vector<RatesFileRow>& rows);

}  // namespace landscape
