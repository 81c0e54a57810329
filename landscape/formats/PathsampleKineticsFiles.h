#pragma once
// PATHSAMPLE's kinetics output files (docs/pathsample.md), so that existing scripts keep working:
//
//   commit.data     one line per minimum of min.data (G20.10): the committor probability of
//                   reaching A (min.A) before B (min.B), PATHSAMPLE's GPFOLD for DIRECTION AB;
//                   1 on A, 0 on B, and 0 for minima not connected to both sets (PATHSAMPLE leaves
//                   them at their initial value)
//   NGT.rates.new   one line per temperature (5G20.10E4): T, k(A<-B), k(B<-A), MFPT(A<-B),
//                   MFPT(B<-A), as PATHSAMPLE's NGT with RATESCYCLE writes it
//   NGT.rates.kSS   T, kSS(A<-B), kSS(B<-A) (3G20.10E4)
//   NGT.rates.kNSS  T, kNSS(A<-B), kNSS(B<-A) (3G20.10E4)
//   NGT.rates.log   landscape's own: T and the natural logarithms of the eight values above,
//                   for every temperature, also where the rates lie beyond double precision
//                   (low temperatures, high barriers); a '#' line names the columns
//
// The layout is that of the files PATHSAMPLE wrote for the wales-group Kinetics/MFPT example
// (tests/data/kinetics/9comm/expected_output): Fortran's G20.10E4, four-digit exponents
// ("0.1329748539E-0011") and six trailing blanks after a fixed-point value ("   1.000000000      ").
// Rates are in the inverse time unit of the network (reduced units; s^-1 for molecules), mean
// first-passage times in its time unit, temperatures in the unit the user gave (kT, or Kelvin).
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

/// One row of NGT.rates.new: the rates k and the mean first-passage times.
struct PassageRatesFileRow {
  double temperature = 0.0;
  double aFromB = 0.0;              ///< k(A<-B)
  double bFromA = 0.0;              ///< k(B<-A)
  double passageTimeAFromB = 0.0;   ///< MFPT(A<-B)
  double passageTimeBFromA = 0.0;   ///< MFPT(B<-A)
};

/// One row of NGT.rates.log: natural logarithms, rates in the inverse time unit.
struct LogRatesFileRow {
  double temperature = 0.0;
  double logK[2] = {0.0, 0.0};     ///< ln k(A<-B), ln k(B<-A)
  double logKSS[2] = {0.0, 0.0};   ///< ln kSS(A<-B), ln kSS(B<-A)
  double logKNSS[2] = {0.0, 0.0};  ///< ln kNSS(A<-B), ln kNSS(B<-A)
  double logMfpt[2] = {0.0, 0.0};  ///< ln MFPT(A<-B), ln MFPT(B<-A)
};

/// The text of NGT.rates.kSS / .kNSS (three columns).
std::string formatRatesFile(const std::vector<RatesFileRow>& rows);
/// The text of NGT.rates.new (five columns).
std::string formatPassageRatesFile(const std::vector<PassageRatesFileRow>& rows);
/// The text of NGT.rates.log: a '#' header, then T and eight logarithms per line (%.12e).
std::string formatLogRatesFile(const std::vector<LogRatesFileRow>& rows);

namespace detail {
/// Fortran's Gw.dE4 edit descriptor as gfortran writes it: F(w-6).(d-s) and 6 blanks for
/// 0.1 <= |x| < 10^d, else 0.d digits with a signed four-digit exponent, right-aligned in w.
std::string fortranGE4(double value, int width, int digits);
}  // namespace detail

}  // namespace landscape
